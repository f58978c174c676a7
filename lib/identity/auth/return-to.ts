/**
 * Where to send a visitor after sign-in: the page they asked for, but only a path on this site.
 * Anything that could leave the site ("//evil.example", "/\\evil", "https://…", "javascript:…"),
 * API routes and the sign-in page itself fall back to null (the caller then uses /dashboard).
 * Shared by the proxy, /api/login and the sign-in form, so it must stay free of server-only imports.
 */
export const RETURN_TO_PARAM = "next";
const MAX_LENGTH = 2000;
const BASE = "http://switchboard.invalid";

export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // Control characters and backslashes let browsers reinterpret the path as another host.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = url.pathname;
  if (path === "/auth" || path.startsWith("/api/") || path === "/api") return null;
  return `${path}${url.search}${url.hash}`;
}

/** "/api/login?next=/call-history" for a signed-out visit to /call-history; plain path when nothing to return to. */
export function withReturnTo(target: string, returnTo: string | null | undefined): string {
  const safe = safeReturnPath(returnTo);
  if (!safe || safe === "/dashboard" || safe === "/") return target;
  const separator = target.includes("?") ? "&" : "?";
  return `${target}${separator}${RETURN_TO_PARAM}=${encodeURIComponent(safe)}`;
}
