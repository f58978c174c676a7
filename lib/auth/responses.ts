import "server-only";
import { NextResponse } from "next/server";
import { sessionCookieName } from "./auth";
import type { SignedIn } from "./service";
import { publicUser } from "./session";

/** 200 {sessionId, ...user} with Better Auth's session cookie set (httpOnly, SameSite=Lax). */
export function signedInResponse(signedIn: SignedIn, extra: Record<string, unknown> = {}) {
  const response = NextResponse.json({ sessionId: signedIn.sessionId, ...publicUser(signedIn.user), ...extra });
  for (const cookie of signedIn.setCookies) response.headers.append("set-cookie", cookie);
  return response;
}

export function clearSessionCookie(response: NextResponse) {
  response.cookies.set(sessionCookieName(), "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "lax" });
  return response;
}
