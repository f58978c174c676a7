import "server-only";
import { patientAlert } from "@/lib/compliance/hipaa";
import { hipaaStateOf } from "@/lib/identity/organizations/hipaa-mode";
import crypto from "node:crypto";
import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { integrationConnections, webhookDeliveries } from "@/db/schema";
import { decryptSecret } from "@/lib/platform/crypto/secret-box";
import { enqueue } from "@/lib/platform/jobs/queue";
import { defineJob } from "@/lib/platform/jobs/types";
import { readLimitedText, safeFetch, SAFE_FETCH_TIMEOUT_MS, UnsafeUrlError } from "@/lib/platform/net/safe-fetch";
import { catalogue, type WebhookEvent } from "./catalogue";
import { deliverToProvider } from "./provider-deliveries";
import { connectedOf, deliverWebhook, insertDeliveries, isOAuthConnection, queueProviderDeliveries } from "@/lib/platform/outbound/provider-queue";

export { queueProviderDeliveries };

/**
 * Outgoing webhooks and Slack notifications. Every send is a webhook_delivery row: tried at once,
 * then retried with backoff (30 s, 2 min, 10 min, 1 h, 6 h) and given up as failed after 6 attempts.
 * Each retry is a job (`webhook.deliver`) due at the delivery's next attempt, so it fires on time
 * whether or not anything else happens; a sweep every 5 minutes catches any delivery left behind.
 *
 * Webhook request: POST JSON {id, event, createdAt, data} with
 *   X-Switchboard-Event: <event>
 *   X-Switchboard-Delivery: <delivery id>
 *   X-Switchboard-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>
 * Slack request: POST {text} to the stored incoming-webhook URL.
 */

export const RETRY_BACKOFF_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = 6;
/** While one worker sends a delivery, nobody else picks it up for this long. */
const CLAIM_LEASE_MS = SAFE_FETCH_TIMEOUT_MS + 50_000;

export const webhookSlugs = catalogue.filter((e) => e.kind === "webhook").map((e) => e.slug);

export type StoredSecret = { url: string; signingSecret?: string };
type Connection = typeof integrationConnections.$inferSelect;
type Delivery = typeof webhookDeliveries.$inferSelect;

export function readStoredSecret(connection: Pick<Connection, "secretCiphertext">): StoredSecret | null {
  if (!connection.secretCiphertext) return null;
  try {
    const parsed = JSON.parse(decryptSecret(connection.secretCiphertext)) as StoredSecret;
    return typeof parsed.url === "string" ? parsed : null;
  } catch {
    return null;
  }
}

