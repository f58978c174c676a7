import "server-only";
import { z } from "zod";
import crypto from "node:crypto";
import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { calls, integrationConnections, webhookDeliveries } from "@/db/schema";
import { encryptSecret, secretHint } from "@/lib/platform/crypto/secret-box";
import { badRequest, conflict, HttpError, notFound } from "@/lib/platform/http/errors";
import { invalidRequest } from "@/lib/platform/http/parse";
import { assertSafeUrl, UnsafeUrlError } from "@/lib/platform/net/safe-fetch";
import { catalogue, findCatalogueEntry, webhookEvents, type CatalogueEntry, type DeliveryView, type IntegrationView } from "./catalogue";
import {
  googleCalendarConnectInput,
  slackConnectInput,
  webhookConnectInput,
  type GoogleCalendarConnectInput,
  type SlackConnectInput,
  type WebhookConnectInput,
} from "./schema";
import { connectGoogleCalendar } from "./google-calendar";
import type { CalendarUrls } from "@/lib/workspace/provider-selection/calendar";
import { generateSigningSecret, queueProviderDeliveries, sendTestDelivery } from "./webhooks";
import { isOAuthConnection, revokeGrant, startOAuth } from "./oauth";
import { accessTokenFor } from "@/lib/platform/outbound/oauth-grants";
import { missingSettings, oauthCards, resolveProvider } from "@/lib/platform/outbound/oauth-providers";
import { ProviderError } from "@/lib/platform/outbound/provider-http";
import { listChannels } from "./providers/slack";
import { listDatabases } from "./providers/notion";
import { listTables } from "./providers/airtable";
import { listProjects } from "./providers/asana";

type Connection = typeof integrationConnections.$inferSelect;
type Delivery = typeof webhookDeliveries.$inferSelect;

export function requireEntry(slug: string): CatalogueEntry {
  const entry = findCatalogueEntry(slug);
  if (!entry) throw notFound("Integration");
  return entry;
}

/**
 * How a connect request is answered: the entry's pasted settings (webhook URL, Slack incoming
 * webhook, a Google credential), or, for an OAuth card given none of them, the OAuth flow.
 */
export function connectModeFor(entry: CatalogueEntry, body: Record<string, unknown>): "webhook" | "slack-webhook" | "calendar-credential" | "oauth" | "unavailable" {
  if (entry.kind === "webhook") return "webhook";
  if (entry.kind === "slack") return "webhookUrl" in body ? "slack-webhook" : "oauth";
  if (entry.kind === "calendar") return "accessToken" in body || "refreshToken" in body ? "calendar-credential" : "oauth";
  if (entry.kind === "oauth") return "oauth";
  return "unavailable";
}

/** The zod schema of the connect body for an entry and body (an OAuth start takes none). */
export function connectSchemaFor(entry: CatalogueEntry, body: Record<string, unknown> = {}) {
  const mode = connectModeFor(entry, body);
  if (mode === "webhook") return webhookConnectInput;
  if (mode === "slack-webhook") return slackConnectInput;
  if (mode === "calendar-credential") return googleCalendarConnectInput;
  return z.object({}).strip();
}

/** Whether this server can connect the entry, and what it lacks. */
function availabilityOf(entry: CatalogueEntry): { available: boolean; missing: string[]; oauth: boolean } {
  if (entry.kind === "unavailable") return { available: false, missing: [], oauth: false };
  if (entry.kind === "webhook") return { available: true, missing: [], oauth: false };
  const card = oauthCards[entry.slug];
  const missing = card ? missingSettings(card.provider) : [];
  // Slack still takes an incoming-webhook URL without the OAuth client.
  if (entry.kind === "slack") return { available: true, missing, oauth: missing.length === 0 };
  return { available: missing.length === 0, missing, oauth: true };
}

function toView(entry: CatalogueEntry, connection: Connection | undefined, lastDelivery: Delivery | undefined = undefined, signedIn = true): IntegrationView {
  const { available, missing, oauth } = availabilityOf(entry);
  // A connection whose card cannot work here (not built, or no OAuth client) never reads "connected",
  // nor does an OAuth card's row without a grant (the "marked as connected" rows from before issue 31).
  const oauthRow = connection ? isOAuthConnection(connection) : false;
  const usable = entry.kind !== "unavailable" && (entry.kind === "oauth" ? available && oauthRow : available || (connection ? !oauthRow : false));
  const connected = Boolean(connection?.connected) && usable;
  const config = connection?.config ?? {};
  const needsReconnect = !connected && usable && config.needsReconnect === true;
  return {
    ...entry,
    connected,
    available,
    missingSettings: signedIn ? missing : [],
    oauth,
    needsReconnect,
    reconnectReason: needsReconnect && typeof config.reconnectReason === "string" ? config.reconnectReason : null,
    lastDelivery: connected && lastDelivery ? toDeliveryView(lastDelivery) : null,
    config: connected && connection ? publicConfig(connection.config) : {},
    connectedAt: connected && connection ? connection.updatedAt.toISOString() : null,
  };
}

