import "server-only";
import type { Db } from "@/db/client";
import { fulfilPayment } from "@/lib/workspace/billing/fulfilment";
import { env } from "@/lib/platform/env";
import { resolveCredential } from "./credentials";
import type { PaymentsProvider } from "@/lib/platform/providers/payments/interface";
import { createSimulatedPaymentsProvider } from "@/lib/platform/providers/payments/simulated";
import { createStripePaymentsProvider } from "@/lib/platform/providers/payments/stripe";

/**
 * Who collects the money: an organization pays Switchboard for its plan and credits, so only the
 * platform's own Stripe account (STRIPE_SECRET_KEY) may be used — never a key an organization saved,
 * which would let it settle its own purchases. Without it, the simulated processor ("Test mode") —
 * but only where test payments are allowed (PAYMENTS_TEST_MODE: on for a local install, off by
 * default with DATABASE_URL, so a deployment that forgot its key does not give credits away).
 * Null: payments are not configured. `organizationId` stays in the signature for the call sites.
 */
export async function getPaymentsProvider(db: Db, organizationId: string): Promise<PaymentsProvider | null> {
  void organizationId;
  const credential = await resolveCredential(db, null, "stripe");
  if (credential?.secret.secretKey) return createStripePaymentsProvider(credential.secret);
  if (!env.PAYMENTS_TEST_MODE) return null;
  return createSimulatedPaymentsProvider((event) => fulfilPayment(db, event));
}

/** The Stripe provider itself, or null in test mode (checkout return needs the Stripe API). */
export async function getStripeProvider(db: Db, organizationId: string) {
  void organizationId;
  const credential = await resolveCredential(db, null, "stripe");
  return credential?.secret.secretKey ? createStripePaymentsProvider(credential.secret) : null;
}

/** The signing secret for POST /api/stripe/webhook: the environment's STRIPE_WEBHOOK_SECRET, or null. */
export async function getStripeWebhookSecret(db: Db): Promise<string | null> {
  const credential = await resolveCredential(db, null, "stripe");
  return credential?.secret.webhookSecret || null;
}
