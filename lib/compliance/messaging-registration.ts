import "server-only";
import crypto from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import twilio from "twilio";
import type { Db, DbOrTx } from "@/db/client";
import { messages, messageThreads, messagingRegistrations, phoneNumbers, queuedTexts } from "@/db/schema";
import { env } from "@/lib/platform/env";
import { badRequest, conflict, HttpError } from "@/lib/platform/http/errors";
import { defineJob } from "@/lib/platform/jobs/types";
import { enqueue } from "@/lib/platform/jobs/queue";
import { resolveCredential } from "@/lib/workspace/provider-selection/credentials";
import { getTelephonyProviderFor } from "@/lib/workspace/provider-selection/telephony";
import { toTelephonyError } from "@/lib/platform/providers/telephony/twilio";
import { isOptedOut } from "@/lib/phone/messages/opt-out";
import type { RegistrationInput } from "./schema";

/**
 * A2P 10DLC (docs/compliance.md#a2p-10dlc): US carriers block texts from local numbers whose
 * business has no approved messaging registration (brand + campaign). The organization's
 * registration is recorded here — through Twilio's API when Twilio keys are set, else with the
 * simulated carrier, which approves it after SIMULATED_A2P_REVIEW_SECONDS through a job.
 *
 * While a submitted registration is not approved, texts to callers wait in `queued_text` with the
 * reason, and go out when it is. An organization that never submitted one is not held: on the
 * simulated carrier every organization counts as registered at sign-up (the existing texting flows
 * and their tests rely on it), and a Twilio account may have registered in Twilio's console.
 */

export type RegistrationView = {
  provider: "simulated" | "twilio";
  status: "pending" | "approved" | "rejected" | "not_submitted";
  brandName: string | null;
  brandSid: string | null;
  reason: string | null;
  submittedAt: string | null;
  approvedAt: string | null;
  queuedTexts: { id: string; to: string; body: string; origin: string; reason: string; createdAt: string }[];
};

/** Texts of this organization still waiting (neither sent nor cancelled). */
function waitingIn(organizationId: string) {
  return and(eq(queuedTexts.organizationId, organizationId), isNull(queuedTexts.sentAt), isNull(queuedTexts.cancelledAt));
}

const TWILIO_STATUS: Record<string, "pending" | "approved" | "rejected"> = { APPROVED: "approved", FAILED: "rejected", SUSPENDED: "rejected" };

type Deps = { twilioHttpClient?: twilio.RequestClient };

async function twilioClient(db: DbOrTx, organizationId: string, deps: Deps) {
  const credential = await resolveCredential(db, organizationId, "twilio");
  if (!credential) return null;
  return twilio(credential.secret.accountSid, credential.secret.authToken, deps.twilioHttpClient ? { httpClient: deps.twilioHttpClient } : {});
}

export async function getRegistration(db: DbOrTx, organizationId: string): Promise<RegistrationView> {
  const [[row], waiting, credential] = await Promise.all([
    db.select().from(messagingRegistrations).where(eq(messagingRegistrations.organizationId, organizationId)),
    db
      .select()
      .from(queuedTexts)
      .where(waitingIn(organizationId))
      .orderBy(asc(queuedTexts.createdAt))
      .limit(200),
    resolveCredential(db, organizationId, "twilio"),
  ]);
  return {
    provider: row?.provider ?? (credential ? "twilio" : "simulated"),
    status: row?.status ?? "not_submitted",
    brandName: row?.brandName ?? null,
    brandSid: row?.brandSid ?? null,
    reason: row?.reason ?? null,
    submittedAt: row?.submittedAt.toISOString() ?? null,
    approvedAt: row?.approvedAt?.toISOString() ?? null,
    queuedTexts: waiting.map((q) => ({ id: q.id, to: q.toNumber, body: q.body, origin: q.origin, reason: q.reason, createdAt: q.createdAt.toISOString() })),
  };
}

