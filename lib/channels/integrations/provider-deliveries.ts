import "server-only";
import type { Db } from "@/db/client";
import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { emails, tasks, webhookDeliveries, type integrationConnections } from "@/db/schema";
import { env } from "@/lib/platform/env";
import { taskLink } from "@/lib/phone/callers/task-link";
import { accessTokenFor, markNeedsReconnect, readTokens } from "@/lib/platform/outbound/oauth-grants";
import { oauthCards, resolveProvider } from "@/lib/platform/outbound/oauth-providers";
import { ProviderError } from "@/lib/platform/outbound/provider-http";
import { loadCallRecord } from "./providers/call-record";
import { findOrCreateContact, logCall } from "./providers/hubspot";
import { postMessage } from "./providers/slack";
import { createCallPage } from "./providers/notion";
import { createCallRecord } from "./providers/airtable";
import { createAsanaTask } from "./providers/asana";
import { sendGmail } from "./providers/gmail";
import { providerEvents } from "@/lib/platform/outbound/provider-queue";

/**
 * The work each OAuth card does, one delivery (a webhook_delivery row) at a time, so it shares the
 * webhooks' bookkeeping: tried by the job runner, retried with backoff (longer when the provider
 * says Retry-After), logged per attempt and shown on the card. A refused grant fails the delivery
 * and turns the card to "Reconnect".
 */
type Connection = typeof integrationConnections.$inferSelect;
type Delivery = typeof webhookDeliveries.$inferSelect;

export type ProviderOutcome =
  | { ok: true; statusCode: number; externalId?: string }
  | { ok: false; statusCode: number | null; error: string; retryAfterMs?: number | null; giveUp?: boolean };

/** Events each provider card takes (Slack's missed calls arrive through notifyMissedCall, the receptionist's notices through postToSlack in lib/receptionist/slack.ts). */
export { providerEvents };


/** An e-mail the app wrote (recap, owner alert), sent from the owner's Gmail; the e-mail row then reads "sent". */
async function gmail(db: Db, connection: Connection, delivery: Delivery, token: string, apiBase: string): Promise<ProviderOutcome> {
  const emailId = (delivery.payload as { emailId?: string }).emailId;
  const [email] = emailId ? await db.select().from(emails).where(and(eq(emails.id, emailId), eq(emails.organizationId, connection.organizationId))) : [];
  if (!email) return { ok: false, statusCode: null, error: "The e-mail no longer exists", giveUp: true };
  const replyTo = typeof delivery.payload.replyTo === "string" ? delivery.payload.replyTo : null;
  const sent = await sendGmail(apiBase, token, { to: email.toAddress, subject: email.subject, text: email.text, html: email.html, replyTo });
  await db.update(emails).set({ status: "sent", error: null }).where(and(eq(emails.id, email.id), eq(emails.organizationId, connection.organizationId)));
  return { ok: true, statusCode: 200, externalId: sent.id };
}

/** Each receptionist task becomes an Asana task in the picked project (completion comes back by polling). */
async function asana(db: Db, connection: Connection, delivery: Delivery, token: string, apiBase: string): Promise<ProviderOutcome> {
  const project = connection.config.projectId;
  if (typeof project !== "string" || !project) return { ok: false, statusCode: null, error: "Pick the project on the Asana card first" };
  const taskId = (delivery.payload as { taskId?: string }).taskId;
  const [task] = taskId ? await db.select().from(tasks).where(and(eq(tasks.id, taskId), eq(tasks.organizationId, connection.organizationId))) : [];
  if (!task) return { ok: false, statusCode: null, error: "The task no longer exists", giveUp: true };
  const who = task.contactName ? `${task.contactName} (${task.contactNumber})` : task.contactNumber;
  const link = taskLink(task);
  const notes = [task.detail, `Contact: ${who}`, link ? `Open in Switchboard: ${env.PUBLIC_URL.replace(/\/$/, "")}${link}` : ""].filter(Boolean).join("\n\n");
  const made = await createAsanaTask(apiBase, token, project, { name: task.title, notes });
  return { ok: true, statusCode: 201, externalId: made.gid };
}

const CALL_EVENTS = new Set(["call.completed", "voicemail.received", "call.synced"]);

const NAMES: Record<string, string> = { hubspot: "HubSpot", slack: "Slack", "google-calendar": "Google Calendar", notion: "Notion", airtable: "Airtable", asana: "Asana", gmail: "Gmail" };

