import "server-only";
import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { organizations, paymentEvents, payments } from "@/db/schema";
import { changeCredits } from "./ledger";
import { getPlan, type PlanId } from "./plans";

/**
 * Fulfilment: the one place a payment turns into credits or an active plan. Stripe's webhook and
 * the simulated processor both deliver a `checkout.session.completed` event of the same shape; the
 * event id is recorded in the same transaction as its effects, so a replay changes nothing.
 */

type Ref = string | { id: string } | null | undefined;

/** The fields of a Stripe Checkout Session that fulfilment reads (webhook payloads carry ids, not objects). */
export type CheckoutSessionObject = {
  id: string;
  object?: "checkout.session";
  mode?: "payment" | "subscription" | "setup" | null;
  status?: "open" | "complete" | "expired" | null;
  payment_status?: "paid" | "unpaid" | "no_payment_required" | null;
  amount_total?: number | null;
  currency?: string | null;
  customer?: Ref;
  subscription?: Ref;
  payment_intent?: Ref;
  metadata?: Record<string, string> | null;
};

export type CheckoutCompletedEvent = {
  id: string;
  type: "checkout.session.completed" | "checkout.session.async_payment_succeeded";
  data: { object: CheckoutSessionObject };
};

export type InvoiceObject = {
  id: string;
  number?: string | null;
  customer?: Ref;
  /** API versions before 2025-03-31. */
  subscription?: Ref;
  parent?: { subscription_details?: { subscription?: Ref } | null } | null;
  billing_reason?: string | null;
  amount_paid?: number | null;
  currency?: string | null;
  lines?: { data?: { period?: { start: number; end: number } | null }[] } | null;
};

export type InvoicePaidEvent = { id: string; type: "invoice.paid"; data: { object: InvoiceObject } };

export type SubscriptionDeletedEvent = {
  id: string;
  type: "customer.subscription.deleted";
  data: { object: { id: string; customer?: Ref } };
};

export type PaymentRow = typeof payments.$inferSelect;

export type FulfilOutcome = "fulfilled" | "duplicate" | "pending" | "ignored";

export type FulfilResult = {
  outcome: FulfilOutcome;
  payment?: PaymentRow;
  /** A Stripe subscription the new one replaces: the caller cancels it after the commit. */
  replacedSubscriptionId?: string | null;
};

export function refId(ref: Ref): string | null {
  if (!ref) return null;
  return typeof ref === "string" ? ref : ref.id;
}

/** Records the event id; false when it was processed before (the unique key makes this race-free). */
async function recordEvent(tx: DbOrTx, provider: "stripe" | "simulated", event: { id: string; type: string }) {
  const inserted = await tx
    .insert(paymentEvents)
    .values({ id: event.id, provider, type: event.type })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return inserted.length > 0;
}

const ONE_MONTH = sql`now() + interval '1 month'`;

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

function subscriptionOf(invoice: InvoiceObject): string | null {
  return refId(invoice.parent?.subscription_details?.subscription) ?? refId(invoice.subscription);
}

/**
 * invoice.paid for a renewal: a new period, a payment row (id = the invoice id, so the invoice shows
 * in Billing History) and the plan's credits for the period, granted with reference = invoice id.
 * The subscription's first invoice is settled by checkout.session.completed and skipped here.
 */
export async function renewSubscription(db: Db, event: InvoicePaidEvent, scope: { organizationId?: string } = {}): Promise<FulfilResult> {
  const invoice = event.data.object;
  const subscriptionId = subscriptionOf(invoice);
  return db.transaction(async (tx) => {
    const [org] = subscriptionId
      ? await tx.select().from(organizations).where(eq(organizations.stripeSubscriptionId, subscriptionId)).for("update")
      : [];
    const fresh = await recordEvent(tx, "stripe", event);
    if (!fresh) return { outcome: "duplicate" as const };
    if (!org || (scope.organizationId && org.id !== scope.organizationId)) return { outcome: "ignored" as const };
    if (invoice.billing_reason === "subscription_create") return { outcome: "ignored" as const };

    const plan = getPlan(org.subscriptionTier);
    const period = invoice.lines?.data?.find((line) => line.period)?.period;
    const start = period ? new Date(period.start * 1000) : new Date();
    const end = period ? new Date(period.end * 1000) : new Date(start.getTime() + 30 * 24 * 3600_000);
    const credits = Math.max(plan.creditsIncluded, 0);
    const [payment] = await tx
      .insert(payments)
      .values({
        id: invoice.id,
        organizationId: org.id,
        provider: "stripe",
        kind: "subscription",
        status: "paid",
        amountCents: invoice.amount_paid ?? plan.price * 100,
        currency: invoice.currency ?? "usd",
        credits,
        planId: plan.id,
        description: `${plan.name} plan renewal (${start.toISOString().slice(0, 10)} to ${end.toISOString().slice(0, 10)})`,
        invoiceNumber: invoice.number ?? newInvoiceNumber(),
        providerPaymentId: invoice.id,
        paidAt: new Date(),
      })
      .onConflictDoNothing()
      .returning();
    await tx
      .update(organizations)
      .set({ subscriptionStatus: "active", currentPeriodStart: start, currentPeriodEnd: end, updatedAt: new Date() })
      .where(eq(organizations.id, org.id));
    if (credits > 0) {
      await changeCredits(tx, org.id, "grant", credits, {
        reason: `${plan.name} plan: ${credits.toLocaleString("en-US")} credits for the new period`,
        reference: invoice.id,
        metadata: { invoiceId: invoice.id, provider: "stripe" },
      });
    }
    return { outcome: "fulfilled" as const, payment };
  });
}

/** customer.subscription.deleted: the organization that held it goes back to Free at once. */
export async function endSubscription(db: Db, event: SubscriptionDeletedEvent, scope: { organizationId?: string } = {}): Promise<FulfilResult> {
  const subscriptionId = event.data.object.id;
  return db.transaction(async (tx) => {
    const fresh = await recordEvent(tx, "stripe", event);
    if (!fresh) return { outcome: "duplicate" as const };
    const conditions = [eq(organizations.stripeSubscriptionId, subscriptionId)];
    if (scope.organizationId) conditions.push(eq(organizations.id, scope.organizationId));
    const updated = await tx
      .update(organizations)
      .set({
        subscriptionTier: "free",
        subscriptionStatus: "active",
        stripeSubscriptionId: null,
        currentPeriodStart: sql`now()`,
        currentPeriodEnd: ONE_MONTH,
        updatedAt: new Date(),
      })
      .where(and(...conditions))
      .returning({ id: organizations.id });
    return { outcome: updated.length ? ("fulfilled" as const) : ("ignored" as const) };
  });
}

/** A human-readable, unique invoice number: SB-YYYYMMDD-XXXXXXXX. */
export function newInvoiceNumber(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll("-", "");
  return `SB-${day}-${crypto.randomBytes(4).toString("hex").toUpperCase()}`;
}
