import { NextResponse } from "next/server";
import { clearSessionCookie } from "@/lib/auth/responses";
import { publicRoute } from "@/lib/http/route";

/** Browser navigation: signed in → /dashboard; otherwise (stale cookie cleared) → /auth. */
export const GET = publicRoute({ session: "optional" }, async (req, { session }) => {
  if (session) return NextResponse.redirect(new URL("/dashboard", req.url), 303);
  return clearSessionCookie(NextResponse.redirect(new URL("/auth", req.url), 303));
});
