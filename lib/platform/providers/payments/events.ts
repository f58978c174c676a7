/**
 * The Stripe event payloads billing reads, as Stripe's webhook delivers them (ids, not expanded
 * objects). The simulated processor builds the same `checkout.session.completed` shape, so both
 * settle through lib/workspace/billing/fulfilment.ts.
 */
export type Ref = string | { id: string } | null | undefined;

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

export function refId(ref: Ref): string | null {
  if (!ref) return null;
  return typeof ref === "string" ? ref : ref.id;
}
