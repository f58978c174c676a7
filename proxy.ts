import { NextResponse, type NextRequest } from "next/server";
import { isAdminPath, isSignedInPath } from "@/components/shell/app-shell/route-access";
import { RETURN_TO_PARAM, safeReturnPath, withReturnTo } from "@/lib/identity/auth/return-to";
import { SESSION_COOKIE_NAMES, SIGN_IN_NOTICE_COOKIE, type SignInNotice } from "@/lib/identity/auth/session-hint";
import { apiFallbackResponse } from "@/lib/platform/http/api-fallback";
import { baseSecurityHeaders, contentSecurityPolicy, newNonce } from "@/lib/platform/http/security-headers";

/**
 * Cheap checks before rendering; it authorizes nothing. Every route handler and server component
 * checks the session itself (lib/identity/http/route.ts, lib/identity/auth/current-user.ts).
 * - A visitor without a session cookie who asks for a signed-in page (app/(app)/*) is sent to /auth
 *   (`?next=` the page) before anything renders, with a one-time notice cookie so /auth says why
 *   (spec §4's "You are logged out" / "Admin access required" toasts). A cookie that turns out stale is
 *   the server's to find: the root layout resolves the session, and the client gate sends it to /api/login.
 * - A visitor who still carries a session cookie is sent from /auth to the page it asked for (`?next=`, same-site only) or /dashboard; the dashboard
 *   verifies it, and a stale one ends at /api/login, which clears it.
 * - Pages get a Content-Security-Policy with a fresh nonce (lib/platform/http/security-headers.ts); Next
 *   reads it from the request header and puts it on its scripts.
 * - An /api/* path no route handler takes answers JSON 404, a method its route does not export JSON
 *   405 with Allow (lib/platform/http/api-fallback.ts), instead of Next's HTML page or empty 405.
 * - Every answer gets the basic security headers, and HSTS when PUBLIC_URL is https.
 */
// The proxy cannot import lib/platform/env (server-only); PUBLIC_URL is read here at run time, the same variable.
const https = (process.env.PUBLIC_URL ?? "").startsWith("https://");
const dev = process.env.NODE_ENV === "development";

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const hasSessionCookie = SESSION_COOKIE_NAMES.some((name) => request.cookies.has(name));
  const isPage = !pathname.startsWith("/api/");

  let response: NextResponse;
  let csp: string | null = null;
  const apiFallback = isPage ? null : apiFallbackResponse(request.method, pathname);
  if (apiFallback) {
    response = new NextResponse(apiFallback.body, { status: apiFallback.status, headers: apiFallback.headers });
  } else if (pathname === "/auth" && hasSessionCookie) {
    const next = safeReturnPath(request.nextUrl.searchParams.get(RETURN_TO_PARAM));
    // A proxy's redirect needs an absolute Location (Next resolves it here; a relative one throws
    // Invalid URL): on the address the browser asked for, which the proxy sees.
    response = NextResponse.redirect(new URL(next ?? "/dashboard", request.url), 307);
  } else if (isPage && !hasSessionCookie && isSignedInPath(pathname)) {
    const asked = `${pathname}${request.nextUrl.search}`;
    response = NextResponse.redirect(new URL(withReturnTo("/auth", asked), request.url), 307);
    const notice: SignInNotice = isAdminPath(pathname) ? "admin" : "signed-out";
    response.cookies.set(SIGN_IN_NOTICE_COOKIE, notice, { path: "/", maxAge: 60, sameSite: "lax", secure: https, httpOnly: false });
  } else if (isPage) {
    csp = contentSecurityPolicy(newNonce(), { dev });
    const headers = new Headers(request.headers);
    headers.set("Content-Security-Policy", csp);
    response = NextResponse.next({ request: { headers } });
  } else {
    response = NextResponse.next();
  }
  if (csp) response.headers.set("Content-Security-Policy", csp);
  for (const [name, value] of Object.entries(baseSecurityHeaders({ https }))) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
