import "server-only";
import crypto from "node:crypto";
import { and, eq, isNotNull, lte } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { organizations, payments } from "@/db/schema";
import { changeCredits } from "./ledger";
import { newInvoiceNumber } from "./fulfilment";
import { getPlan, type PlanId } from "./plans";
import { isUpgrade, prorationCents } from "./proration";

export { isUpgrade, prorationCents };

/**
 * Plan changes during a paid period (issue 30, docs/billing.md#plan-changes):
 * - an upgrade (to a dearer plan) takes effect at once and is charged pro rata for the rest of the
 *   period — Stripe's proration on a subscription update; the simulated processor computes the same
 *   amount with `prorationCents`;
 * - a downgrade takes effect at renewal, with no charge (`scheduledTier`); choosing the current plan
 *   again before then cancels it;
 * - a period's credits are granted once: the plan's credits carry reference
 *   `plan-period:{periodStart}:{plan}`, and an upgrade tops up only the difference, so upgrading,
 *   downgrading and upgrading again in the same period grants nothing more.
 */

type Organization = typeof organizations.$inferSelect;

/** The reference that makes a period's plan credits a one-time grant. */
export function periodGrantReference(periodStart: Date, planId: PlanId): string {
  return `plan-period:${periodStart.toISOString()}:${planId}`;
}

/** Credits an upgrade adds now: the new plan's allowance less the current one's (nothing for unlimited). */
export function upgradeTopUp(from: PlanId, to: PlanId): number {
  const next = getPlan(to).creditsIncluded;
  const now = Math.max(getPlan(from).creditsIncluded, 0);
  return next < 0 ? 0 : Math.max(next - now, 0);
}

export type PlanChangeOutcome =
  | { kind: "upgraded"; plan: PlanId; amountCents: number; credits: number; paymentId: string }
  | { kind: "scheduled"; plan: PlanId; scheduledPlan: PlanId; effectiveAt: string }
  | { kind: "unscheduled"; plan: PlanId };

/**
 * The one function that changes a paid, active plan to another inside a transaction (the row is
 * locked, so two concurrent changes run one after the other). `charge` is the provider's part of an
 * upgrade (Stripe's subscription update; the simulated processor charges nothing real): it gets the
 * computed proration and answers the amount actually charged and the provider's invoice id.
 */
export async function changePaidPlan(
  db: DbOrTx,
  input: { organizationId: string; userId: string | null; planId: PlanId; provider: "stripe" | "simulated"; now?: Date },
  hooks: {
    charge?: (org: Organization, amountCents: number) => Promise<{ amountCents: number; invoiceId: string | null }>;
    schedule?: (org: Organization, planId: PlanId) => Promise<void>;
    unschedule?: (org: Organization) => Promise<void>;
  } = {},
): Promise<PlanChangeOutcome> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, input.organizationId)).for("update");
    const from = org.subscriptionTier;
    const to = input.planId;
    if (from === to) {
      await hooks.unschedule?.(org);
      await tx.update(organizations).set({ scheduledTier: null, updatedAt: now }).where(eq(organizations.id, org.id));
      return { kind: "unscheduled" as const, plan: from };
    }
    if (!isUpgrade(from, to)) {
      await hooks.schedule?.(org, to);
      await tx.update(organizations).set({ scheduledTier: to, updatedAt: now }).where(eq(organizations.id, org.id));
      return { kind: "scheduled" as const, plan: from, scheduledPlan: to, effectiveAt: org.currentPeriodEnd.toISOString() };
    }

    const period = { start: org.currentPeriodStart, end: org.currentPeriodEnd };
    const computed = prorationCents(getPlan(from).price * 100, getPlan(to).price * 100, period, now);
    const charged = hooks.charge ? await hooks.charge(org, computed) : { amountCents: computed, invoiceId: null };
    const credits = upgradeTopUp(from, to);
    const plan = getPlan(to);
    const paymentId = charged.invoiceId ?? `pay_${crypto.randomUUID().replaceAll("-", "")}`;
    await tx.insert(payments).values({
      id: paymentId,
      organizationId: org.id,
      provider: input.provider,
      kind: "subscription",
      status: "paid",
      amountCents: charged.amountCents,
      currency: "usd",
      credits,
      planId: to,
      description: `Upgrade to ${plan.name}: the rest of this period, prorated`,
      invoiceNumber: newInvoiceNumber(now),
      providerPaymentId: charged.invoiceId,
      createdBy: input.userId,
      paidAt: now,
      metadata: { proration: true, from, to, periodStart: period.start.toISOString(), periodEnd: period.end.toISOString() },
    });
    await tx.update(organizations).set({ subscriptionTier: to, scheduledTier: null, updatedAt: now }).where(eq(organizations.id, org.id));
    if (credits > 0) {
      // Once per period and plan: upgrading to this plan again in the same period finds the grant made.
      await changeCredits(tx, org.id, "grant", credits, {
        reason: `Upgrade to ${plan.name}: ${credits.toLocaleString("en-US")} more credits this period`,
        reference: periodGrantReference(period.start, to),
        actorUserId: input.userId,
        metadata: { paymentId, from, to },
      });
    }
    return { kind: "upgraded" as const, plan: to, amountCents: charged.amountCents, credits, paymentId };
  });
}

/**
 * A downgrade chosen earlier takes effect once its period has ended (the simulated processor has no
 * renewal event; Stripe's invoice.paid and subscription deletion apply it there). The new period gets
 * the new plan's credits once. Answers whether it applied.
 */
export async function applyScheduledPlanIfDue(db: DbOrTx, organizationId: string, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [org] = await tx
      .select()
      .from(organizations)
      .where(and(eq(organizations.id, organizationId), isNotNull(organizations.scheduledTier), lte(organizations.currentPeriodEnd, now)))
      .for("update");
    if (!org?.scheduledTier) return false;
    const plan = getPlan(org.scheduledTier);
    const start = org.currentPeriodEnd;
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + 1);
    await tx
      .update(organizations)
      .set({
        subscriptionTier: plan.id,
        scheduledTier: null,
        subscriptionStatus: "active",
        currentPeriodStart: start,
        currentPeriodEnd: end,
        ...(plan.id === "free" ? { stripeSubscriptionId: null } : {}),
        updatedAt: now,
      })
      .where(eq(organizations.id, org.id));
    if (plan.creditsIncluded > 0) {
      await changeCredits(tx, org.id, "grant", plan.creditsIncluded, {
        reason: `Monthly credits for the ${plan.name} plan`,
        reference: plan.id === "free" ? `free-period:${start.toISOString()}` : periodGrantReference(start, plan.id),
      });
    }
    return true;
  });
}
