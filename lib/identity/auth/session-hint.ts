/**
 * What the server can tell about the visitor before any API call: no session cookie → signed out;
 * a cookie → unknown until /api/auth/me answers (it may be stale). Shared by the root layout, the
 * proxy and the browser's auth state.
 */
export type SessionHint = "signed-out" | "unknown";

/**
 * Set by the proxy when it sends a signed-out visitor of a signed-in page to /auth ("signed-out",
 * or "admin" for an admin area); the next page reads it once and says why (components/identity/auth/flash-toast.tsx).
 */
export const SIGN_IN_NOTICE_COOKIE = "switchboard.notice";
export type SignInNotice = "signed-out" | "admin";

export const SESSION_COOKIE_NAMES = ["switchboard.session_token", "__Secure-switchboard.session_token"] as const;
