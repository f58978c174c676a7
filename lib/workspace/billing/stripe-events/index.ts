import "server-only";
import type { Db } from "@/db/client";
import type { CheckoutCompletedEvent, InvoicePaidEvent, SubscriptionDeletedEvent } from "@/lib/platform/providers/payments/events";
import type { FulfilResult } from "../fulfilment";
import { handleCheckoutSessionCompleted } from "./checkout-session-completed";
import { handleSubscriptionDeleted } from "./customer-subscription-deleted";
import { handleInvoicePaid } from "./invoice-paid";

/** Applies a verified Stripe event, one file per event type. Types we do not use are acknowledged and ignored. */
export async function handleStripeEvent(
  db: Db,
  event: { id: string; type: string; data: { object: unknown } },
  scope: { organizationId?: string } = {},
): Promise<FulfilResult> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return handleCheckoutSessionCompleted(db, event as CheckoutCompletedEvent, scope);
    case "invoice.paid":
      return handleInvoicePaid(db, event as InvoicePaidEvent, scope);
    case "customer.subscription.deleted":
      return handleSubscriptionDeleted(db, event as SubscriptionDeletedEvent, scope);
    default:
      return { outcome: "ignored" };
  }
}
