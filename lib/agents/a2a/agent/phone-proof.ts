import "server-only";
import crypto from "node:crypto";
import { and, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { a2aPhoneProofs, appointments, organizations } from "@/db/schema";
import { storedMessaging, type AppointmentMessaging } from "@/lib/scheduling/messaging";
import { HttpError } from "@/lib/platform/http/errors";
import { hitRateLimit } from "@/lib/platform/http/rate-limit";

/**
 * Over A2A a phone number is a claim, not a credential (docs/a2a.md "Changing an appointment"):
 * before an agent may move or cancel an appointment found by a customer's number, a one-time code
 * is texted to that number and must come back in a later message of the same conversation.
 * Nothing about the appointment — not even whether there is one — is said before that.
 */
export const PHONE_PROOF = {
  codeDigits: 6,
  validForMs: 10 * 60 * 1000,
  maxAttempts: 5,
  /** Codes texted to one number per hour, across all conversations. */
  codesPerPhonePerHour: 3,
};

export type ProofOutcome = { kind: "proven"; phone: string; request: string | null } | { kind: "reply"; text: string };

const hash = (code: string) => crypto.createHash("sha256").update(code).digest("hex");

export const PROOF_TEXTS = {
  askPhone: "Which phone number is the appointment under? Give the customer's number (data part customerPhone, or in the text); a one-time code will be texted to it.",
  codeSent: (phone: string) =>
    `If ${phone} has an upcoming appointment here, a ${PHONE_PROOF.codeDigits}-digit code is on its way to it by text. Send that code in your next message (or as data verificationCode) to continue. For the customer's privacy, nothing about an appointment is shared before that.`,
  askCode: `Send the ${PHONE_PROOF.codeDigits}-digit code texted to the customer's phone to continue.`,
  wrongCode: "That code is not right. Check the text sent to the customer's phone and try again.",
  expired: "That code has expired. Send the request again with the customer's phone number to get a new one.",
  tooManyAttempts: "Too many wrong codes. Send the request again with the customer's phone number to get a new code.",
  sms: (business: string, code: string) =>
    `${business}: ${code} is your code to let an assistant change your appointment. It expires in ${PHONE_PROOF.validForMs / 60_000} minutes. If you did not ask for this, ignore this text.`,
};

function codeIn(text: string, data: Record<string, unknown> | null): string | null {
  for (const key of ["verificationCode", "code"]) {
    const value = data?.[key];
    if ((typeof value === "string" || typeof value === "number") && new RegExp(`^\\d{${PHONE_PROOF.codeDigits}}$`).test(String(value).trim())) return String(value).trim();
  }
  const match = new RegExp(`(?<![\\d+])(\\d{${PHONE_PROOF.codeDigits}})(?!\\d)`).exec(text);
  return match ? match[1] : null;
}

async function hasUpcomingAppointment(db: Db, organizationId: string, phone: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.organizationId, organizationId), eq(appointments.customerPhone, phone), inArray(appointments.status, ["held", "confirmed"]), gt(appointments.startsAt, now)))
    .limit(1);
  return Boolean(row);
}

/**
 * The gate in front of reschedule and cancel: answers "proven" (with the number, and the request
 * that asked for the proof when the code just came back) or the reply to send instead.
 */
export async function requirePhoneProof(
  db: Db,
  input: { organizationId: string; contextId: string; text: string; data: Record<string, unknown> | null; claimedPhone: string | null },
  deps: { messaging?: AppointmentMessaging; now?: Date } = {},
): Promise<ProofOutcome> {
  const now = deps.now ?? new Date();
  const { organizationId, contextId } = input;
  const [row] = await db
    .select()
    .from(a2aPhoneProofs)
    .where(and(eq(a2aPhoneProofs.organizationId, organizationId), eq(a2aPhoneProofs.contextId, contextId)))
    .limit(1);
  if (row?.verifiedAt) return { kind: "proven", phone: row.phone, request: null };

  const code = codeIn(input.text, input.data);
  if (row && code) {
    if (row.expiresAt.getTime() <= now.getTime()) {
      await db.delete(a2aPhoneProofs).where(eq(a2aPhoneProofs.id, row.id));
      return { kind: "reply", text: PROOF_TEXTS.expired };
    }
    if (row.attempts >= PHONE_PROOF.maxAttempts) return { kind: "reply", text: PROOF_TEXTS.tooManyAttempts };
    const given = Buffer.from(hash(code));
    if (crypto.timingSafeEqual(given, Buffer.from(row.codeHash))) {
      await db.update(a2aPhoneProofs).set({ verifiedAt: now }).where(eq(a2aPhoneProofs.id, row.id));
      return { kind: "proven", phone: row.phone, request: row.request };
    }
    await db.update(a2aPhoneProofs).set({ attempts: row.attempts + 1 }).where(eq(a2aPhoneProofs.id, row.id));
    return { kind: "reply", text: row.attempts + 1 >= PHONE_PROOF.maxAttempts ? PROOF_TEXTS.tooManyAttempts : PROOF_TEXTS.wrongCode };
  }

  const phone = input.claimedPhone;
  if (!phone) return { kind: "reply", text: row ? PROOF_TEXTS.askCode : PROOF_TEXTS.askPhone };

  try {
    await hitRateLimit(db, `a2a-proof:${organizationId}:${phone}`, PHONE_PROOF.codesPerPhonePerHour, 60 * 60 * 1000, "Too many codes for this number.", now);
  } catch (error) {
    // The same answer as a sent code: the caller learns nothing about the number.
    if (error instanceof HttpError && error.status === 429) return { kind: "reply", text: PROOF_TEXTS.codeSent(phone) };
    throw error;
  }
  const newCode = String(crypto.randomInt(0, 10 ** PHONE_PROOF.codeDigits)).padStart(PHONE_PROOF.codeDigits, "0");
  const values = {
    phone,
    codeHash: hash(newCode),
    request: input.text.slice(0, 2000),
    attempts: 0,
    expiresAt: new Date(now.getTime() + PHONE_PROOF.validForMs),
    verifiedAt: null,
    createdAt: now,
  };
  await db
    .insert(a2aPhoneProofs)
    .values({ id: crypto.randomUUID(), organizationId, contextId, ...values })
    .onConflictDoUpdate({ target: [a2aPhoneProofs.organizationId, a2aPhoneProofs.contextId], set: values });
  // Only a number with an upcoming appointment is texted (no texts to strangers); the reply is the same either way.
  if (await hasUpcomingAppointment(db, organizationId, phone, now)) {
    const [org] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
    await (deps.messaging ?? storedMessaging).sendSms(db, organizationId, { to: phone, body: PROOF_TEXTS.sms(org?.name ?? "Switchboard", newCode) });
  }
  return { kind: "reply", text: PROOF_TEXTS.codeSent(phone) };
}