/** Settings the card may show: never who connected it or the grant's internals. */
function publicConfig(config: Record<string, unknown>): Record<string, unknown> {
  const hidden = new Set(["connectedBy", "reconnectReason", "needsReconnect"]);
  return Object.fromEntries(Object.entries(config).filter(([key]) => !hidden.has(key)));
}

async function connectionOf(db: Db, organizationId: string, slug: string): Promise<Connection | undefined> {
  const [row] = await db
    .select()
    .from(integrationConnections)
    .where(and(eq(integrationConnections.organizationId, organizationId), eq(integrationConnections.integration, slug)))
    .limit(1);
  return row;
}

/** The catalogue with the organization's state; signed-out visitors (null) see nothing connected. */
export async function listIntegrations(db: Db, organizationId: string | null): Promise<IntegrationView[]> {
  const rows = organizationId
    ? await db.select().from(integrationConnections).where(eq(integrationConnections.organizationId, organizationId))
    : [];
  const bySlug = new Map(rows.map((r) => [r.integration, r]));
  const latest = new Map<string, Delivery>();
  const connected = rows.filter((r) => r.connected);
  if (organizationId && connected.length) {
    const recent = await db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.organizationId, organizationId), inArray(webhookDeliveries.connectionId, connected.map((r) => r.id))))
      .orderBy(desc(webhookDeliveries.createdAt))
      .limit(200);
    for (const d of recent) if (!latest.has(d.connectionId)) latest.set(d.connectionId, d);
  }
  return catalogue.map((entry) => {
    const row = bySlug.get(entry.slug);
    return toView(entry, row, row ? latest.get(row.id) : undefined, organizationId !== null);
  });
}

async function assertPublicEndpoint(url: string, field: string): Promise<URL> {
  try {
    return await assertSafeUrl(url);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw invalidRequest({ [field]: error.message });
    throw error;
  }
}

async function upsertConnection(
  db: Db,
  organizationId: string,
  slug: string,
  values: { config: Record<string, unknown>; secretCiphertext: string | null },
): Promise<Connection> {
  const now = new Date();
  const [row] = await db
    .insert(integrationConnections)
    .values({ id: crypto.randomUUID(), organizationId, integration: slug, connected: true, ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [integrationConnections.organizationId, integrationConnections.integration],
      set: { connected: true, ...values, updatedAt: now },
    })
    .returning();
  return row;
}

export type ConnectResult = (IntegrationView & { signingSecret?: string }) | { authorizeUrl: string };

/**
 * Connects (or reconnects) an integration. Webhook kinds get a new signing secret, returned here
 * once and stored encrypted with the URL; Slack stores its incoming-webhook URL encrypted; the
 * others record the connection only.
 */
export async function connectIntegration(
  db: Db,
  organizationId: string,
  entry: CatalogueEntry,
  input: unknown,
  deps: { calendarUrls?: CalendarUrls; userId?: string } = {},
): Promise<ConnectResult> {
  const mode = connectModeFor(entry, (input ?? {}) as Record<string, unknown>);
  if (mode === "unavailable") throw conflict(`${entry.name} is not available yet.`);
  if (mode === "oauth") {
    if (!deps.userId) throw badRequest(`${entry.name} connects through its own sign-in page.`);
    return startOAuth(db, { organizationId, userId: deps.userId }, entry);
  }
  if (entry.kind === "calendar") {
    const values = await connectGoogleCalendar(db, organizationId, input as GoogleCalendarConnectInput, deps.calendarUrls);
    return toView(entry, await upsertConnection(db, organizationId, entry.slug, values));
  }
  if (entry.kind === "webhook") {
    const { url } = input as WebhookConnectInput;
    const parsed = await assertPublicEndpoint(url, "url");
    const signingSecret = generateSigningSecret();
    const row = await upsertConnection(db, organizationId, entry.slug, {
      config: { host: parsed.host, scheme: parsed.protocol.replace(":", ""), events: [...webhookEvents], signingSecretHint: secretHint(signingSecret) },
      secretCiphertext: encryptSecret(JSON.stringify({ url: parsed.toString(), signingSecret })),
    });
    return { ...toView(entry, row), signingSecret };
  }
  if (entry.kind === "slack") {
    const { webhookUrl } = input as SlackConnectInput;
    const parsed = new URL(webhookUrl);
    const row = await upsertConnection(db, organizationId, entry.slug, {
      config: { host: parsed.host, events: ["call.missed"], urlHint: secretHint(webhookUrl) },
      secretCiphertext: encryptSecret(JSON.stringify({ url: parsed.toString() })),
    });
    return toView(entry, row);
  }
  throw conflict(`${entry.name} is not available yet.`);
}

