import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import {
  a2aMessages,
  appointments,
  assistantActions,
  assistantReplies,
  audioClips,
  bookingConversations,
  calls,
  contacts,
  emails,
  erasureCertificates,
  knowledgeGapOccurrences,
  messages,
  messageThreads,
  notifications,
  tasks,
  webhookDeliveries,
} from "@/db/schema";
import { getBlobStore } from "@/lib/platform/blob-store";
import { notFound } from "@/lib/platform/http/errors";
import { toCsv } from "./csv";
import { dropCallRecordings } from "./recordings";
import { queueCarrierRecordingDeletion } from "./recording-deletion";

/**
 * Erasure that is complete (docs/compliance.md#erasure). "Forget me" from the caller (a call, a text,
 * an agent) or a request an owner records erases everything that names the caller: call transcripts,
 * summaries and recordings, texts, the contact's name and preferences, tasks' personal fields, booking
 * conversations, appointments' customer fields, owner alerts and e-mails that quote them, webhook and
 * A2A payloads, the per-call action and reply rows. The rows themselves stay with their numbers
 * replaced by ERASED, so aggregate counts (calls, texts, durations, outcomes, credits) still add up.
 * The contact row stays as the suppression marker (`forgottenAt`: nothing is remembered again), and
 * so does an SMS opt-out (the law requires honouring it). Each erasure writes a certificate.
 */

export const ERASED = "erased";
const ERASED_TEXT = "[erased at the caller's request]";

export type ErasureVia = "caller_call" | "caller_text" | "caller_agent" | "owner";

export type ErasureCertificateView = {
  id: string;
  subject: string;
  /** SHA-256 of the organization and the number: what a restore from backup matches to erase again. */
  subjectHash: string;
  requestedVia: ErasureVia;
  requestedBy: string | null;
  requestedByName: string | null;
  erased: Record<string, number>;
  createdAt: string;
};

function mask(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return digits.length >= 4 ? `•••• ${digits.slice(-4)}` : "••••";
}

export function subjectHash(organizationId: string, phone: string): string {
  return crypto.createHash("sha256").update(`${organizationId}:${phone}`).digest("hex");
}

