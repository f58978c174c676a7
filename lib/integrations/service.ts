import "server-only";
import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { integrationConnections, webhookDeliveries } from "@/db/schema";
import { encryptSecret, secretHint } from "@/lib/crypto/secret-box";
import { badRequest, conflict, notFound } from "@/lib/http/errors";
import { assertSafeUrl, UnsafeUrlError } from "@/lib/net/safe-fetch";
import { catalogue, findCatalogueEntry, webhookEvents, type CatalogueEntry, type DeliveryView, type IntegrationView } from "./catalogue";
import {
  flagConnectInput,
  googleCalendarConnectInput,
  slackConnectInput,
  webhookConnectInput,
  type GoogleCalendarConnectInput,
  type SlackConnectInput,
  type WebhookConnectInput,
} from "./schema";
import { connectGoogleCalendar } from "./google-calendar";
import type { CalendarUrls } from "@/lib/provider-selection/calendar";
import { generateSigningSecret, sendTestDelivery } from "./webhooks";

type Connection = typeof integrationConnections.$inferSelect;
type Delivery = typeof webhookDeliveries.$inferSelect;

export function requireEntry(slug: string): CatalogueEntry {
  const entry = findCatalogueEntry(slug);
  if (!entry) throw notFound("Integration");
  return entry;
}

/** The zod schema of the connect body for an entry's kind. */
export function connectSchemaFor(entry: CatalogueEntry) {
  if (entry.kind === "webhook") return webhookConnectInput;
  if (entry.kind === "slack") return slackConnectInput;
  if (entry.kind === "calendar") return googleCalendarConnectInput;
  return flagConnectInput;
}

function toView(entry: CatalogueEntry, connection: Connection | undefined): IntegrationView {
  const connected = Boolean(connection?.connected);
  return {
    ...entry,
    connected,
    config: connected && connection ? connection.config : {},
    connectedAt: connected && connection ? connection.updatedAt.toISOString() : null,
  };
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
  return catalogue.map((entry) => toView(entry, bySlug.get(entry.slug)));
}

async function assertPublicEndpoint(url: string, field: string): Promise<URL> {
  try {
    return await assertSafeUrl(url);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw badRequest(`Invalid request: ${field}: ${error.message}`, { [field]: error.message });
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

export type ConnectResult = IntegrationView & { signingSecret?: string };

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
  deps: { calendarUrls?: CalendarUrls } = {},
): Promise<ConnectResult> {
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
  const row = await upsertConnection(db, organizationId, entry.slug, { config: { syncing: false }, secretCiphertext: null });
  return toView(entry, row);
}

/** Disconnects: forgets the stored secret, and pending deliveries are given up. Idempotent. */
export async function disconnectIntegration(db: Db, organizationId: string, entry: CatalogueEntry): Promise<IntegrationView> {
  const existing = await connectionOf(db, organizationId, entry.slug);
  if (!existing) return toView(entry, undefined);
  await db.transaction(async (tx) => {
    await tx
      .update(integrationConnections)
      .set({ connected: false, secretCiphertext: null, updatedAt: new Date() })
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
  return toView(entry, undefined);
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
