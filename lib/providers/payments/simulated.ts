import "server-only";
import crypto from "node:crypto";
import type { Db } from "@/db/client";
import { fulfilPayment, type CheckoutCompletedEvent } from "@/lib/billing/fulfilment";
import { badRequest } from "@/lib/http/errors";
import type { CheckoutRequest, PaymentsProvider } from "./interface";

function simulatedId(prefix: string) {
  return `${prefix}_sim_${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * The Checkout Session Stripe's webhook would deliver for this payment, paid in full. The simulated
 * processor settles through the same fulfilment code as Stripe (ARCHITECTURE), so test mode proves
 * the real path: payment row → paid, event recorded once, ledger credited with reference = payment id.
 */
export function simulatedCheckoutCompleted(request: CheckoutRequest): CheckoutCompletedEvent {
  const { payment, organization } = request;
  return {
    id: simulatedId("evt"),
    type: "checkout.session.completed",
    data: {
      object: {
        id: simulatedId("cs"),
        object: "checkout.session",
        mode: payment.kind === "subscription" ? "subscription" : "payment",
        status: "complete",
        payment_status: "paid",
        amount_total: payment.amountCents,
        currency: payment.currency,
        customer: null,
        subscription: null,
        payment_intent: simulatedId("pi"),
        metadata: {
          paymentId: payment.id,
          organizationId: organization.id,
          kind: payment.kind,
          credits: String(payment.credits),
          ...(payment.planId ? { planId: payment.planId } : {}),
        },
      },
    },
  };
}

/** Test mode: no card, no network; every checkout settles at once. */
export function createSimulatedPaymentsProvider(db: Db): PaymentsProvider {
  return {
    name: "simulated",
    async startCheckout(request) {
      const event = simulatedCheckoutCompleted(request);
      await fulfilPayment(db, event);
      return { status: "settled", sessionId: event.data.object.id };
    },
    async createPortalSession() {
      throw badRequest("Available with Stripe");
    },
    async cancelSubscription() {
      // Nothing is billed in test mode, so there is nothing to cancel.
    },
  };
}
