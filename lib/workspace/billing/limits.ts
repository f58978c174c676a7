import "server-only";
import { count, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { organizations, phoneNumbers, voiceAssistants } from "@/db/schema";
import { forbidden, notFound } from "@/lib/platform/http/errors";
import { effectiveTier, getPlan, plans, type PlanId } from "./plans";

type Resource = "phoneNumbers" | "assistants";

const labels: Record<Resource, [string, string]> = {
  phoneNumbers: ["phone number", "phone numbers"],
  assistants: ["voice assistant", "voice assistants"],
};

/**
 * Where the organization stands against its plan's limit for `resource`, for the browser to offer
 * the right next step before a create would fail: `limit` null = unlimited; `upgrade` is the first
 * plan that allows more; `waitingForPayment` names the subscribed plan that is not paid yet (its
 * limits apply once it is).
 */
export type PlanLimitStatus = {
  limit: number | null;
  used: number;
  atLimit: boolean;
  planName: string;
  upgrade: { id: PlanId; name: string; limit: number | null } | null;
  waitingForPayment: { id: PlanId; name: string } | null;
};

export async function planLimitStatus(db: DbOrTx, organizationId: string, resource: Resource): Promise<PlanLimitStatus> {
  const [org] = await db
    .select({ subscriptionTier: organizations.subscriptionTier, subscriptionStatus: organizations.subscriptionStatus })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org) throw notFound("Organization");
  const plan = getPlan(effectiveTier(org));
  const limit = plan.limits[resource];
  const table = resource === "phoneNumbers" ? phoneNumbers : voiceAssistants;
  const [row] = await db.select({ n: count() }).from(table).where(eq(table.organizationId, organizationId));
  const used = Number(row?.n ?? 0);
  const next = limit < 0 ? undefined : plans.find((p) => p.limits[resource] < 0 || p.limits[resource] > limit);
  const subscribed = org.subscriptionTier !== plan.id ? getPlan(org.subscriptionTier) : null;
  return {
    limit: limit < 0 ? null : limit,
    used,
    atLimit: limit >= 0 && used >= limit,
    planName: plan.name,
    upgrade: next ? { id: next.id, name: next.name, limit: next.limits[resource] < 0 ? null : next.limits[resource] } : null,
    waitingForPayment: subscribed ? { id: subscribed.id, name: subscribed.name } : null,
  };
}

/**
 * Throws 403 when the organization's plan does not allow one more of `resource`. The message says
 * the limit and how to raise it. Read the tier fresh on every call, so an upgrade applies at once.
 * The limits are those of the effective tier: a paid tier that is not paid yet ("trialing") counts
 * as Free (docs/billing.md).
 */
export async function assertWithinPlanLimit(db: DbOrTx, organizationId: string, resource: Resource) {
  const status = await planLimitStatus(db, organizationId, resource);
  if (!status.atLimit || status.limit === null) return;
  const { limit, upgrade, waitingForPayment } = status;
  const [one, many] = labels[resource];
  if (waitingForPayment) {
    throw forbidden(
      `Your ${waitingForPayment.name} plan is waiting for payment, so the Free plan's limits apply (${limit} ${limit === 1 ? one : many}). Complete payment in Billing to add more.`,
    );
  }
  const raise = upgrade
    ? `Upgrade to ${upgrade.name} (${upgrade.limit === null ? "unlimited" : upgrade.limit} ${many}) in Billing to add more.`
    : "Remove one to add another.";
  throw forbidden(`Your ${status.planName} plan allows ${limit} ${limit === 1 ? one : many}. ${raise}`);
}
