import "server-only";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { providerCredentials } from "@/db/schema";
import { decryptSecret, encryptSecret, secretHint } from "@/lib/platform/crypto/secret-box";
import { resolveCredential, type ProviderSecret } from "@/lib/workspace/provider-selection/credentials";
import { notFound } from "@/lib/platform/http/errors";
import { verifyApiKey, type KeyVerification } from "@/lib/platform/providers/verify/verify-key";
import { apiKeyProviders, isApiKeyProvider, type ApiKeyProvider, type ApiKeysInput } from "./schema";

/**
 * Which credential the providers use right now (lib/platform/providers/credentials.ts order): the
 * organization's own key, the server's environment key, or none (the offline provider).
 */
export type CredentialSource = "organization" | "environment" | "offline";

export type ApiKeyStatus = {
  set: boolean;
  /** "…1234": the last four characters of the saved key (Twilio: of the auth token). */
  hint: string | null;
  updatedAt: Date | null;
  source: CredentialSource;
  /** The provider's answer to the saved key when it was saved; null when no key is saved. */
  verification: { status: KeyVerification["status"]; message: string | null; checkedAt: Date | null } | null;
};

export type ApiKeysStatus = {
  anthropic: ApiKeyStatus;
  elevenlabs: ApiKeyStatus;
  deepgram: ApiKeyStatus;
  twilio: ApiKeyStatus & { accountSidHint: string | null };
};

/** Settings → API Keys: what is saved and what is in effect, never the secrets themselves. */
export async function getApiKeys(db: Db, organizationId: string): Promise<ApiKeysStatus> {
  const rows = await db
    .select({
      provider: providerCredentials.provider,
      ciphertext: providerCredentials.ciphertext,
      hint: providerCredentials.hint,
      updatedAt: providerCredentials.updatedAt,
      verificationStatus: providerCredentials.verificationStatus,
      verificationMessage: providerCredentials.verificationMessage,
      verifiedAt: providerCredentials.verifiedAt,
    })
    .from(providerCredentials)
    .where(eq(providerCredentials.organizationId, organizationId));
  const sources = await Promise.all(
    apiKeyProviders.map(async (provider) => {
      const resolved = await resolveCredential(db, organizationId, provider, { allProviders: true });
      return [provider, resolved?.source ?? "offline"] as const;
    }),
  );
  const sourceOf = Object.fromEntries(sources) as Record<ApiKeyProvider, CredentialSource>;
  const status = (provider: ApiKeyProvider): ApiKeyStatus => {
    const row = rows.find((r) => r.provider === provider);
    return {
      set: Boolean(row),
      hint: row?.hint ?? null,
      updatedAt: row?.updatedAt ?? null,
      source: sourceOf[provider],
      verification: row
        ? { status: row.verificationStatus ?? "offline", message: row.verificationMessage ?? null, checkedAt: row.verifiedAt ?? null }
        : null,
    };
  };
  const twilioRow = rows.find((r) => r.provider === "twilio");
  return {
    anthropic: status("anthropic"),
    elevenlabs: status("elevenlabs"),
    deepgram: status("deepgram"),
    twilio: { ...status("twilio"), accountSidHint: twilioRow ? accountSidHint(twilioRow.ciphertext) : null },
  };
}

function accountSidHint(ciphertext: string): string | null {
  try {
    const secret = JSON.parse(decryptSecret(ciphertext)) as ProviderSecret["twilio"];
    return secret.accountSid ? secretHint(secret.accountSid) : null;
  } catch {
    // Sealed with an older app secret: unreadable until the key is entered again.
    return null;
  }
}

/** The stored form: the JSON of ProviderSecret[provider], sealed with AES-256-GCM. */
type SealedEntry = { provider: ApiKeyProvider; ciphertext: string; hint: string; secret: { apiKey: string } | ProviderSecret["twilio"] };

function sealed(input: ApiKeysInput): SealedEntry[] {
  const out: SealedEntry[] = [];
  for (const provider of ["anthropic", "elevenlabs", "deepgram"] as const) {
    const apiKey = input[provider];
    if (apiKey === undefined) continue;
    const secret: ProviderSecret[typeof provider] = { apiKey };
    out.push({ provider, ciphertext: encryptSecret(JSON.stringify(secret)), hint: secretHint(apiKey), secret });
  }
  if (input.twilio) {
    const secret: ProviderSecret["twilio"] = { accountSid: input.twilio.accountSid, authToken: input.twilio.authToken };
    out.push({ provider: "twilio", ciphertext: encryptSecret(JSON.stringify(secret)), hint: secretHint(secret.authToken), secret });
  }
  return out;
}

/** Options for tests: where the providers' verification calls go (a local fake). */
export type VerifyOptions = { baseUrls?: Partial<Record<ApiKeyProvider, string>> };

/** Saves (or replaces) the keys sent; the others stay as they are. Returns the new status. */
export async function saveApiKeys(
  db: Db,
  organizationId: string,
  userId: string,
  input: ApiKeysInput,
  options: VerifyOptions = {},
): Promise<ApiKeysStatus> {
  const entries = sealed(input);
  // Ask each provider before the transaction: network calls never hold a database transaction open.
  const verifications = await Promise.all(
    entries.map((entry) => verifyApiKey(entry.provider, entry.secret, { baseUrl: options.baseUrls?.[entry.provider] })),
  );
  await db.transaction(async (tx) => {
    for (const [i, { provider, ciphertext, hint }] of entries.entries()) {
      const entry = { provider, ciphertext, hint };
      const now = new Date();
      const verification = {
        verificationStatus: verifications[i].status,
        verificationMessage: verifications[i].message,
        verifiedAt: verifications[i].status === "verified" ? now : null,
      };
      await tx
        .insert(providerCredentials)
        .values({ id: crypto.randomUUID(), organizationId, ...entry, ...verification, updatedBy: userId, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [providerCredentials.organizationId, providerCredentials.provider],
          set: { ciphertext: entry.ciphertext, hint: entry.hint, ...verification, updatedBy: userId, updatedAt: now },
        });
    }
  });
  return getApiKeys(db, organizationId);
}

/** Removes one provider's key (idempotent); the provider falls back to the server key or offline. */
export async function deleteApiKey(db: Db, organizationId: string, provider: string): Promise<void> {
  if (!isApiKeyProvider(provider)) throw notFound("API key provider");
  await db
    .delete(providerCredentials)
    .where(and(eq(providerCredentials.organizationId, organizationId), eq(providerCredentials.provider, provider)));
}
