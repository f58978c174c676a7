import { NextResponse } from "next/server";
import { clearSessionCookie } from "@/lib/auth/responses";
import { signOut } from "@/lib/auth/service";
import { publicRoute } from "@/lib/http/route";

/** Ends the session server-side: the token stops working everywhere. Answers 200 even without one. */
export const POST = publicRoute(async (req, { db }) => {
  await signOut(db, req.headers);
  return clearSessionCookie(NextResponse.json({ success: true }));
});
