import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { integrationConnections } from "@/db/schema";
import { decryptSecret, encryptSecret } from "@/lib/platform/crypto/secret-box";
import { enqueue } from "@/lib/platform/jobs/queue";
import type { JobRef } from "@/lib/platform/jobs/types";
import { oauthCards, resolveProvider, type OAuthProviderId, type ResolvedProvider } from "./oauth-providers";
import { failureOf, ProviderError, providerFetch } from "./provider-http";

/**
 * The OAuth grants of connected apps, once stored (lib/channels/integrations/oauth.ts connects and
 * disconnects them): the tokens read back, the access token refreshed when it expires within
 * REFRESH_MARGIN_MS (and stored again), and a refused refresh turning the card to "Reconnect". Here,
 * below every context, because both the appointment book (a connected Google Calendar,
 * lib/workspace/provider-selection/calendar.ts) and the deliveries of the integrations use them.
 */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export type OAuthTokens = {
  kind: "oauth";
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds; null: the token does not expire (Slack bot tokens, Notion). */
  expiresAt: number | null;
  scope: string | null;
};

type Connection = typeof integrationConnections.$inferSelect;

/** The owners' notice of a lost grant; its handler lives with the integrations (it needs notifications). */
export const reconnectNotice: JobRef<{ organizationId: string; name: string; reason: string }> = {
  name: "integrations.reconnect-notice",
  retryLimit: 3,
  retryDelaySeconds: 30,
};

function providerOf(slug: string): OAuthProviderId | null {
  return oauthCards[slug]?.provider ?? null;
}

export type TokenAnswer = {
  ok?: boolean;
  error?: string;
  error_description?: string;
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  team?: { id?: string; name?: string };
  incoming_webhook?: { channel?: string; channel_id?: string };
  workspace_name?: string;
  workspace_id?: string;
  hub_domain?: string;
  hub_id?: number;
};

export async function tokenRequest(provider: ResolvedProvider, params: Record<string, string>): Promise<TokenAnswer> {
  const headers: Record<string, string> = { accept: "application/json" };
  const fields = { ...params };
  if (provider.clientAuth === "basic") {
    headers.authorization = `Basic ${Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString("base64")}`;
  } else {
    fields.client_id = provider.clientId;
    fields.client_secret = provider.clientSecret;
  }
  let body: string;
  if (provider.tokenFormat === "json") {
    headers["content-type"] = "application/json";
    body = JSON.stringify(fields);
  } else {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(fields).toString();
  }
  const res = await providerFetch(provider.tokenUrl, { method: "POST", headers, body });
  if (res.status === 400 || res.status === 401) {
    // invalid_grant & co: the grant is gone (revoked, expired, or the code was already used).
    const answer = (await res.json().catch(() => ({}))) as TokenAnswer;
    throw new ProviderError(`${provider.id} refused the grant: ${answer.error_description ?? answer.error ?? `HTTP ${res.status}`}`, "auth", res.status);
  }
  if (!res.ok) throw await failureOf(res, `${provider.id}'s token endpoint`);
  const answer = (await res.json()) as TokenAnswer;
  // Slack answers 200 with {ok: false, error} on a refused code or refresh.
  if (answer.ok === false) throw new ProviderError(`${provider.id} refused the grant: ${answer.error ?? "unknown error"}`, "auth", res.status);
  if (!answer.access_token) throw new ProviderError(`${provider.id}'s token endpoint answered without an access token`, "invalid", res.status);
  return answer;
}

export function tokensFrom(answer: TokenAnswer, previous?: OAuthTokens): OAuthTokens {
  return {
    kind: "oauth",
    accessToken: answer.access_token!,
    // Google answers a refresh without a new refresh token: keep the old one.
    refreshToken: answer.refresh_token ?? previous?.refreshToken ?? null,
    expiresAt: typeof answer.expires_in === "number" ? Date.now() + answer.expires_in * 1000 : null,
    scope: answer.scope ?? previous?.scope ?? null,
  };
}