/** Disconnects: revokes an OAuth grant, forgets the stored secret, and pending deliveries are given up. Idempotent. */
export async function disconnectIntegration(db: Db, organizationId: string, entry: CatalogueEntry): Promise<IntegrationView & { revoked?: boolean }> {
  const existing = await connectionOf(db, organizationId, entry.slug);
  if (!existing) return toView(entry, undefined);
  const revocation = existing.connected && isOAuthConnection(existing) ? await revokeGrant(existing) : null;
  await db.transaction(async (tx) => {
    await tx
      .update(integrationConnections)
      .set({
        connected: false,
        secretCiphertext: null,
        config: isOAuthConnection(existing) ? { ...existing.config, needsReconnect: false, reconnectReason: null } : existing.config,
        updatedAt: new Date(),
      })
      .where(and(eq(integrationConnections.id, existing.id), eq(integrationConnections.organizationId, organizationId)));
    await tx
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: "The integration was disconnected before delivery" })
      .where(
        and(
          eq(webhookDeliveries.organizationId, organizationId),
          eq(webhookDeliveries.connectionId, existing.id),
          eq(webhookDeliveries.status, "pending"),
        ),
      );
  });
  if (revocation && !revocation.revoked) console.warn(`[integrations] ${entry.slug}: revoking the grant failed (${revocation.error}); the tokens were forgotten`);
  return { ...toView(entry, undefined), ...(revocation ? { revoked: revocation.revoked } : {}) };
}

export function toDeliveryView(row: Delivery): DeliveryView {
  return {
    id: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt ? row.deliveredAt.toISOString() : null,
  };
}

/** The organization's delivery log for one integration, newest first (50 at most). */
export async function listDeliveries(db: Db, organizationId: string, entry: CatalogueEntry): Promise<DeliveryView[]> {
  const connection = await connectionOf(db, organizationId, entry.slug);
  if (!connection) return [];
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.organizationId, organizationId), eq(webhookDeliveries.connectionId, connection.id)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(50);
  return rows.map(toDeliveryView);
}

export async function sendTestEvent(db: Db, organizationId: string, entry: CatalogueEntry): Promise<DeliveryView> {
  if (entry.kind !== "webhook" && entry.kind !== "slack") throw badRequest(`${entry.name} has no endpoint to send a test event to yet.`);
  const connection = await connectionOf(db, organizationId, entry.slug);
  if (!connection?.connected) throw conflict(`Connect ${entry.name} before sending a test event.`);
  return toDeliveryView(await sendTestDelivery(db, organizationId, connection));
}

async function connectedOAuth(db: Db, organizationId: string, entry: CatalogueEntry): Promise<Connection> {
  const connection = await connectionOf(db, organizationId, entry.slug);
  if (!connection?.connected || !isOAuthConnection(connection)) throw conflict(`Connect ${entry.name} first.`);
  return connection;
}

