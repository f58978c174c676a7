import "server-only";
import type { Db } from "@/db/client";
import { createStarterAssistant } from "@/lib/agents/assistants/starter";
import { assertIdentityFree, createUser, type NewUser, type SignedIn } from "@/lib/identity/auth/service";
import { changeCredits } from "@/lib/workspace/billing/ledger";
import { getPlan } from "@/lib/workspace/billing/plans";
import { createOrganization, deleteOrganization, type Tier } from "@/lib/identity/organizations/service";

export type NewAccount = Omit<NewUser, "organizationId"> & {
  /** Join this organization instead of creating one (seed, admin-created users). */
  organizationId?: string;
  organizationName?: string;
  tier?: Tier;
  tierStatus?: "active" | "trialing";
};

/**
 * Creates the user with an organization of their own (its welcome credits and its starter
 * assistant, lib/agents/assistants/starter.ts), and signs them in. Sign-up sits above auth, billing and
 * assistants: auth only makes the user (createUser).
 * E-mail or username already taken → 409 naming which.
 */
export async function registerAccount(db: Db, input: NewAccount, headers: Headers): Promise<SignedIn> {
  if (input.organizationId) return createUser(db, { ...input, organizationId: input.organizationId }, headers);

  await assertIdentityFree(db, input.email, input.username);
  const organizationName = input.organizationName?.trim() || `${input.firstName}'s workspace`;
  const org = await createOrganization(db, {
    name: organizationName,
    tier: input.tier ?? "free",
    status: input.tierStatus ?? "active",
  });
  try {
    const signedIn = await createUser(db, { ...input, organizationId: org.id }, headers);
    const plan = getPlan(input.tier ?? "free");
    await changeCredits(db, org.id, "grant", plan.initialCredits, {
      reason: `Welcome credits for the ${plan.name} plan`,
      reference: "signup",
      actorUserId: signedIn.user.id,
    });
    // A working assistant from the first minute: the voice test and the mobile chat answer at once.
    await createStarterAssistant(db, org.id, organizationName, { namedByUser: Boolean(input.organizationName?.trim()) });
    return signedIn;
  } catch (error) {
    await deleteOrganization(db, org.id);
    throw error;
  }
}
