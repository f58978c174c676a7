import "server-only";
import Stripe from "stripe";
import type { CheckoutSessionObject } from "./events";
import { PaymentsError, type CheckoutRequest, type PaymentsProvider } from "./interface";

export type StripeSecret = { secretKey: string; webhookSecret?: string };

type ClientFactory = (secretKey: string) => Stripe;

const defaultFactory: ClientFactory = (secretKey) =>
  new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: "Switchboard" } });

let clientFactory: ClientFactory = defaultFactory;

/**
 * Tests aim the real SDK at the local fake (tests/fakes/stripe-server.ts) with
 * `{host: "127.0.0.1", port, protocol: "http"}`; null restores the default client.
 */
export function setStripeClientFactory(factory: ClientFactory | null) {
  clientFactory = factory ?? defaultFactory;
}

function toPaymentsError(error: unknown): PaymentsError {
  if (error instanceof Stripe.errors.StripeError) {
    return new PaymentsError(`Stripe: ${error.message}`, { status: error.statusCode, code: error.code });
  }
  return new PaymentsError(error instanceof Error ? error.message : "Stripe request failed");
}

/** Checkout Session parameters for a credit pack (mode "payment") or a plan (mode "subscription"). */
export function checkoutSessionParams(request: CheckoutRequest): Stripe.Checkout.SessionCreateParams {
  const { payment, organization } = request;
  const metadata: Record<string, string> = {
    paymentId: payment.id,
    organizationId: organization.id,
    kind: payment.kind,
    credits: String(payment.credits),
    ...(payment.planId ? { planId: payment.planId } : {}),
  };
  const subscription = payment.kind === "subscription";
  const customer: Partial<Stripe.Checkout.SessionCreateParams> = organization.stripeCustomerId
    ? { customer: organization.stripeCustomerId }
    : { customer_email: request.customerEmail, ...(subscription ? {} : { customer_creation: "always" as const }) };
  return {
    mode: subscription ? "subscription" : "payment",
    client_reference_id: organization.id,
    ...customer,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: payment.currency,
          unit_amount: payment.amountCents,
          product_data: { name: payment.description },
          ...(subscription ? { recurring: { interval: "month" as const } } : {}),
        },
      },
    ],
    metadata,
    ...(subscription ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
    success_url: request.successUrl,
    cancel_url: request.cancelUrl,
  };
}

export function createStripePaymentsProvider(secret: StripeSecret): PaymentsProvider & {
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionObject>;
} {
  const stripe = clientFactory(secret.secretKey);
  return {
    name: "stripe",
    async startCheckout(request) {
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(checkoutSessionParams(request), {
          idempotencyKey: `checkout-${request.payment.id}`,
        });
      } catch (error) {
        throw toPaymentsError(error);
      }
      if (!session.url) throw new PaymentsError("Stripe returned no checkout URL");
      return { status: "redirect", url: session.url, sessionId: session.id };
    },
    async createPortalSession({ customerId, returnUrl }) {
      try {
        const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
        return { url: session.url };
      } catch (error) {
        throw toPaymentsError(error);
      }
    },
    async cancelSubscription(subscriptionId) {
      try {
        await stripe.subscriptions.cancel(subscriptionId);
      } catch (error) {
        // Already gone at Stripe: nothing left to cancel.
        if (error instanceof Stripe.errors.StripeError && error.code === "resource_missing") return;
        throw toPaymentsError(error);
      }
    },
    async changeSubscriptionPrice({ subscriptionId, amountCents, currency, prorate, prorationDate }) {
      try {
        const subscription = await stripe.subscriptions.retrieve(subscriptionId);
        const item = subscription.items.data[0];
        if (!item) throw new PaymentsError("Stripe: the subscription has no item to change");
        const product = typeof item.price.product === "string" ? item.price.product : item.price.product.id;
        const updated = await stripe.subscriptions.update(subscriptionId, {
          items: [{ id: item.id, price_data: { currency, product, unit_amount: amountCents, recurring: { interval: "month" } } }],
          // Upgrade: Stripe prorates to the second and invoices the difference now; downgrade: the new price starts at renewal.
          proration_behavior: prorate ? "always_invoice" : "none",
          ...(prorate ? { proration_date: Math.floor(prorationDate.getTime() / 1000) } : {}),
          cancel_at_period_end: false,
          expand: ["latest_invoice"],
        });
        const invoice = prorate && updated.latest_invoice && typeof updated.latest_invoice !== "string" ? updated.latest_invoice : null;
        return { invoiceId: invoice?.id ?? null, amountCents: invoice ? (invoice.amount_paid || invoice.amount_due) : 0 };
      } catch (error) {
        if (error instanceof PaymentsError) throw error;
        throw toPaymentsError(error);
      }
    },
    async setCancelAtPeriodEnd(subscriptionId, cancel) {
      try {
        await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
      } catch (error) {
        throw toPaymentsError(error);
      }
    },
    async retrieveCheckoutSession(id) {
      try {
        return (await stripe.checkout.sessions.retrieve(id)) as unknown as CheckoutSessionObject;
      } catch (error) {
        throw toPaymentsError(error);
      }
    },
  };
}

/**
 * Verifies a webhook delivery: the raw body exactly as received, the Stripe-Signature header and the
 * endpoint's signing secret (tolerance 300 s). A forged, altered or stale delivery → PaymentsError (status 400).
 */
export function verifyStripeWebhook(rawBody: string, signature: string | null, webhookSecret: string): Stripe.Event {
  if (!signature) throw new PaymentsError("Missing Stripe-Signature header", { status: 400, code: "signature_missing" });
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
  } catch (error) {
    throw new PaymentsError(`Webhook signature verification failed: ${error instanceof Error ? error.message : "invalid"}`, {
      status: 400,
      code: "signature_invalid",
    });
  }
}
