import { NextResponse } from "next/server";
import { clearSessionCookie } from "@/lib/auth/responses";
import { resolveSession } from "@/lib/auth/session";

/** Browser navigation: signed in → /dashboard; otherwise (stale cookie cleared) → /auth. */
export async function GET(req: Request) {
  const session = await resolveSession(req.headers).catch(() => null);
  if (session) return NextResponse.redirect(new URL("/dashboard", req.url), 303);
  return clearSessionCookie(NextResponse.redirect(new URL("/auth", req.url), 303));
}
