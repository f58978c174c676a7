import { NextResponse } from "next/server";
import { clearSessionCookie } from "@/lib/auth/responses";
import { signOut } from "@/lib/auth/service";

/** Browser navigation: ends the session (cookie or bearer) and goes to the landing page. */
export async function GET(req: Request) {
  await signOut(req.headers);
  return clearSessionCookie(NextResponse.redirect(new URL("/", req.url), 303));
}
