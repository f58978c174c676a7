import "server-only";
import { eq } from "drizzle-orm";
import { NextResponse } from "next/server";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import type { SignedIn } from "@/lib/identity/auth/service";
import { registerAccount } from "./account";
import { publicUser } from "@/lib/identity/auth/session";
import { website } from "@/lib/knowledge/business-profile/schema";
import type { SignupInput } from "./schema";

/**
 * POST /api/auth/signup: the account, its organization (named from organizationName, or a personal
 * one), the chosen tier and the tier's initial credits as a ledger grant — all through
 * registerAccount. A paid tier starts "trialing" with Free's limits until it is paid (docs/billing.md).
 * An optional `website` is saved on the organization's business profile for the dashboard's import offer.
 */
export async function signUp(db: Db, input: SignupInput, headers: Headers) {
  const tier = input.subscriptionTier;
  const signedIn = await registerAccount(
    db,
    {
      email: input.email,
      password: input.password,
      username: input.username,
      firstName: input.firstName,
      lastName: input.lastName,
      role: input.role,
      organizationName: input.organizationName || undefined,
      tier,
      tierStatus: tier === "free" ? "active" : "trialing",
    },
    headers,
  );
  const site = input.website ? website.parse(input.website) : null;
  if (site) {
    // Saved on the new organization's profile; the dashboard then offers to import the site (docs/knowledge.md).
    await db.update(organizations).set({ businessProfile: { website: site } }).where(eq(organizations.id, signedIn.user.organizationId));
  }
  const [org] = await db
    .select({
      subscriptionTier: organizations.subscriptionTier,
      subscriptionStatus: organizations.subscriptionStatus,
      credits: organizations.creditBalance,
    })
    .from(organizations)
    .where(eq(organizations.id, signedIn.user.organizationId));
  return { signedIn, user: { ...publicUser(signedIn.user), ...org } };
}

/** {sessionId, user} with Better Auth's session cookie set, as sign-in does. */
export function signupResponse(signedIn: SignedIn, user: Awaited<ReturnType<typeof signUp>>["user"]) {
  const response = NextResponse.json({ sessionId: signedIn.sessionId, user });
  for (const cookie of signedIn.setCookies) response.headers.append("set-cookie", cookie);
  return response;
}
