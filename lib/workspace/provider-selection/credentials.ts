import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { providerCredentials } from "@/db/schema";
import { decryptSecret } from "@/lib/platform/crypto/secret-box";
import { preparedStatement } from "@/lib/platform/database-statements";
import { env } from "@/lib/platform/env";
import { HEALTH_DATA_PROVIDERS, hipaaStateOf, providerAllowed } from "@/lib/identity/organizations/hipaa-mode";

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
  options: { allProviders?: boolean } = {},
): Promise<ResolvedCredential<P> | null> {
  return (await resolveCredentials(db, organizationId, [provider], options))[provider];
}

/** resolveCredential for several providers at once: one read of the organization's saved keys. */
export async function resolveCredentials<P extends ProviderName>(
  db: DbOrTx,
  organizationId: string | null,
  providers: P[],
  /** `allProviders`: the keys as saved, for the API-keys screen; otherwise HIPAA mode drops providers without a BAA (lib/compliance/hipaa.ts). */
  options: { allProviders?: boolean } = {},
): Promise<{ [K in P]: ResolvedCredential<K> | null }> {
  const saved = new Map<string, string>();
  if (organizationId) {
    // Read on every assistant turn: planned once per set of providers (lib/platform/database-statements.ts).
    const wanted = [...new Set(providers)].sort();
    const statement = preparedStatement(db, `switchboard_credentials_${wanted.join("_")}`, () =>
      db
        .select({ provider: providerCredentials.provider, ciphertext: providerCredentials.ciphertext })
        .from(providerCredentials)
        .where(
          and(
            eq(providerCredentials.organizationId, sql.placeholder("organizationId")),
            inArray(
              providerCredentials.provider,
              wanted.map((_, i) => sql.placeholder(`provider${i}`)),
            ),
          ),
        ),
    );
    const rows = await statement.execute({ organizationId, ...Object.fromEntries(wanted.map((p, i) => [`provider${i}`, p])) });
    for (const row of rows) saved.set(row.provider, row.ciphertext);
  }
  const resolved = {} as { [K in P]: ResolvedCredential<K> | null };
  for (const provider of providers) {
    resolved[provider] = fromSaved(saved.get(provider), provider);
  }
  if (organizationId && !options.allProviders && providers.some((p) => (HEALTH_DATA_PROVIDERS as readonly string[]).includes(p))) {
    const hipaa = await hipaaStateOf(db, organizationId);
    for (const provider of providers) if (!providerAllowed(hipaa, provider)) resolved[provider] = null; // the offline provider instead
  }
  return resolved;
}

function fromSaved<P extends ProviderName>(ciphertext: string | undefined, provider: P): ResolvedCredential<P> | null {
  if (ciphertext) {
    try {
      return { source: "organization", secret: JSON.parse(decryptSecret(ciphertext)) as ProviderSecret[P] };
    } catch {
      // Unreadable after a secret rotation: fall through to the environment, as if unset.
    }
  }
  const secret = fromEnvironment(provider);
  return secret ? { source: "environment", secret } : null;
}
