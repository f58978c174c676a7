import { receiveStripeWebhook } from "@/lib/workspace/billing/stripe-webhook";
import { readBodyText } from "@/lib/platform/http/parse";
import { publicRoute } from "@/lib/identity/http/route";

/** Stripe's webhook: verified, idempotent by event id (lib/workspace/billing/stripe-webhook.ts). */
export const POST = publicRoute(async (req, { db }) => receiveStripeWebhook(db, await readBodyText(req), req.headers.get("stripe-signature")));