function likeText(phone: string) {
  return `%${phone.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Removes a call's recording: the clip's bytes and row, where the call points at one. */
async function dropRecordings(db: DbOrTx, organizationId: string, urls: (string | null)[]): Promise<number> {
  const ids = urls.map((u) => (u ? /\/api\/audio\/([^/?]+)/.exec(u)?.[1] : null)).filter((id): id is string => Boolean(id));
  if (!ids.length) return urls.filter(Boolean).length;
  const clips = await db.delete(audioClips).where(and(eq(audioClips.organizationId, organizationId), inArray(audioClips.id, ids))).returning({ storageKey: audioClips.storageKey });
  for (const clip of clips) await getBlobStore().delete(clip.storageKey).catch(() => undefined);
  return urls.filter(Boolean).length;
}

/** The content of these calls, erased (their numbers too once they have ended). */
async function eraseCalls(db: DbOrTx, organizationId: string, phone: string) {
  const rows = await db
    .select({ id: calls.id, status: calls.status, provider: calls.provider, transcript: calls.transcript, summary: calls.summary, recordingUrl: calls.recordingUrl, recordingSid: calls.recordingSid, voicemailTranscript: calls.voicemailTranscript })
    .from(calls)
    .where(and(eq(calls.organizationId, organizationId), or(eq(calls.fromNumber, phone), and(eq(calls.direction, "outbound"), eq(calls.toNumber, phone)))));
  if (!rows.length) return { calls: 0, transcripts: 0, recordings: 0, ids: [] as string[] };
  const ids = rows.map((r) => r.id);
  const recordings = (await dropRecordings(db, organizationId, rows.map((r) => r.recordingUrl))) + (await dropCallRecordings(db, organizationId, ids));
  // Voicemails (<Record>) stay at the carrier until deleted there (a job, logged).
  for (const r of rows) if (r.recordingSid) await queueCarrierRecordingDeletion(db, { organizationId, callId: r.id, recordingSid: r.recordingSid, provider: r.provider ?? "simulated", reason: "erasure" });
  await db
    .update(calls)
    .set({ transcript: [], summary: null, callerName: null, actionItems: [], recordingUrl: null, recordingSid: null, voicemailTranscript: null, transcriptionNote: null })
    .where(and(eq(calls.organizationId, organizationId), inArray(calls.id, ids)));
  // A call still under way keeps its number until it ends (its webhooks find it by CallSid; the
  // status callback erases it then, see eraseAfterCall).
  const ended = rows.filter((r) => r.status !== "ringing" && r.status !== "in_progress").map((r) => r.id);
  if (ended.length) {
    await db
      .update(calls)
      .set({ fromNumber: sql`case when ${calls.fromNumber} = ${phone} then ${ERASED} else ${calls.fromNumber} end`, toNumber: sql`case when ${calls.toNumber} = ${phone} then ${ERASED} else ${calls.toNumber} end` })
      .where(and(eq(calls.organizationId, organizationId), inArray(calls.id, ended)));
  }
  await db.update(assistantActions).set({ detail: {} }).where(and(eq(assistantActions.organizationId, organizationId), inArray(assistantActions.callId, ids)));
  await db.update(assistantReplies).set({ inputText: "", replyText: "" }).where(and(eq(assistantReplies.organizationId, organizationId), inArray(assistantReplies.callId, ids)));
  await db.update(knowledgeGapOccurrences).set({ question: ERASED_TEXT, replyText: "" }).where(and(eq(knowledgeGapOccurrences.organizationId, organizationId), inArray(knowledgeGapOccurrences.callId, ids)));
  return {
    calls: rows.length,
    transcripts: rows.filter((r) => r.transcript.length || r.summary || r.voicemailTranscript).length,
    recordings,
    ids,
  };
}

async function eraseTexts(db: DbOrTx, organizationId: string, phone: string) {
  const rows = await db
    .select({ id: messages.id, body: messages.body })
    .from(messages)
    .where(and(eq(messages.organizationId, organizationId), or(eq(messages.fromNumber, phone), eq(messages.toNumber, phone))));
  const ids = rows.map((r) => r.id);
  if (ids.length) {
    await db
      .update(messages)
      .set({
        body: ERASED_TEXT,
        fromNumber: sql`case when ${messages.fromNumber} = ${phone} then ${ERASED} else ${messages.fromNumber} end`,
        toNumber: sql`case when ${messages.toNumber} = ${phone} then ${ERASED} else ${messages.toNumber} end`,
      })
      .where(and(eq(messages.organizationId, organizationId), inArray(messages.id, ids)));
    await db.update(assistantActions).set({ detail: {} }).where(and(eq(assistantActions.organizationId, organizationId), inArray(assistantActions.messageId, ids)));
    await db.update(knowledgeGapOccurrences).set({ question: ERASED_TEXT, replyText: "" }).where(and(eq(knowledgeGapOccurrences.organizationId, organizationId), inArray(knowledgeGapOccurrences.messageId, ids)));
    // A text's reply timings keep no link to the text: matched by the words the caller wrote.
    const bodies = [...new Set(rows.map((r) => r.body))];
    await db
      .update(assistantReplies)
      .set({ inputText: "", replyText: "" })
      .where(and(eq(assistantReplies.organizationId, organizationId), eq(assistantReplies.source, "sms"), inArray(assistantReplies.inputText, bodies)));
  }
  const threads = await db
    .update(messageThreads)
    .set({ contactNumber: sql`${ERASED} || ':' || ${messageThreads.id}` })
    .where(and(eq(messageThreads.organizationId, organizationId), eq(messageThreads.contactNumber, phone)))
    .returning({ id: messageThreads.id });
  return { texts: ids.length, threads: threads.length };
}

/** Erases everything that names `phone` in the organization, and returns the certificate. */
export async function eraseCaller(
  db: DbOrTx,
  input: { organizationId: string; phone: string; via: ErasureVia; requestedBy?: { userId: string; name: string | null } },
): Promise<ErasureCertificateView> {
  const { organizationId, phone } = input;
  const like = likeText(phone);
  const callsErased = await eraseCalls(db, organizationId, phone);
  const texts = await eraseTexts(db, organizationId, phone);
  const taskRows = await db
    .update(tasks)
    .set({ title: "Erased at the caller's request", detail: "", contactNumber: ERASED, contactName: null, updatedAt: new Date() })
    .where(and(eq(tasks.organizationId, organizationId), or(eq(tasks.contactNumber, phone), callsErased.ids.length ? inArray(tasks.callId, callsErased.ids) : sql`false`)))
    .returning({ id: tasks.id });
  const bookings = await db
    .delete(bookingConversations)
    .where(and(eq(bookingConversations.organizationId, organizationId), eq(bookingConversations.callerPhone, phone)))
    .returning({ id: bookingConversations.id });
  const appointmentRows = await db
    .update(appointments)
    .set({ customerName: "Erased", customerPhone: ERASED, notes: "" })
    .where(and(eq(appointments.organizationId, organizationId), eq(appointments.customerPhone, phone)))
    .returning({ id: appointments.id });
  const alerts = await db
    .update(notifications)
    .set({ title: "Erased at the caller's request", body: "" })
    .where(and(eq(notifications.organizationId, organizationId), or(sql`${notifications.title} ilike ${like}`, sql`${notifications.body} ilike ${like}`)))
    .returning({ id: notifications.id });
  const mails = await db
    .update(emails)
    .set({ subject: "Erased at the caller's request", text: ERASED_TEXT, html: ERASED_TEXT })
    .where(and(eq(emails.organizationId, organizationId), or(sql`${emails.subject} ilike ${like}`, sql`${emails.text} ilike ${like}`)))
    .returning({ id: emails.id });
  const webhookPayloads = await db
    .update(webhookDeliveries)
    .set({ payload: { erased: true } })
    .where(and(eq(webhookDeliveries.organizationId, organizationId), sql`${webhookDeliveries.payload}::text ilike ${like}`))
    .returning({ id: webhookDeliveries.id });
  const agentPayloads = await db
    .update(a2aMessages)
    .set({ payload: { erased: true } })
    .where(and(eq(a2aMessages.organizationId, organizationId), sql`${a2aMessages.payload}::text ilike ${like}`))
    .returning({ id: a2aMessages.id });
  const now = new Date();
  const contact = await db
    .insert(contacts)
    .values({ id: crypto.randomUUID(), organizationId, phone, name: null, preferences: [], forgottenAt: now })
    .onConflictDoUpdate({ target: [contacts.organizationId, contacts.phone], set: { name: null, preferences: [], forgottenAt: now, updatedAt: now } })
    .returning({ id: contacts.id });

  const erased: Record<string, number> = {
    calls: callsErased.calls,
    transcripts: callsErased.transcripts,
    recordings: callsErased.recordings,
    texts: texts.texts,
    textThreads: texts.threads,
    contacts: contact.length,
    tasks: taskRows.length,
    appointments: appointmentRows.length,
    bookingConversations: bookings.length,
    alerts: alerts.length,
    emails: mails.length,
    webhookPayloads: webhookPayloads.length,
    agentPayloads: agentPayloads.length,
  };
  const [row] = await db
    .insert(erasureCertificates)
    .values({
      id: crypto.randomUUID(),
      organizationId,
      subject: mask(phone),
      subjectHash: subjectHash(organizationId, phone),
      requestedVia: input.via,
      requestedBy: input.requestedBy?.userId ?? null,
      requestedByName: input.requestedBy?.name ?? null,
      erased,
      createdAt: now,
    })
    .returning();
  return toView(row);
}

/**
 * At a call's end: a caller who asked to be forgotten during it (or while it rang) has this call
 * erased too, now that its last turn is written. Counted into that request's certificate.
 */
export async function eraseAfterCall(db: DbOrTx, callSid: string | undefined): Promise<void> {
  if (!callSid) return;
  const [row] = await db
    .select({ id: calls.id, organizationId: calls.organizationId, fromNumber: calls.fromNumber, startedAt: calls.startedAt, forgottenAt: contacts.forgottenAt })
    .from(calls)
    .innerJoin(contacts, and(eq(contacts.organizationId, calls.organizationId), eq(contacts.phone, calls.fromNumber)))
    .where(eq(calls.providerCallSid, callSid));
  if (!row?.forgottenAt) return;
  const erased = await eraseCalls(db, row.organizationId, row.fromNumber);
  const [certificate] = await db
    .select({ id: erasureCertificates.id, erased: erasureCertificates.erased })
    .from(erasureCertificates)
    .where(and(eq(erasureCertificates.organizationId, row.organizationId), eq(erasureCertificates.subjectHash, subjectHash(row.organizationId, row.fromNumber))))
    .orderBy(desc(erasureCertificates.createdAt))
    .limit(1);
  if (certificate && erased.recordings) {
    await db
      .update(erasureCertificates)
      .set({ erased: { ...certificate.erased, recordings: (certificate.erased.recordings ?? 0) + erased.recordings } })
      .where(eq(erasureCertificates.id, certificate.id));
  }
}

function toView(row: typeof erasureCertificates.$inferSelect): ErasureCertificateView {
  return {
    id: row.id,
    subject: row.subject,
    subjectHash: row.subjectHash,
    requestedVia: row.requestedVia,
    requestedBy: row.requestedBy,
    requestedByName: row.requestedByName,
    erased: row.erased,
    createdAt: row.createdAt.toISOString(),
  };
}

/** POST /api/contacts/{id}/erasure: the owner records the caller's request (by phone, letter, in person). */
export async function eraseContact(db: DbOrTx, organizationId: string, contactId: string, by: { userId: string; name: string | null }): Promise<ErasureCertificateView> {
  const [contact] = await db.select({ phone: contacts.phone }).from(contacts).where(and(eq(contacts.id, contactId), eq(contacts.organizationId, organizationId)));
  if (!contact) throw notFound("Contact");
  return eraseCaller(db, { organizationId, phone: contact.phone, via: "owner", requestedBy: by });
}

export async function listErasureCertificates(db: DbOrTx, organizationId: string): Promise<{ certificates: ErasureCertificateView[] }> {
  const rows = await db.select().from(erasureCertificates).where(eq(erasureCertificates.organizationId, organizationId)).orderBy(desc(erasureCertificates.createdAt)).limit(500);
  return { certificates: rows.map(toView) };
}

export async function getErasureCertificate(db: DbOrTx, organizationId: string, id: string): Promise<ErasureCertificateView> {
  const [row] = await db.select().from(erasureCertificates).where(and(eq(erasureCertificates.id, id), eq(erasureCertificates.organizationId, organizationId)));
  if (!row) throw notFound("Erasure certificate");
  return toView(row);
}


/** The certificates as CSV: one line per erased kind, so a spreadsheet shows what, when and by whom. */
export function certificatesCsv(certificates: ErasureCertificateView[]): string {
  const rows: (string | number | null)[][] = [];
  for (const c of certificates) {
    for (const [kind, count] of Object.entries(c.erased)) rows.push([c.id, c.createdAt, c.subject, c.subjectHash, c.requestedVia, c.requestedByName ?? (c.requestedVia === "owner" ? c.requestedBy : "the caller"), kind, count]);
  }
  return toCsv(["certificate", "erased_at", "subject", "subject_sha256", "requested_via", "requested_by", "what", "rows_erased"], rows);
}
