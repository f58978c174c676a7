import { NextResponse, type NextRequest } from "next/server";

/**
 * Cheap checks before rendering; it authorizes nothing. Every route handler and server component
 * checks the session itself (lib/http/route.ts, lib/auth/current-user.ts).
 * - A visitor who still carries a session cookie is sent from /auth to /dashboard; the dashboard
 *   verifies it, and a stale one ends at /api/login, which clears it.
 * - Every answer gets the basic security headers.
 */
const SESSION_COOKIES = ["switchboard.session_token", "__Secure-switchboard.session_token"];

export function proxy(request: NextRequest) {
  const hasSessionCookie = SESSION_COOKIES.some((name) => request.cookies.has(name));
  const response =
    request.nextUrl.pathname === "/auth" && hasSessionCookie
      ? NextResponse.redirect(new URL("/dashboard", request.url))
      : NextResponse.next();
  response.headers.set("X-Content-Type-Options", "nosniff");
  response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  response.headers.set("X-Frame-Options", "DENY");
  response.headers.set("Permissions-Policy", "camera=(), geolocation=(), microphone=(self)");
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