/** POST /api/compliance/messaging-registration: submits (or resubmits) the brand and campaign. */
export async function submitRegistration(db: Db, organizationId: string, input: RegistrationInput, deps: Deps = {}): Promise<RegistrationView> {
  const client = await twilioClient(db, organizationId, deps);
  const now = new Date();
  let values: Omit<typeof messagingRegistrations.$inferInsert, "organizationId">;
  if (client) {
    const errors: Record<string, string> = {};
    if (!input.customerProfileBundleSid) errors.customerProfileBundleSid = "Twilio needs the Customer Profile bundle (BU…) from its Trust Hub";
    if (!input.a2pProfileBundleSid) errors.a2pProfileBundleSid = "Twilio needs the A2P Messaging Profile bundle (BU…) from its Trust Hub";
    if (Object.keys(errors).length) throw badRequest("Twilio needs the Trust Hub bundles to register the brand", errors);
    let brand;
    try {
      brand = await client.messaging.v1.brandRegistrations.create({ customerProfileBundleSid: input.customerProfileBundleSid!, a2PProfileBundleSid: input.a2pProfileBundleSid! });
    } catch (error) {
      const e = toTelephonyError(error, "register the messaging brand");
      throw new HttpError(e.kind === "invalid" ? 400 : 502, e.message);
    }
    const status = TWILIO_STATUS[brand.status] ?? "pending";
    values = { provider: "twilio", status, brandName: input.brandName, brandSid: brand.sid, useCase: input.useCase, reason: status === "rejected" ? brand.failureReason || "Twilio refused the brand" : null, submittedAt: now, approvedAt: status === "approved" ? now : null, updatedAt: now };
  } else {
    values = { provider: "simulated", status: "pending", brandName: input.brandName, brandSid: `BN${crypto.randomBytes(16).toString("hex")}`, useCase: input.useCase, reason: null, submittedAt: now, approvedAt: null, updatedAt: now };
  }
  await db.insert(messagingRegistrations).values({ organizationId, ...values }).onConflictDoUpdate({ target: messagingRegistrations.organizationId, set: values });
  if (values.status === "pending") {
    const delaySeconds = values.provider === "simulated" ? env.SIMULATED_A2P_REVIEW_SECONDS : 15 * 60;
    await enqueue(db, registrationReviewJob, { organizationId }, { startAfter: new Date(now.getTime() + delaySeconds * 1000) });
  } else if (values.status === "approved") {
    await enqueue(db, releaseQueuedTextsJob, { organizationId });
  }
  return getRegistration(db, organizationId);
}

/** The number a text leaves from: A2P 10DLC is about US 10-digit long codes. */
export type SendingNumber = { phoneNumber: string; provider: "twilio" | "simulated" };

/** Toll-free area codes (toll-free verification, not 10DLC, governs them). */
const TOLL_FREE = new Set(["800", "833", "844", "855", "866", "877", "888"]);

/**
 * Whether A2P 10DLC governs texts from this number: a US 10-digit long code (+1 NXX NXX XXXX, not
 * toll-free) on Twilio, or on the simulated carrier, which stands in for Twilio. Short codes, toll-free
 * and non-US numbers are not held by it.
 */
export function a2pApplies(number: SendingNumber): boolean {
  const m = /^\+1([2-9]\d{2})[2-9]\d{6}$/.exec(number.phoneNumber);
  return Boolean(m) && !TOLL_FREE.has(m![1]) && (number.provider === "twilio" || number.provider === "simulated");
}

/** Why texts to callers must wait now (from this number, when given), or null when they may go out. */
export async function messagingHold(db: DbOrTx, organizationId: string, number?: SendingNumber): Promise<string | null> {
  if (number && !a2pApplies(number)) return null;
  const [row] = await db.select({ status: messagingRegistrations.status, reason: messagingRegistrations.reason }).from(messagingRegistrations).where(eq(messagingRegistrations.organizationId, organizationId));
  if (!row || row.status === "approved") return null;
  if (row.status === "rejected") return `Messaging registration (A2P 10DLC) was refused${row.reason ? `: ${row.reason}` : ""}. Texts wait until it is approved.`;
  return "Messaging registration (A2P 10DLC) is awaiting approval: US carriers block texts until it is approved. This text goes out then.";
}

/** Puts a text to a caller in the queue with the reason it waits. */
export async function holdText(
  db: DbOrTx,
  input: {
    organizationId: string;
    phoneNumberId: string | null;
    to: string;
    body: string;
    origin: string;
    reason: string;
    /** A held SMS-webhook reply: the text it answers and how the sent message is tagged. */
    replyToId?: string | null;
    sentBy?: "assistant" | "owner" | "system" | null;
    intent?: string | null;
  },
) {
  const [row] = await db
    .insert(queuedTexts)
    .values({
      id: crypto.randomUUID(),
      organizationId: input.organizationId,
      phoneNumberId: input.phoneNumberId,
      toNumber: input.to,
      body: input.body,
      origin: input.origin,
      reason: input.reason,
      replyToId: input.replyToId ?? null,
      sentBy: input.sentBy ?? null,
      intent: input.intent ?? null,
    })
    .returning();
  return row;
}

