import "server-only";
import { NextResponse } from "next/server";
import { authCookieNames, secureCookies } from "./auth";
import type { SignedIn } from "./service";
import { publicUser } from "./session";

/** 200 {sessionId, ...user} with Better Auth's session cookie set (httpOnly, SameSite=Lax). */
export function signedInResponse(signedIn: SignedIn, extra: Record<string, unknown> = {}) {
  const response = NextResponse.json({ sessionId: signedIn.sessionId, ...publicUser(signedIn.user), ...extra });
  for (const cookie of signedIn.setCookies) response.headers.append("set-cookie", cookie);
  return response;
}

/**
 * Expires the session cookies. On https they are `__Secure-` cookies, which a browser only lets a
 * Set-Cookie with `Secure` replace: without it the old cookie stayed, the session was dead on the
 * server, and /auth → /dashboard → /api/login → /auth went round in a loop.
 */
export function clearSessionCookie(response: NextResponse) {
  const secure = secureCookies();
  for (const name of authCookieNames()) {
    response.cookies.set(name, "", { path: "/", maxAge: 0, expires: new Date(0), httpOnly: true, sameSite: "lax", secure });
  }
  return response;
}
