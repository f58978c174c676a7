import "server-only";
import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { organizations, paymentEvents, payments } from "@/db/schema";
import { changeCredits } from "./ledger";
import type { PlanId } from "./plans";
import { refId, type CheckoutCompletedEvent } from "@/lib/platform/providers/payments/events";

/**
 * Fulfilment: the one place a payment turns into credits or an active plan. Stripe's webhook and
 * the simulated processor both deliver a `checkout.session.completed` event of the same shape; the
 * event id is recorded in the same transaction as its effects, so a replay changes nothing.
 */

export type { CheckoutCompletedEvent, CheckoutSessionObject, InvoiceObject, InvoicePaidEvent, SubscriptionDeletedEvent } from "@/lib/platform/providers/payments/events";

export type PaymentRow = typeof payments.$inferSelect;

export type FulfilOutcome = "fulfilled" | "duplicate" | "pending" | "ignored";

export type FulfilResult = {
  outcome: FulfilOutcome;
  payment?: PaymentRow;
  /** A Stripe subscription the new one replaces: the caller cancels it after the commit. */
  replacedSubscriptionId?: string | null;
};

/** Records the event id; false when it was processed before (the unique key makes this race-free). */
export async function recordEvent(tx: DbOrTx, provider: "stripe" | "simulated", event: { id: string; type: string }) {
  const inserted = await tx
    .insert(paymentEvents)
    .values({ id: event.id, provider, type: event.type })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return inserted.length > 0;
}

export const ONE_MONTH = sql`now() + interval '1 month'`;

/**
 * Settles the payment named in the session's metadata: marks it paid and credits the ledger with
 * reference = payment id (a credit pack's credits, or a plan's credits for the period), and for a
 * subscription activates the plan for a new period and stores the Stripe ids. `scope` limits it to
 * one organization's payments (webhooks signed with an organization's own secret).
 */
export async function fulfilPayment(
  db: Db,
  event: CheckoutCompletedEvent,
  scope: { organizationId?: string } = {},
): Promise<FulfilResult> {
  const session = event.data.object;
  const paymentId = session.metadata?.paymentId ?? null;
  return db.transaction(async (tx) => {
    const [payment] = paymentId ? await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update") : [];
    const fresh = await recordEvent(tx, payment?.provider ?? "stripe", event);
    if (!fresh) return { outcome: "duplicate" as const, payment };
    if (!payment) return { outcome: "ignored" as const };
    if (payment.organizationId !== session.metadata?.organizationId) return { outcome: "ignored" as const };
    if (scope.organizationId && payment.organizationId !== scope.organizationId) return { outcome: "ignored" as const };
    if (payment.status === "paid" || payment.status === "refunded") return { outcome: "duplicate" as const, payment };
    // Delayed payment methods complete the checkout unpaid; checkout.session.async_payment_succeeded follows.
    if (session.payment_status === "unpaid") return { outcome: "pending" as const, payment };
    if (session.amount_total != null && session.amount_total !== payment.amountCents) {
      const [failed] = await tx
        .update(payments)
        .set({ status: "failed", metadata: { ...payment.metadata, failure: `Amount ${session.amount_total} differs from ${payment.amountCents}` } })
        .where(eq(payments.id, payment.id))
        .returning();
      return { outcome: "ignored" as const, payment: failed };
    }

    const customerId = refId(session.customer);
    const subscriptionId = refId(session.subscription);
    const [paid] = await tx
      .update(payments)
      .set({
        status: "paid",
        paidAt: new Date(),
        providerSessionId: payment.providerSessionId ?? session.id,
        providerPaymentId: refId(session.payment_intent) ?? subscriptionId ?? payment.providerPaymentId,
      })
      .where(eq(payments.id, payment.id))
      .returning();

    let replacedSubscriptionId: string | null = null;
    if (payment.kind === "subscription" && payment.planId) {
      const [org] = await tx.select().from(organizations).where(eq(organizations.id, payment.organizationId)).for("update");
      if (org.stripeSubscriptionId && subscriptionId && org.stripeSubscriptionId !== subscriptionId) {
        replacedSubscriptionId = org.stripeSubscriptionId;
      }
      await tx
        .update(organizations)
        .set({
          subscriptionTier: payment.planId as PlanId,
          subscriptionStatus: "active",
          currentPeriodStart: sql`now()`,
          currentPeriodEnd: ONE_MONTH,
          stripeCustomerId: customerId ?? org.stripeCustomerId,
          // A simulated payment replaces nothing at Stripe, so it keeps no subscription id.
          stripeSubscriptionId: payment.provider === "stripe" ? (subscriptionId ?? org.stripeSubscriptionId) : null,
          updatedAt: new Date(),
        })
        .where(eq(organizations.id, payment.organizationId));
    } else if (customerId) {
      await tx
        .update(organizations)
        .set({ stripeCustomerId: customerId, updatedAt: new Date() })
        .where(and(eq(organizations.id, payment.organizationId), sql`${organizations.stripeCustomerId} is null`));
    }

    if (payment.credits > 0) {
      await changeCredits(tx, payment.organizationId, payment.kind === "credit_pack" ? "purchase" : "grant", payment.credits, {
        reason: payment.description,
        reference: payment.id,
        actorUserId: payment.createdBy,
        metadata: { paymentId: payment.id, provider: payment.provider },
      });
    }
    return { outcome: "fulfilled" as const, payment: paid, replacedSubscriptionId };
  });
}

/** A human-readable, unique invoice number: SB-YYYYMMDD-XXXXXXXX. */
export function newInvoiceNumber(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  return `SB-${day}-${crypto.randomBytes(4).toString("hex").toUpperCase()}`;
}
