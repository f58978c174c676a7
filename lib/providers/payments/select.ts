import "server-only";
import type { Db } from "@/db/client";
import { resolveCredential } from "@/lib/providers/credentials";
import type { PaymentsProvider } from "./interface";
import { createSimulatedPaymentsProvider } from "./simulated";
import { createStripePaymentsProvider } from "./stripe";

/**
 * Who collects the money: an organization pays Switchboard for its plan and credits, so only the
 * platform's own Stripe account (STRIPE_SECRET_KEY) may be used — never a key an organization saved,
 * which would let it settle its own purchases. Without it, the simulated processor ("Test mode").
 * `organizationId` stays in the signature for the call sites; it does not change the choice.
 */
export async function getPaymentsProvider(db: Db, organizationId: string): Promise<PaymentsProvider> {
  void organizationId;
  const credential = await resolveCredential(db, null, "stripe");
  if (credential?.secret.secretKey) return createStripePaymentsProvider(credential.secret);
  return createSimulatedPaymentsProvider(db);
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