/** A page (Notion) or a record (Airtable) per call, in the database or table the owner picked. */
async function notes(db: Db, connection: Connection, delivery: Delivery, token: string, apiBase: string): Promise<ProviderOutcome> {
  const target = connection.integration === "notion" ? connection.config.databaseId : connection.config.tableId;
  const what = connection.integration === "notion" ? "database" : "table";
  // Not yet picked: keep the delivery and retry, so the calls in between are not lost.
  if (typeof target !== "string" || !target) return { ok: false, statusCode: null, error: `Pick the ${what} on the ${NAMES[connection.integration]} card first` };
  const callId = (delivery.payload as { callId?: string }).callId;
  const call = callId ? await loadCallRecord(db, connection.organizationId, callId) : null;
  if (!call) return { ok: false, statusCode: null, error: "The call no longer exists", giveUp: true };
  const made = connection.integration === "notion" ? await createCallPage(apiBase, token, target, call) : await createCallRecord(apiBase, token, target, call);
  return { ok: true, statusCode: 200, externalId: made.id };
}

async function hubspot(db: Db, connection: Connection, delivery: Delivery, token: string, apiBase: string): Promise<ProviderOutcome> {
  const payload = delivery.payload as { callId?: string; phone?: string; name?: string | null };
  if (CALL_EVENTS.has(delivery.event)) {
    const call = payload.callId ? await loadCallRecord(db, connection.organizationId, payload.callId) : null;
    if (!call) return { ok: false, statusCode: null, error: "The call no longer exists", giveUp: true };
    const [earlier] = await db
      .select({ externalId: webhookDeliveries.externalId })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.organizationId, connection.organizationId),
          eq(webhookDeliveries.connectionId, connection.id),
          eq(webhookDeliveries.status, "delivered"),
          isNotNull(webhookDeliveries.externalId),
          inArray(webhookDeliveries.event, [...CALL_EVENTS]),
          sql`${webhookDeliveries.payload}->>'callId' = ${call.id}`,
        ),
      )
      .orderBy(desc(webhookDeliveries.deliveredAt))
      .limit(1);
    const logged = await logCall(apiBase, token, call, earlier?.externalId ?? null);
    return { ok: true, statusCode: 201, externalId: logged.callId };
  }
  if (!payload.phone) return { ok: false, statusCode: null, error: "No phone number to match a contact by", giveUp: true };
  const contact = await findOrCreateContact(apiBase, token, payload.phone, payload.name ?? null);
  return { ok: true, statusCode: contact.created ? 201 : 200, externalId: contact.id };
}

async function slack(connection: Connection, delivery: Delivery, token: string, apiBase: string): Promise<ProviderOutcome> {
  const channel = typeof connection.config.channelId === "string" ? connection.config.channelId : null;
  if (!channel) return { ok: false, statusCode: null, error: "Pick a Slack channel on the Slack card first" };
  await postMessage(apiBase, token, channel, String(delivery.payload.text ?? ""));
  return { ok: true, statusCode: 200 };
}

export async function deliverToProvider(db: Db, connection: Connection, delivery: Delivery): Promise<ProviderOutcome> {
  const card = oauthCards[connection.integration];
  const provider = card ? resolveProvider(card.provider) : null;
  const name = NAMES[connection.integration] ?? connection.integration;
  if (!card || !provider) return { ok: false, statusCode: null, error: `${name} is not configured on this server`, giveUp: true };
  const work = (token: string): Promise<ProviderOutcome> => {
    if (connection.integration === "hubspot") return hubspot(db, connection, delivery, token, provider.apiBase);
    if (connection.integration === "slack") return slack(connection, delivery, token, provider.apiBase);
    if (connection.integration === "notion" || connection.integration === "airtable") return notes(db, connection, delivery, token, provider.apiBase);
    if (connection.integration === "asana") return asana(db, connection, delivery, token, provider.apiBase);
    if (connection.integration === "gmail") return gmail(db, connection, delivery, token, provider.apiBase);
    return Promise.resolve({ ok: false, statusCode: null, error: `${name} does not take ${delivery.event}`, giveUp: true });
  };
  try {
    try {
      return await work(await accessTokenFor(db, connection));
    } catch (error) {
      // The provider ended the access token early (401): refresh once and try again. A refused
      // refresh is a revoked grant (accessTokenFor marks it).
      if (!(error instanceof ProviderError && error.kind === "auth" && error.status === 401 && readTokens(connection)?.refreshToken)) throw error;
      return await work(await accessTokenFor(db, connection, { force: true }));
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.kind === "auth") {
      await markNeedsReconnect(db, connection, error.message, name);
      return { ok: false, statusCode: error.status, error: `${error.message}. Reconnect ${name}.`, giveUp: true };
    }
    return { ok: false, statusCode: error.status, error: error.message, retryAfterMs: error.retryAfterMs, giveUp: error.kind === "invalid" };
  }
}