/** Sends the texts that waited, through the carrier of the number they were to leave from, into their threads. */
export async function releaseQueuedTexts(db: Db, organizationId: string): Promise<number> {
  const waiting = await db.select().from(queuedTexts).where(waitingIn(organizationId)).orderBy(asc(queuedTexts.createdAt));
  let sent = 0;
  for (const q of waiting) {
    // The one opt-out check (lib/phone/messages/opt-out.ts): a contact who opted out while the text waited
    // gets nothing, except the confirmation of that very opt-out.
    if (q.origin !== "opt_out_confirmation" && (await isOptedOut(db, organizationId, q.toNumber))) {
      await db
        .update(queuedTexts)
        .set({ cancelledAt: new Date(), cancelReason: `${q.toNumber} opted out while the text waited: not sent.` })
        .where(and(eq(queuedTexts.id, q.id), eq(queuedTexts.organizationId, organizationId)));
      continue;
    }
    const [number] = await db
      .select()
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.organizationId, organizationId), eq(phoneNumbers.isActive, true), q.phoneNumberId ? eq(phoneNumbers.id, q.phoneNumberId) : undefined))
      .orderBy(asc(phoneNumbers.createdAt))
      .limit(1);
    if (!number) continue;
    const carrier = await getTelephonyProviderFor(db, organizationId, number.provider);
    if (!carrier) continue;
    const out = await carrier.sendSms({ from: number.phoneNumber, to: q.toNumber, body: q.body });
    await db
      .insert(messageThreads)
      .values({ id: crypto.randomUUID(), organizationId, phoneNumberId: number.id, contactNumber: q.toNumber, ...(q.origin === "opt_out_confirmation" ? { optedOut: true, optedOutAt: q.createdAt } : {}) })
      .onConflictDoNothing({ target: [messageThreads.phoneNumberId, messageThreads.contactNumber] });
    const [thread] = await db
      .select({ id: messageThreads.id })
      .from(messageThreads)
      .where(and(eq(messageThreads.organizationId, organizationId), eq(messageThreads.phoneNumberId, number.id), eq(messageThreads.contactNumber, q.toNumber)));
    const messageId = crypto.randomUUID();
    await db.insert(messages).values({
      id: messageId,
      organizationId,
      phoneNumberId: number.id,
      threadId: thread?.id ?? null,
      providerMessageSid: out.sid,
      direction: "outbound",
      fromNumber: number.phoneNumber,
      toNumber: q.toNumber,
      body: q.body,
      status: out.status === "delivered" ? "delivered" : "sent",
      sentBy: q.sentBy ?? (q.origin === "owner" ? "owner" : "system"),
      replyToId: q.replyToId,
      intent: q.intent,
    });
    if (thread) await db.update(messageThreads).set({ lastMessageAt: new Date() }).where(eq(messageThreads.id, thread.id));
    await db.update(queuedTexts).set({ sentAt: new Date(), messageId }).where(eq(queuedTexts.id, q.id));
    sent += 1;
  }
  return sent;
}

/** The review: the simulated carrier approves; Twilio's brand status is read again (and again in 15 minutes while pending). */
export async function reviewRegistration(db: Db, organizationId: string, deps: Deps = {}): Promise<void> {
  const [row] = await db.select().from(messagingRegistrations).where(eq(messagingRegistrations.organizationId, organizationId));
  if (!row || row.status !== "pending") return;
  let status: "pending" | "approved" | "rejected" = "approved";
  let reason: string | null = null;
  if (row.provider === "twilio") {
    const client = await twilioClient(db, organizationId, deps);
    if (!client || !row.brandSid) return;
    const brand = await client.messaging.v1.brandRegistrations(row.brandSid).fetch();
    status = TWILIO_STATUS[brand.status] ?? "pending";
    reason = status === "rejected" ? brand.failureReason || "Twilio refused the brand" : null;
  }
  const now = new Date();
  await db
    .update(messagingRegistrations)
    .set({ status, reason, approvedAt: status === "approved" ? now : null, updatedAt: now })
    .where(eq(messagingRegistrations.organizationId, organizationId));
  if (status === "approved") await releaseQueuedTexts(db, organizationId);
  else if (status === "pending") await enqueue(db, registrationReviewJob, { organizationId }, { startAfter: new Date(now.getTime() + 15 * 60_000) });
}

export const registrationReviewJob = defineJob<{ organizationId: string }>({
  name: "compliance.a2p-review",
  retryLimit: 3,
  retryDelaySeconds: 60,
  async handler(data, { db }) {
    await reviewRegistration(db, data.organizationId);
  },
});

/** Sends what waited for the registration (queued when it is approved at once). */
export const releaseQueuedTextsJob = defineJob<{ organizationId: string }>({
  name: "compliance.a2p-release",
  retryLimit: 5,
  retryDelaySeconds: 60,
  async handler(data, { db }) {
    await releaseQueuedTexts(db, data.organizationId);
  },
});

/** An owner's own text while the registration is not approved: refused with the reason (nothing is sent into a carrier block). */
export async function assertRegistrationAllowsTexts(db: DbOrTx, organizationId: string, number?: SendingNumber): Promise<void> {
  const hold = await messagingHold(db, organizationId, number);
  if (hold) throw conflict(`${hold.replace(/ (This text goes out then|Texts wait until it is approved)\.$/, "")} Send it once Settings → Compliance shows the registration approved.`);
}
