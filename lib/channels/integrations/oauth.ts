import "server-only";
import crypto from "node:crypto";
import { and, eq, inArray, isNotNull, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { integrationConnections, oauthStates } from "@/db/schema";
import { decryptSecret, encryptSecret } from "@/lib/platform/crypto/secret-box";
import { badRequest, HttpError } from "@/lib/platform/http/errors";
import { defineJob } from "@/lib/platform/jobs/types";
import { notifyOwners } from "@/lib/receptionist/notify";
import type { CatalogueEntry } from "./catalogue";
import { missingSettings, oauthCards, redirectUri, resolveProvider, type OAuthProviderId } from "@/lib/platform/outbound/oauth-providers";
import { failureOf, ProviderError, providerFetch } from "@/lib/platform/outbound/provider-http";
import { isOAuthConnection } from "@/lib/platform/outbound/provider-queue";
import { accessTokenFor, readTokens, reconnectNotice, tokenRequest, tokensFrom, type TokenAnswer } from "@/lib/platform/outbound/oauth-grants";

/**
 * One OAuth 2.0 flow for every provider card: authorization code with PKCE (S256) and `state`.
 * - start: a random state row bound to the organization and the user, valid STATE_TTL_MS, used once;
 *   the answer is the provider's authorization URL with code_challenge and state.
 * - callback: the state is consumed (same user, same organization, not expired, not used), the code
 *   is exchanged with the verifier, and the tokens are stored encrypted like the API keys.
 * - every use refreshes the access token when it expires within REFRESH_MARGIN_MS
 *   (lib/platform/outbound/oauth-grants.ts); a recurring job refreshes ahead of time. A refused refresh
 *   (revoked or expired grant) turns the card to "Reconnect" and queues the owners' notice (the job below).
 * - Disconnect revokes the grant at the provider (where it has an endpoint) and forgets the tokens.
 */
export const STATE_TTL_MS = 10 * 60_000;

type Connection = typeof integrationConnections.$inferSelect;

export { isOAuthConnection };

function providerOf(slug: string): OAuthProviderId {
  const card = oauthCards[slug];
  if (!card) throw badRequest(`This integration does not connect with OAuth.`);
  return card.provider;
}

/** The 4xx a card answers when this server has no OAuth client for its provider. */
export function notConfiguredError(entry: CatalogueEntry): HttpError {
  const missing = missingSettings(providerOf(entry.slug));
  return new HttpError(
    409,
    `${entry.name} is not configured on this server. Ask your administrator to set ${missing.join(" and ")} (see docs/integrations.md).`,
  );
}

function base64url(buffer: Buffer): string {
  return buffer.toString("base64url");
}

/** Starts a connection: answers the provider's authorization URL. */
export async function startOAuth(db: Db, ctx: { organizationId: string; userId: string }, entry: CatalogueEntry): Promise<{ authorizeUrl: string }> {
  const card = oauthCards[entry.slug];
  const provider = card ? resolveProvider(card.provider) : null;
  if (!card || !provider) throw notConfiguredError(entry);
  const state = base64url(crypto.randomBytes(32));
  const verifier = base64url(crypto.randomBytes(48));
  const challenge = base64url(crypto.createHash("sha256").update(verifier).digest());
  const now = Date.now();
  // Old, unused states are of no use to anyone: drop them as new ones are made.
  await db.delete(oauthStates).where(lt(oauthStates.expiresAt, new Date(now - STATE_TTL_MS)));
  await db.insert(oauthStates).values({
    id: state,
    organizationId: ctx.organizationId,
    userId: ctx.userId,
    integration: entry.slug,
    codeVerifierCiphertext: encryptSecret(verifier),
    expiresAt: new Date(now + STATE_TTL_MS),
  });
  const url = new URL(provider.authorizeUrl);
  const params: Record<string, string> = {
    client_id: provider.clientId,
    redirect_uri: redirectUri(entry.slug),
    response_type: "code",
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...(provider.extraAuthorizeParams ?? {}),
  };
  if (card.scopes.length) params.scope = card.scopes.join(provider.scopeSeparator);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { authorizeUrl: url.toString() };
}

/** Per-card settings taken from the token answer (Slack: the workspace and the channel picked on consent). */
function settingsFrom(slug: string, answer: TokenAnswer): Record<string, unknown> {
  if (slug === "slack") {
    return {
      team: answer.team?.name ?? null,
      ...(answer.incoming_webhook?.channel_id ? { channelId: answer.incoming_webhook.channel_id, channelName: answer.incoming_webhook.channel ?? null } : {}),
    };
  }
  if (slug === "notion") return { workspace: answer.workspace_name ?? null };
  if (slug === "hubspot") return { account: answer.hub_domain ?? (answer.hub_id ? String(answer.hub_id) : null) };
  if (slug === "google-calendar") return { calendarId: "primary", resourceId: null, credentialKind: "oauth" };
  return {};
}

export type CallbackInput = { code?: string | null; state?: string | null; error?: string | null };

/**
 * The redirect back from the provider. Answers where to send the browser: the integrations screen
 * with `connected=<slug>` or `error=<message>`.
 */
export async function completeOAuth(db: Db, ctx: { organizationId: string; userId: string }, entry: CatalogueEntry, input: CallbackInput): Promise<Connection> {
  if (!input.state) throw badRequest("Invalid request: state: The authorization answer has no state", { state: "Missing" });
  // Single use: the row is deleted as it is claimed, so a replay finds nothing.
  const [claimed] = await db
    .delete(oauthStates)
    .where(
      and(
        eq(oauthStates.id, input.state),
        eq(oauthStates.organizationId, ctx.organizationId),
        eq(oauthStates.userId, ctx.userId),
        eq(oauthStates.integration, entry.slug),
      ),
    )
    .returning();
  // A state that is someone else's, another card's, used before, or expired: the same answer.
  if (!claimed || claimed.expiresAt.getTime() < Date.now()) {
    throw badRequest("This authorization link has expired or was already used. Press Connect again.", { state: "Expired or already used" });
  }
  if (input.error) throw badRequest(`${entry.name} did not grant access: ${input.error}`, { code: input.error });
  if (!input.code) throw badRequest("Invalid request: code: The authorization answer has no code", { code: "Missing" });
  const provider = resolveProvider(providerOf(entry.slug));
  if (!provider) throw notConfiguredError(entry);
  let answer: TokenAnswer;
  try {
    answer = await tokenRequest(provider, {
      grant_type: "authorization_code",
      code: input.code,
      redirect_uri: redirectUri(entry.slug),
      code_verifier: decryptSecret(claimed.codeVerifierCiphertext),
    });
  } catch (error) {
    if (error instanceof ProviderError) throw new HttpError(error.kind === "auth" ? 400 : 502, `${entry.name} did not accept the authorization: ${error.message}`);
    throw error;
  }
  const tokens = tokensFrom(answer);
  const [existing] = await db
    .select()
    .from(integrationConnections)
    .where(and(eq(integrationConnections.organizationId, ctx.organizationId), eq(integrationConnections.integration, entry.slug)));
  // Settings chosen before (a calendar, a channel) survive a reconnect; the grant's own state does not.
  const kept = existing && isOAuthConnection(existing) ? { ...existing.config } : {};
  const config: Record<string, unknown> = {
    ...kept,
    ...settingsFrom(entry.slug, answer),
    ...(kept.channelId && entry.slug === "slack" ? { channelId: kept.channelId, channelName: kept.channelName ?? null } : {}),
    ...(kept.calendarId && entry.slug === "google-calendar" ? { calendarId: kept.calendarId, resourceId: kept.resourceId ?? null } : {}),
    auth: "oauth",
    connectedBy: ctx.userId,
    scope: tokens.scope,
    needsReconnect: false,
    reconnectReason: null,
  };
  const now = new Date();
  const values = { connected: true, config, secretCiphertext: encryptSecret(JSON.stringify(tokens)), updatedAt: now };
  const [row] = await db
    .insert(integrationConnections)
    .values({ id: crypto.randomUUID(), organizationId: ctx.organizationId, integration: entry.slug, createdAt: now, ...values })
    .onConflictDoUpdate({ target: [integrationConnections.organizationId, integrationConnections.integration], set: values })
    .returning();
  return row;
}

/** Revokes the grant at the provider. Best effort: Disconnect forgets the tokens whatever the answer. */
export async function revokeGrant(connection: Connection): Promise<{ revoked: boolean; error?: string }> {
  const tokens = readTokens(connection);
  const card = oauthCards[connection.integration];
  const provider = card ? resolveProvider(card.provider) : null;
  if (!tokens || !provider?.revokeUrl) return { revoked: false, error: tokens ? "The provider has no revocation endpoint" : "No grant stored" };
  try {
    let res: Response;
    if (provider.id === "hubspot") {
      if (!tokens.refreshToken) return { revoked: false, error: "No refresh token to revoke" };
      res = await providerFetch(`${provider.revokeUrl}/${encodeURIComponent(tokens.refreshToken)}`, { method: "DELETE" });
    } else if (provider.id === "slack") {
      res = await providerFetch(provider.revokeUrl, { method: "POST", headers: { authorization: `Bearer ${tokens.accessToken}` } });
    } else if (provider.id === "notion") {
      res = await providerFetch(provider.revokeUrl, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Basic ${Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString("base64")}` },
        body: JSON.stringify({ token: tokens.accessToken }),
      });
    } else {
      const form: Record<string, string> = { token: tokens.refreshToken ?? tokens.accessToken };
      if (provider.id === "asana") Object.assign(form, { client_id: provider.clientId, client_secret: provider.clientSecret });
      res = await providerFetch(provider.revokeUrl, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() });
    }
    if (res.ok) {
      const body = (await res.json().catch(() => null)) as { ok?: boolean; error?: string } | null;
      if (body && body.ok === false) return { revoked: false, error: body.error ?? "refused" };
      return { revoked: true };
    }
    return { revoked: false, error: (await failureOf(res, provider.id)).message };
  } catch (error) {
    return { revoked: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A grant was lost (lib/platform/outbound/oauth-grants.ts, markNeedsReconnect): the owners are told, in the app and as they chose. */
export const reconnectNoticeJob = defineJob<{ organizationId: string; name: string; reason: string }>({
  ...reconnectNotice,
  async handler({ organizationId, name, reason }, { db }) {
    await notifyOwners(db, {
      organizationId,
      kind: "integration.reconnect",
      title: `Reconnect ${name}`,
      body: `Switchboard lost access to ${name} (${reason}). Open Integrations and press Reconnect so calls keep reaching it.`,
      link: "/integrations",
    });
  },
});

/** Every 10 minutes: refresh the access tokens that expire within the next 15 minutes. */
export const oauthRefreshJob = defineJob({
  name: "integrations.oauth-refresh",
  everySeconds: 600,
  retryLimit: 0,
  async handler(_data, { db }) {
    await refreshExpiringGrants(db, 15 * 60_000);
  },
});

export async function refreshExpiringGrants(db: Db, withinMs: number): Promise<{ refreshed: number; failed: number }> {
  const rows = await db
    .select()
    .from(integrationConnections)
    .where(and(eq(integrationConnections.connected, true), isNotNull(integrationConnections.secretCiphertext), inArray(integrationConnections.integration, Object.keys(oauthCards))));
  const result = { refreshed: 0, failed: 0 };
  for (const row of rows) {
    if (!isOAuthConnection(row)) continue;
    const tokens = readTokens(row);
    if (!tokens?.refreshToken || tokens.expiresAt === null || tokens.expiresAt > Date.now() + withinMs) continue;
    try {
      await accessTokenFor(db, row, { force: true });
      result.refreshed += 1;
    } catch {
      result.failed += 1; // an outage is retried on the next run; a refused grant is already marked
    }
  }
  return result;
}
