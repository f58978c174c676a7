/**
 * What the server can tell about the visitor before any API call: no session cookie → signed out;
 * a cookie → unknown until /api/auth/me answers (it may be stale). Shared by the root layout, the
 * proxy and the browser's auth state.
 */
export type SessionHint = "signed-out" | "unknown";

export const SESSION_COOKIE_NAMES = ["switchboard.session_token", "__Secure-switchboard.session_token"] as const;