/** What a card's picker offers: Slack channels, Google calendars. */
export async function listOptions(db: Db, organizationId: string, entry: CatalogueEntry): Promise<{ id: string; name: string }[]> {
  const connection = await connectedOAuth(db, organizationId, entry);
  const card = oauthCards[entry.slug];
  const provider = card ? resolveProvider(card.provider) : null;
  if (!provider) throw conflict(`${entry.name} is not configured on this server.`);
  try {
    const token = await accessTokenFor(db, connection);
    if (entry.slug === "slack") return (await listChannels(provider.apiBase, token)).map((c) => ({ id: c.id, name: `#${c.name}` }));
    if (entry.slug === "notion") return await listDatabases(provider.apiBase, token);
    if (entry.slug === "airtable") return await listTables(provider.apiBase, token);
    if (entry.slug === "asana") return await listProjects(provider.apiBase, token);
    if (entry.slug === "google-calendar") {
      const { googleCalendarApiBase } = await import("@/lib/workspace/provider-selection/calendar");
      const res = await fetch(`${googleCalendarApiBase()}/calendar/v3/users/me/calendarList?minAccessRole=writer`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw new ProviderError(`Google Calendar answered HTTP ${res.status}`, res.status === 401 ? "auth" : "unavailable", res.status);
      const body = (await res.json()) as { items?: { id: string; summary?: string; primary?: boolean }[] };
      return (body.items ?? []).map((c) => ({ id: c.primary ? "primary" : c.id, name: c.summary ?? c.id }));
    }
  } catch (error) {
    if (error instanceof ProviderError) throw new HttpError(502, `${entry.name} did not answer the list: ${error.message}`);
    throw error;
  }
  throw badRequest(`${entry.name} has nothing to pick.`);
}

export const integrationSettingsInput = z.object({
  channelId: z.string().trim().min(1, "Pick a channel").max(100).optional(),
  channelName: z.string().trim().max(200).optional(),
  calendarId: z.string().trim().min(1, "Pick a calendar").max(254, "The calendar ID is too long").optional(),
  databaseId: z.string().trim().min(1, "Pick a database").max(100).optional(),
  tableId: z.string().trim().min(1, "Pick a table").max(200).optional(),
  projectId: z.string().trim().min(1, "Pick a project").max(100).optional(),
});

/** Saves what the owner picked (Slack's channel, Google's calendar) on a connected OAuth card. */
export async function saveSettings(db: Db, organizationId: string, entry: CatalogueEntry, input: z.infer<typeof integrationSettingsInput>): Promise<IntegrationView> {
  const connection = await connectedOAuth(db, organizationId, entry);
  const patch: Record<string, unknown> = {};
  if (entry.slug === "slack") {
    if (!input.channelId) throw invalidRequest({ channelId: "Pick a channel" });
    const options = await listOptions(db, organizationId, entry);
    const picked = options.find((o) => o.id === input.channelId);
    if (!picked) throw invalidRequest({ channelId: "Pick one of your workspace's channels" });
    Object.assign(patch, { channelId: picked.id, channelName: picked.name.replace(/^#/, "") });
  } else if (entry.slug === "notion" || entry.slug === "airtable" || entry.slug === "asana") {
    const field = entry.slug === "notion" ? "databaseId" : entry.slug === "airtable" ? "tableId" : "projectId";
    const what = entry.slug === "notion" ? "database" : entry.slug === "airtable" ? "table" : "project";
    const value = input[field];
    if (!value) throw invalidRequest({ [field]: `Pick a ${what}` });
    const picked = (await listOptions(db, organizationId, entry)).find((o) => o.id === value);
    if (!picked) throw invalidRequest({ [field]: `Pick one of the ${what}s Switchboard was given access to` });
    Object.assign(patch, { [field]: picked.id, targetName: picked.name });
  } else if (entry.slug === "google-calendar") {
    if (!input.calendarId) throw invalidRequest({ calendarId: "Pick a calendar" });
    patch.calendarId = input.calendarId;
  } else {
    throw badRequest(`${entry.name} has no settings to pick.`);
  }
  const [row] = await db
    .update(integrationConnections)
    .set({ config: { ...connection.config, ...patch }, updatedAt: new Date() })
    .where(and(eq(integrationConnections.id, connection.id), eq(integrationConnections.organizationId, organizationId)))
    .returning();
  return toView(entry, row);
}

/** HubSpot's "Sync now": every call of the last SYNC_DAYS days goes through the job runner again. */
export const SYNC_DAYS = 30;

export async function syncNow(db: Db, organizationId: string, entry: CatalogueEntry): Promise<{ queued: number; since: string }> {
  if (entry.slug !== "hubspot") throw badRequest(`${entry.name} has nothing to sync.`);
  const connection = await connectedOAuth(db, organizationId, entry);
  const since = new Date(Date.now() - SYNC_DAYS * 86_400_000);
  // A call whose delivery is still waiting goes out with it (two at once would log it twice).
  const waiting = await db
    .select({ callId: sql<string>`${webhookDeliveries.payload}->>'callId'` })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.organizationId, organizationId), eq(webhookDeliveries.connectionId, connection.id), eq(webhookDeliveries.status, "pending")));
  const skip = new Set(waiting.map((w) => w.callId));
  const recent = await db
    .select({ id: calls.id })
    .from(calls)
    .where(and(eq(calls.organizationId, organizationId), gte(calls.startedAt, since), inArray(calls.status, ["completed", "missed", "voicemail"])))
    .orderBy(desc(calls.startedAt))
    .limit(1000);
  let queued = 0;
  for (const c of recent.filter((r) => !skip.has(r.id))) queued += (await queueProviderDeliveries(db, organizationId, "call.synced", { callId: c.id })).length;
  return { queued, since: since.toISOString() };
}
