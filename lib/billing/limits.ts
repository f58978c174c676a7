import "server-only";
import { count, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { organizations, phoneNumbers, voiceAssistants } from "@/db/schema";
import { forbidden, notFound } from "@/lib/http/errors";
import { effectiveTier, getPlan, plans } from "./plans";

type Resource = "phoneNumbers" | "assistants";

const labels: Record<Resource, [string, string]> = {
  phoneNumbers: ["phone number", "phone numbers"],
  assistants: ["voice assistant", "voice assistants"],
};

/**
 * Throws 403 when the organization's plan does not allow one more of `resource`. The message says
 * the limit and how to raise it. Read the tier fresh on every call, so an upgrade applies at once.
 * The limits are those of the effective tier: a paid tier that is not paid yet ("trialing") counts
 * as Free (docs/billing.md).
 */
export async function assertWithinPlanLimit(db: DbOrTx, organizationId: string, resource: Resource) {
  const [org] = await db
    .select({ subscriptionTier: organizations.subscriptionTier, subscriptionStatus: organizations.subscriptionStatus })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org) throw notFound("Organization");
  const plan = getPlan(effectiveTier(org));
  const limit = plan.limits[resource];
  if (limit < 0) return;
  const table = resource === "phoneNumbers" ? phoneNumbers : voiceAssistants;
  const [row] = await db.select({ n: count() }).from(table).where(eq(table.organizationId, organizationId));
  if (row.n < limit) return;
  const [one, many] = labels[resource];
  if (org.subscriptionTier !== plan.id) {
    const subscribed = getPlan(org.subscriptionTier);
    throw forbidden(
      `Your ${subscribed.name} plan is waiting for payment, so the Free plan's limits apply (${limit} ${limit === 1 ? one : many}). Complete payment in Billing to add more.`,
    );
  }
  const next = plans.find((p) => p.limits[resource] < 0 || p.limits[resource] > limit);
  const raise = next
    ? `Upgrade to ${next.name} (${next.limits[resource] < 0 ? "unlimited" : next.limits[resource]} ${many}) in Billing to add more.`
    : "Remove one to add another.";
  throw forbidden(`Your ${plan.name} plan allows ${limit} ${limit === 1 ? one : many}. ${raise}`);
}
