import { NextResponse } from "next/server";
import { clearSessionCookie } from "@/lib/identity/auth/responses";
import { signOut } from "@/lib/identity/auth/service";
import { publicRoute } from "@/lib/identity/http/route";

/** Ends the session server-side: the token stops working everywhere. Answers 200 even without one. */
export const POST = publicRoute(async (req, { db }) => {
  await signOut(db, req.headers);
  return clearSessionCookie(NextResponse.json({ success: true }));
});
