import "server-only";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { organizations, type BusinessProfile } from "@/db/schema";

export type Tier = "free" | "pro" | "enterprise";

export async function createOrganization(
  db: DbOrTx,
  input: { name: string; tier?: Tier; status?: "active" | "trialing"; businessProfile?: BusinessProfile },
) {
  const [org] = await db
    .insert(organizations)
    .values({
      id: crypto.randomUUID(),
      name: input.name,
      subscriptionTier: input.tier ?? "free",
      subscriptionStatus: input.status ?? "active",
      businessProfile: input.businessProfile ?? {},
    })
    .returning();
  return org;
}

export async function deleteOrganization(db: DbOrTx, organizationId: string) {
  await db.delete(organizations).where(eq(organizations.id, organizationId));
}
