import "server-only";
import crypto from "node:crypto";
import type { CheckoutCompletedEvent } from "./events";
import { PaymentsError, type CheckoutRequest, type PaymentsProvider } from "./interface";

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

/**
 * Test mode: no card, no network; every checkout settles at once through `settle` (billing passes
 * its fulfilment function, the same one Stripe's webhook reaches).
 */
export function createSimulatedPaymentsProvider(settle: (event: CheckoutCompletedEvent) => Promise<unknown>): PaymentsProvider {
  return {
    name: "simulated",
    async startCheckout(request) {
      const event = simulatedCheckoutCompleted(request);
      await settle(event);
      return { status: "settled", sessionId: event.data.object.id };
    },
    async createPortalSession() {
      throw new PaymentsError("Available with Stripe", { status: 400 });
    },
    async cancelSubscription() {
      // Nothing is billed in test mode, so there is nothing to cancel.
    },
  };
}
