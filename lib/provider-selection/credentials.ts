import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { providerCredentials } from "@/db/schema";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { env } from "@/lib/env";

export type ProviderName = "anthropic" | "elevenlabs" | "deepgram" | "twilio" | "stripe";

/** What each provider's saved secret holds once decrypted. */
export type ProviderSecret = {
  anthropic: { apiKey: string };
  elevenlabs: { apiKey: string };
  deepgram: { apiKey: string };
  twilio: { accountSid: string; authToken: string };
  stripe: { secretKey: string; webhookSecret?: string };
};

export type ResolvedCredential<P extends ProviderName> = { source: "organization" | "environment"; secret: ProviderSecret[P] };

function fromEnvironment<P extends ProviderName>(provider: P): ProviderSecret[P] | null {
  const value: Partial<{ [K in ProviderName]: ProviderSecret[K] | null }> = {
    anthropic: env.ANTHROPIC_API_KEY ? { apiKey: env.ANTHROPIC_API_KEY } : null,
    elevenlabs: env.ELEVENLABS_API_KEY ? { apiKey: env.ELEVENLABS_API_KEY } : null,
    deepgram: env.DEEPGRAM_API_KEY ? { apiKey: env.DEEPGRAM_API_KEY } : null,
    twilio:
      env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN
        ? { accountSid: env.TWILIO_ACCOUNT_SID, authToken: env.TWILIO_AUTH_TOKEN }
        : null,
    stripe: env.STRIPE_SECRET_KEY ? { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET } : null,
  };
  return (value[provider] as ProviderSecret[P] | null | undefined) ?? null;
}

/**
 * Provider selection order (ARCHITECTURE): the organization's saved keys, then the environment,
 * then null (the caller uses the offline provider).
 */
export async function resolveCredential<P extends ProviderName>(
  db: DbOrTx,
  organizationId: string | null,
  provider: P,
): Promise<ResolvedCredential<P> | null> {
  if (organizationId) {
    const [row] = await db
      .select({ ciphertext: providerCredentials.ciphertext })
      .from(providerCredentials)
      .where(and(eq(providerCredentials.organizationId, organizationId), eq(providerCredentials.provider, provider)));
    if (row) {
      try {
        return { source: "organization", secret: JSON.parse(decryptSecret(row.ciphertext)) as ProviderSecret[P] };
      } catch {
        // Unreadable after a secret rotation: fall through to the environment, as if unset.
      }
    }
  }
  const secret = fromEnvironment(provider);
  return secret ? { source: "environment", secret } : null;
}
