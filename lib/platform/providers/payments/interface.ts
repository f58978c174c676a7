/**
 * The payments provider (ARCHITECTURE): Stripe when the organization or the environment has a
 * Stripe key, otherwise the simulated processor ("Test mode"). Both settle through
 * lib/workspace/billing/fulfilment.ts; Stripe via its webhook, the simulated one at once.
 */
export type PaymentsProviderName = "stripe" | "simulated";

export type CheckoutRequest = {
  payment: {
    id: string;
    kind: "credit_pack" | "subscription";
    amountCents: number;
    currency: string;
    description: string;
    credits: number;
    planId: string | null;
  };
  organization: { id: string; name: string; stripeCustomerId: string | null };
  customerEmail: string;
  /** Where the payer lands after paying; may contain Stripe's {CHECKOUT_SESSION_ID} placeholder. */
  successUrl: string;
  cancelUrl: string;
};

export type CheckoutResult =
  /** The payer goes to the provider's page; fulfilment follows through the webhook. */
  | { status: "redirect"; url: string; sessionId: string }
  /** Settled already (simulated processor). */
  | { status: "settled"; sessionId: string };

export interface PaymentsProvider {
  readonly name: PaymentsProviderName;
  startCheckout(request: CheckoutRequest): Promise<CheckoutResult>;
  /** Stripe's customer portal (payment methods, invoices, cancellation). */
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  cancelSubscription(subscriptionId: string): Promise<void>;
  /**
   * Stripe only: moves a subscription to another monthly price. `prorate` → Stripe's proration,
   * invoiced and charged at once (an upgrade); otherwise the new price starts at renewal (a downgrade).
   */
  changeSubscriptionPrice?(input: {
    subscriptionId: string;
    amountCents: number;
    currency: string;
    prorate: boolean;
    prorationDate: Date;
  }): Promise<{ invoiceId: string | null; amountCents: number }>;
  /** Stripe only: end (or keep) the subscription at the end of the paid period. */
  setCancelAtPeriodEnd?(subscriptionId: string, cancel: boolean): Promise<void>;
}

/** A provider failure with a message for a person; the service answers 502. */
export class PaymentsError extends Error {
  constructor(
    message: string,
    readonly details: { status?: number; code?: string } = {},
  ) {
    super(message);
    this.name = "PaymentsError";
  }
}
