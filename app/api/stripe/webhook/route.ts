import { getDb } from "@/db/client";
import { badRequest, HttpError } from "@/lib/http/errors";
import { readBodyText } from "@/lib/http/parse";
import { publicRoute } from "@/lib/http/route";
import { getStripeProvider, getStripeWebhookSecret } from "@/lib/providers/payments/select";
import { handleStripeEvent, verifyStripeWebhook } from "@/lib/providers/payments/stripe";

/**
 * Stripe's webhook (docs/billing.md): the raw body is verified against STRIPE_WEBHOOK_SECRET;
 * forged or stale → 400 and nothing changes. Each event id is applied once; a replay answers 200 {received: true, outcome: "duplicate"}.
 */
export const POST = publicRoute(async (req) => {
  const db = await getDb();
  const secret = await getStripeWebhookSecret(db);
  if (!secret) throw new HttpError(503, "Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)");
  const raw = await readBodyText(req);
  const event = verifyStripeWebhook(raw, req.headers.get("stripe-signature"), secret);
  if (!event.id || !event.type) throw badRequest("Not a Stripe event");
  const result = await handleStripeEvent(db, event);
  if (result.replacedSubscriptionId && result.payment) {
    // The plan changed to a new subscription: stop billing the old one.
    const stripe = await getStripeProvider(db, result.payment.organizationId);
    await stripe?.cancelSubscription(result.replacedSubscriptionId).catch((error: unknown) => {
      console.error("stripe webhook: could not cancel the replaced subscription", error);
    });
  }
  return { received: true, outcome: result.outcome };
});