export function readTokens(connection: Pick<Connection, "secretCiphertext">): OAuthTokens | null {
  if (!connection.secretCiphertext) return null;
  try {
    const parsed = JSON.parse(decryptSecret(connection.secretCiphertext)) as OAuthTokens;
    return parsed.kind === "oauth" && typeof parsed.accessToken === "string" ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The grant is gone: the card shows "Reconnect", pending work fails with the reason, and the owners'
 * notice is queued (integrations.reconnect-notice, lib/channels/integrations/oauth.ts: the in-app
 * alert, e-mail and push as the owners chose) — through the job runner, so the one who notices (a
 * delivery, a calendar read on a call, the refresh job) need not know how owners are told.
 */
export async function markNeedsReconnect(db: DbOrTx, connection: Connection, reason: string, name: string): Promise<void> {
  const [changed] = await db
    .update(integrationConnections)
    .set({ connected: false, secretCiphertext: null, config: { ...connection.config, needsReconnect: true, reconnectReason: reason.slice(0, 300) }, updatedAt: new Date() })
    .where(and(eq(integrationConnections.id, connection.id), eq(integrationConnections.organizationId, connection.organizationId), eq(integrationConnections.connected, true)))
    .returning();
  if (!changed) return; // already marked (two deliveries noticed at once): alert once
  await enqueue(db, reconnectNotice, { organizationId: connection.organizationId, name, reason: reason.slice(0, 200) }, { singletonKey: `reconnect:${connection.id}:${changed.updatedAt.getTime()}` });
}

export function integrationName(slug: string): string {
  return slug === "google-calendar" ? "Google Calendar" : slug === "hubspot" ? "HubSpot" : slug.charAt(0).toUpperCase() + slug.slice(1);
}

/**
 * A usable access token for a connection: refreshed (and stored) when it expires within the margin.
 * A refused refresh marks the connection for reconnecting and throws a ProviderError("auth").
 */
export async function accessTokenFor(db: DbOrTx, connection: Connection, options: { force?: boolean; marginMs?: number } = {}): Promise<string> {
  const tokens = readTokens(connection);
  if (!connection.connected || !tokens) throw new ProviderError(`${integrationName(connection.integration)} is not connected; reconnect it`, "auth");
  const margin = options.marginMs ?? REFRESH_MARGIN_MS;
  const fresh = tokens.expiresAt === null || tokens.expiresAt > Date.now() + margin;
  if (fresh && !options.force) return tokens.accessToken;
  if (!tokens.refreshToken) {
    if (tokens.expiresAt !== null && tokens.expiresAt <= Date.now()) {
      await markNeedsReconnect(db, connection, "the access expired and cannot be renewed", integrationName(connection.integration));
      throw new ProviderError("The access expired; reconnect", "auth");
    }
    return tokens.accessToken;
  }
  const providerId = providerOf(connection.integration);
  const provider = providerId ? resolveProvider(providerId) : null;
  if (!provider) throw new ProviderError(`${integrationName(connection.integration)} is no longer configured on this server`, "auth");
  let answer: TokenAnswer;
  try {
    answer = await tokenRequest(provider, { grant_type: "refresh_token", refresh_token: tokens.refreshToken });
  } catch (error) {
    if (error instanceof ProviderError && error.kind === "auth") await markNeedsReconnect(db, connection, error.message, integrationName(connection.integration));
    throw error;
  }
  const next = tokensFrom(answer, tokens);
  await db
    .update(integrationConnections)
    .set({ secretCiphertext: encryptSecret(JSON.stringify(next)), updatedAt: new Date() })
    .where(and(eq(integrationConnections.id, connection.id), eq(integrationConnections.organizationId, connection.organizationId)));
  connection.secretCiphertext = encryptSecret(JSON.stringify(next));
  return next.accessToken;
}

