import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, payments } from "@/db/schema";
import { refId, type InvoiceObject, type InvoicePaidEvent } from "@/lib/platform/providers/payments/events";
import { newInvoiceNumber, recordEvent, type FulfilResult } from "../fulfilment";
import { changeCredits } from "../ledger";
import { getPlan } from "../plans";

function subscriptionOf(invoice: InvoiceObject): string | null {
  return refId(invoice.parent?.subscription_details?.subscription) ?? refId(invoice.subscription);
}

/**
 * invoice.paid for a renewal: a new period, a payment row (id = the invoice id, so the invoice shows
 * in Billing History) and the plan's credits for the period, granted with reference = invoice id.
 * The subscription's first invoice is settled by checkout.session.completed and skipped here.
 */
export async function handleInvoicePaid(db: Db, event: InvoicePaidEvent, scope: { organizationId?: string } = {}): Promise<FulfilResult> {
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

    // A downgrade chosen during the period takes effect with the renewal (lib/workspace/billing/plan-change.ts).
    const plan = getPlan(org.scheduledTier ?? org.subscriptionTier);
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
      .set({ subscriptionTier: plan.id, scheduledTier: null, subscriptionStatus: "active", currentPeriodStart: start, currentPeriodEnd: end, updatedAt: new Date() })
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

