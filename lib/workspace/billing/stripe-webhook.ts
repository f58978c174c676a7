import "server-only";
import type { Db } from "@/db/client";
import { getStripeProvider, getStripeWebhookSecret } from "@/lib/workspace/provider-selection/payments";
import { badRequest, HttpError } from "@/lib/platform/http/errors";
import { PaymentsError } from "@/lib/platform/providers/payments/interface";
import { verifyStripeWebhook } from "@/lib/platform/providers/payments/stripe";
import { handleStripeEvent } from "./stripe-events";
import { errorForLog } from "@/lib/platform/database-errors";

/**
 * POST /api/stripe/webhook (docs/billing.md): the raw body is verified against STRIPE_WEBHOOK_SECRET;
 * forged or stale → 400 and nothing changes. Each event id is applied once; a replay answers
 * {received: true, outcome: "duplicate"}.
 */
export async function receiveStripeWebhook(db: Db, rawBody: string, signature: string | null) {
  const secret = await getStripeWebhookSecret(db);
  if (!secret) throw new HttpError(503, "Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)");
  let event;
  try {
    event = verifyStripeWebhook(rawBody, signature, secret);
  } catch (error) {
    if (error instanceof PaymentsError) throw badRequest(error.message);
    throw error;
  }
  if (!event.id || !event.type) throw badRequest("Not a Stripe event");
  const result = await handleStripeEvent(db, event);
  if (result.replacedSubscriptionId && result.payment) {
    // The plan changed to a new subscription: stop billing the old one.
    const stripe = await getStripeProvider(db, result.payment.organizationId);
    await stripe?.cancelSubscription(result.replacedSubscriptionId).catch((error: unknown) => {
      console.error("stripe webhook: could not cancel the replaced subscription:", errorForLog(error));
    });
  }
  return { received: true, outcome: result.outcome };
}
