import { NextResponse } from "next/server";
import { clearSessionCookie } from "@/lib/auth/responses";
import { signOut } from "@/lib/auth/service";
import { publicRoute } from "@/lib/http/route";

/** Browser navigation: ends the session (cookie or bearer) and goes to the landing page. */
export const GET = publicRoute(async (req, { db }) => {
  await signOut(db, req.headers);
  return clearSessionCookie(NextResponse.redirect(new URL("/", req.url), 303));
});