export function generateSigningSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString("base64url")}`;
}

export function signatureHeader(secret: string, body: string, timestampSeconds = Math.floor(Date.now() / 1000)): string {
  const mac = crypto.createHmac("sha256", secret).update(`${timestampSeconds}.${body}`).digest("hex");
  return `t=${timestampSeconds},v1=${mac}`;
}

/** What a receiver does: recompute the HMAC and compare in constant time, within a tolerance. */
export function verifySignature(secret: string, header: string, body: string, toleranceSeconds = 300, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(",").map((p) => p.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) return false;
  if (Math.abs(now / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex"));
  const given = Buffer.from(parts.v1);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

function describeError(error: unknown): string {
  if (error instanceof UnsafeUrlError) return error.message;
  if (error instanceof Error) {
    if (error.name === "TimeoutError" || error.name === "AbortError") return `No answer within ${SAFE_FETCH_TIMEOUT_MS / 1000} s`;
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    if (cause?.code) return `${error.message} (${cause.code})`;
    if (cause?.message) return `${error.message}: ${cause.message}`;
    return error.message;
  }
  return String(error);
}

/** Atomically takes a due delivery, so two workers never send the same one. */
async function claim(db: Db, id: string, now: Date): Promise<Delivery | null> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS) })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, now)))
    .returning();
  return row ?? null;
}

type Outcome =
  | { ok: true; statusCode: number; externalId?: string }
  | { ok: false; statusCode: number | null; error: string; retryAfterMs?: number | null; giveUp?: boolean };

async function send(db: Db, delivery: Delivery, connection: Connection | undefined): Promise<Outcome> {
  if (!connection || !connection.connected) return { ok: false, statusCode: null, error: "The integration was disconnected" };
  // OAuth cards (HubSpot, "Add to Slack", …) call the provider's API instead of POSTing to a URL.
  if (isOAuthConnection(connection)) return deliverToProvider(db, connection, delivery);
  const secret = readStoredSecret(connection);
  if (!secret) return { ok: false, statusCode: null, error: "The integration has no endpoint stored; connect it again" };
  const isSlack = connection.integration === "slack";
  const body = isSlack
    ? JSON.stringify({ text: String(delivery.payload.text ?? "") })
    : JSON.stringify({ id: delivery.id, event: delivery.event, createdAt: delivery.createdAt.toISOString(), data: delivery.payload });
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "Switchboard-Webhooks/1" };
  if (!isSlack) {
    headers["x-switchboard-event"] = delivery.event;
    headers["x-switchboard-delivery"] = delivery.id;
    if (secret.signingSecret) headers["x-switchboard-signature"] = signatureHeader(secret.signingSecret, body);
  }
  try {
    const res = await safeFetch(secret.url, { method: "POST", headers, body });
    const text = await readLimitedText(res, 300);
    if (res.status >= 200 && res.status < 300) return { ok: true, statusCode: res.status };
    const where = res.status >= 300 && res.status < 400 ? " (redirects are not followed)" : "";
    return { ok: false, statusCode: res.status, error: `HTTP ${res.status}${where}${text ? `: ${text.slice(0, 200)}` : ""}` };
  } catch (error) {
    return { ok: false, statusCode: null, error: describeError(error).slice(0, 500) };
  }
}

/** Sends one delivery if it is due and unclaimed, and records the outcome. */
export async function attemptDelivery(db: Db, deliveryId: string, now = new Date()): Promise<Delivery | null> {
  const delivery = await claim(db, deliveryId, now);
  if (!delivery) return null;
  const [connection] = await db
    .select()
    .from(integrationConnections)
    .where(and(eq(integrationConnections.id, delivery.connectionId), eq(integrationConnections.organizationId, delivery.organizationId)))
    .limit(1);
  const outcome = await send(db, delivery, connection);
  const attempts = delivery.attempts + 1;
  const update: Partial<typeof webhookDeliveries.$inferInsert> = outcome.ok
    ? { status: "delivered", attempts, lastStatusCode: outcome.statusCode, lastError: null, deliveredAt: now, nextAttemptAt: now, externalId: outcome.externalId ?? null }
    : {
        attempts,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        ...(attempts >= MAX_ATTEMPTS || !connection?.connected || outcome.giveUp
          ? { status: "failed" as const, nextAttemptAt: now }
          : { nextAttemptAt: new Date(now.getTime() + Math.max(RETRY_BACKOFF_MS[attempts - 1], outcome.retryAfterMs ?? 0)) }),
      };
  const [updated] = await db.update(webhookDeliveries).set(update).where(eq(webhookDeliveries.id, delivery.id)).returning();
  if (updated.status === "pending") {
    await enqueue(db, deliverWebhookJob, { deliveryId: updated.id }, { startAfter: updated.nextAttemptAt, singletonKey: `${updated.id}:${updated.attempts}` });
  }
  return updated;
}

/** One retry of one delivery, due at its next attempt. Retries are counted by the delivery itself. */
export const deliverWebhookJob = defineJob<{ deliveryId: string }>({
  ...deliverWebhook,
  async handler({ deliveryId }, { db }) {
    await attemptDelivery(db, deliveryId);
  },
});

/** Every 5 minutes: any pending delivery that is due and has no job (e.g. its enqueue failed). */
export const webhookSweepJob = defineJob({
  name: "webhook.sweep",
  everySeconds: 300,
  retryLimit: 0,
  async handler(_data, { db }) {
    await processDueDeliveries(db);
  },
});

/** Retries every pending delivery due at `now` (oldest first, up to `limit`): the sweep job. */
export async function processDueDeliveries(db: Db, now = new Date(), options: { limit?: number } = {}) {
  const due = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, now)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(options.limit ?? 50);
  const results = { attempted: 0, delivered: 0, failed: 0, pending: 0 };
  for (const { id } of due) {
    const row = await attemptDelivery(db, id, now);
    if (!row) continue;
    results.attempted += 1;
    results[row.status] += 1;
  }
  return results;
}

async function createAndSend(db: Db, organizationId: string, connections: Connection[], event: string, payload: Record<string, unknown>) {
  if (connections.length === 0) return [];
  // HIPAA mode: Slack gets "New voicemail from a patient — open Switchboard", no health details (lib/compliance/hipaa.ts).
  const slackPayload = connections.some((c) => c.integration === "slack") && event !== "test.ping" && (await hipaaStateOf(db, organizationId)).on ? { text: patientAlert(event).title } : payload;
  const now = new Date();
  const rows = await insertDeliveries(db, organizationId, connections, event, (c) => (c.integration === "slack" ? slackPayload : payload), now);
  const byId = new Map(connections.map((c) => [c.id, c]));
  const sent = await Promise.all(
    rows.map(async (row) => {
      // A provider's API is called by the job runner (a test event is tried at once, to show its answer).
      const connection = byId.get(row.connectionId);
      if (connection && isOAuthConnection(connection) && event !== "test.ping") {
        await enqueue(db, deliverWebhookJob, { deliveryId: row.id }, { singletonKey: `${row.id}:0` });
        return row;
      }
      return (await attemptDelivery(db, row.id, now)) ?? row;
    }),
  );
  return sent;
}

/**
 * Records one delivery per connected webhook/Zapier endpoint of the organization and tries each at
 * once; a failed one is retried by its job. Returns the deliveries as they stand afterwards.
 */
export async function emitEvent(db: Db, organizationId: string, event: WebhookEvent, payload: Record<string, unknown>) {
  const sent = await createAndSend(db, organizationId, await connectedOf(db, organizationId, webhookSlugs), event, payload);
  await queueProviderDeliveries(db, organizationId, event, payload);
  return sent;
}

/** Sends a test.ping (or a Slack test message) to one connection and returns its delivery. */
export async function sendTestDelivery(db: Db, organizationId: string, connection: Connection) {
  const payload =
    connection.integration === "slack"
      ? { text: "Switchboard test message: missed calls will be posted to this channel." }
      : { message: "This is a test event from Switchboard.", integration: connection.integration };
  const [delivery] = await createAndSend(db, organizationId, [connection], "test.ping", payload);
  return delivery;
}

export type MissedCall = {
  id: string;
  fromNumber: string;
  toNumber: string;
  callerName?: string | null;
  startedAt: Date;
};

export function missedCallText(call: MissedCall): string {
  const who = call.callerName ? `${call.callerName} (${call.fromNumber})` : call.fromNumber;
  const when = `${call.startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return `:telephone_receiver: Missed call from ${who} to ${call.toNumber} at ${when}.`;
}

/** Posts a missed call to the organization's Slack incoming webhook, with the same retry bookkeeping. */
export async function notifyMissedCall(db: Db, organizationId: string, call: MissedCall) {
  const connections = await connectedOf(db, organizationId, ["slack"]);
  const [delivery] = await createAndSend(db, organizationId, connections, "call.missed", { text: missedCallText(call), callId: call.id });
  return delivery ?? null;
}
