import "server-only";
import crypto from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import twilio from "twilio";
import type { Db, DbOrTx } from "@/db/client";
import { messages, messageThreads, messagingRegistrations, phoneNumbers, queuedTexts } from "@/db/schema";
import { env } from "@/lib/env";
import { badRequest, conflict, HttpError } from "@/lib/http/errors";
import { defineJob } from "@/lib/jobs/types";
import { enqueue } from "@/lib/jobs/queue";
import { resolveCredential } from "@/lib/provider-selection/credentials";
import { getTelephonyProviderFor } from "@/lib/provider-selection/telephony";
import { toTelephonyError } from "@/lib/providers/telephony/twilio";
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
      .where(and(eq(queuedTexts.organizationId, organizationId), isNull(queuedTexts.sentAt)))
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
    await releaseQueuedTexts(db, organizationId);
  }
  return getRegistration(db, organizationId);
}

/** Why texts to callers must wait now, or null when they may go out. */
export async function messagingHold(db: DbOrTx, organizationId: string): Promise<string | null> {
  const [row] = await db.select({ status: messagingRegistrations.status, reason: messagingRegistrations.reason }).from(messagingRegistrations).where(eq(messagingRegistrations.organizationId, organizationId));
  if (!row || row.status === "approved") return null;
  if (row.status === "rejected") return `Messaging registration (A2P 10DLC) was refused${row.reason ? `: ${row.reason}` : ""}. Texts wait until it is approved.`;
  return "Messaging registration (A2P 10DLC) is awaiting approval: US carriers block texts until it is approved. This text goes out then.";
}

/** Puts a text to a caller in the queue with the reason it waits. */
export async function holdText(db: DbOrTx, input: { organizationId: string; phoneNumberId: string | null; to: string; body: string; origin: string; reason: string }) {
  const [row] = await db
    .insert(queuedTexts)
    .values({ id: crypto.randomUUID(), organizationId: input.organizationId, phoneNumberId: input.phoneNumberId, toNumber: input.to, body: input.body, origin: input.origin, reason: input.reason })
    .returning();
  return row;
}

/** Sends the texts that waited, through the carrier of the number they were to leave from, into their threads. */
export async function releaseQueuedTexts(db: Db, organizationId: string): Promise<number> {
  const waiting = await db.select().from(queuedTexts).where(and(eq(queuedTexts.organizationId, organizationId), isNull(queuedTexts.sentAt))).orderBy(asc(queuedTexts.createdAt));
  let sent = 0;
  for (const q of waiting) {
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
      .values({ id: crypto.randomUUID(), organizationId, phoneNumberId: number.id, contactNumber: q.toNumber })
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
      sentBy: q.origin === "owner" ? "owner" : "system",
    });
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

/** An owner's own text while the registration is not approved: refused with the reason (nothing is sent into a carrier block). */
export async function assertRegistrationAllowsTexts(db: DbOrTx, organizationId: string): Promise<void> {
  const hold = await messagingHold(db, organizationId);
  if (hold) throw conflict(`${hold.replace(/ (This text goes out then|Texts wait until it is approved)\.$/, "")} Send it once Settings → Compliance shows the registration approved.`);
}
