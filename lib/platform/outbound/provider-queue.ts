import "server-only";
import crypto from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { integrationConnections, webhookDeliveries } from "@/db/schema";
import { enqueue } from "@/lib/platform/jobs/queue";
import type { JobRef } from "@/lib/platform/jobs/types";

/**
 * Putting deliveries on the queue, below the code that sends them: the features that hand work to
 * a connected app (a task to Asana, an e-mail to Gmail, a booking to HubSpot) import this file, not
 * ./webhooks.ts, whose senders (./provider-deliveries.ts) use those features in turn.
 */

type Connection = typeof integrationConnections.$inferSelect;

/** The events each OAuth card takes (the adapters: ./provider-deliveries.ts). */
export const providerEvents: Record<string, readonly string[]> = {
  hubspot: ["call.completed", "voicemail.received", "call.synced", "message.received", "appointment.booked"],
  notion: ["call.completed", "voicemail.received"],
  airtable: ["call.completed", "voicemail.received"],
  asana: ["task.created"],
  gmail: ["email.send"],
};

export function isOAuthConnection(connection: Pick<Connection, "config">): boolean {
  return connection.config?.auth === "oauth";
}

/** One retry of one delivery, due at its next attempt (the handler: deliverWebhookJob in ./webhooks.ts). */
export const deliverWebhook: JobRef<{ deliveryId: string }> = { name: "webhook.deliver", retryLimit: 2, retryDelaySeconds: 60 };

/** The organization's connected cards among `slugs`. */
export async function connectedOf(db: Db, organizationId: string, slugs: string[]): Promise<Connection[]> {
  return db
    .select()
    .from(integrationConnections)
    .where(
      and(
        eq(integrationConnections.organizationId, organizationId),
        eq(integrationConnections.connected, true),
        inArray(integrationConnections.integration, slugs),
      ),
    );
}

/** One pending delivery row per connection, due now. */
export async function insertDeliveries(db: Db, organizationId: string, connections: Connection[], event: string, payloadOf: (connection: Connection) => Record<string, unknown>, now = new Date()) {
  return db
    .insert(webhookDeliveries)
    .values(
      connections.map((c) => ({
        id: crypto.randomUUID(),
        organizationId,
        connectionId: c.id,
        event,
        payload: payloadOf(c),
        status: "pending" as const,
        nextAttemptAt: now,
        createdAt: now,
      })),
    )
    .returning();
}

/**
 * Puts one delivery per connected OAuth card that takes this event (HubSpot: calls, texts, bookings)
 * on the job runner. The payload carries ids (callId) or the phone number; the provider adapter
 * reads the rest when it runs.
 */
export async function queueProviderDeliveries(db: Db, organizationId: string, event: string, payload: Record<string, unknown>) {
  const slugs = Object.keys(providerEvents).filter((slug) => providerEvents[slug].includes(event));
  if (!slugs.length) return [];
  const connections = (await connectedOf(db, organizationId, slugs)).filter(isOAuthConnection);
  if (connections.length === 0) return [];
  const rows = await insertDeliveries(db, organizationId, connections, event, () => payload);
  for (const row of rows) await enqueue(db, deliverWebhook, { deliveryId: row.id }, { singletonKey: `${row.id}:0` });
  return rows;
}

/**
 * Puts one line for the organization's Slack on the job runner: a delivery per connected Slack card
 * (incoming webhook or "Add to Slack"), sent and retried by the `webhook.deliver` job. Null when
 * Slack is not connected; `payloadOf` is read only when it is (the receptionist's notices and daily
 * recap: lib/receptionist/slack.ts).
 */
export async function queueSlackPost(db: Db, organizationId: string, event: string, payloadOf: () => Promise<Record<string, unknown>>) {
  const connections = await connectedOf(db, organizationId, ["slack"]);
  if (connections.length === 0) return null;
  const payload = await payloadOf();
  const rows = await insertDeliveries(db, organizationId, connections, event, () => payload);
  for (const row of rows) await enqueue(db, deliverWebhook, { deliveryId: row.id }, { singletonKey: `${row.id}:0` });
  return rows[0] ?? null;
}
