import { receiveStripeWebhook } from "@/lib/billing/stripe-webhook";
import { readBodyText } from "@/lib/http/parse";
import { publicRoute } from "@/lib/http/route";

/** Stripe's webhook: verified, idempotent by event id (lib/billing/stripe-webhook.ts). */
export const POST = publicRoute(async (req, { db }) => receiveStripeWebhook(db, await readBodyText(req), req.headers.get("stripe-signature")));
