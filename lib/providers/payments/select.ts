import "server-only";
import type { Db } from "@/db/client";
import { resolveCredential } from "@/lib/providers/credentials";
import type { PaymentsProvider } from "./interface";
import { createSimulatedPaymentsProvider } from "./simulated";
import { createStripePaymentsProvider } from "./stripe";

/**
 * The organization's payments provider (ARCHITECTURE): its saved Stripe key, else the environment's
 * STRIPE_SECRET_KEY, else the simulated processor (shown as "Test mode").
 */
export async function getPaymentsProvider(db: Db, organizationId: string): Promise<PaymentsProvider> {
  const credential = await resolveCredential(db, organizationId, "stripe");
  if (credential?.secret.secretKey) return createStripePaymentsProvider(credential.secret);
  return createSimulatedPaymentsProvider(db);
}

/** The Stripe provider itself, or null in test mode (checkout return needs the Stripe API). */
export async function getStripeProvider(db: Db, organizationId: string) {
  const credential = await resolveCredential(db, organizationId, "stripe");
  return credential?.secret.secretKey ? createStripePaymentsProvider(credential.secret) : null;
}

/**
 * The signing secret for POST /api/stripe/webhook: the environment's STRIPE_WEBHOOK_SECRET, or with
 * `?organization=<id>` that organization's saved one. Null when none is configured.
 */
export async function getStripeWebhookSecret(db: Db, organizationId: string | null): Promise<string | null> {
  const credential = await resolveCredential(db, organizationId, "stripe");
  if (organizationId && credential?.source !== "organization") return null;
  return credential?.secret.webhookSecret || null;
}
