import "server-only";
import crypto from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { getTelephonyProviderFor } from "@/lib/workspace/provider-selection/telephony";
import { messages, messageThreads, phoneNumbers, smsOptOuts } from "@/db/schema";
import { isOptedOut } from "@/lib/phone/messages/opt-out";
import { holdText, messagingHold } from "@/lib/compliance/messaging-registration";

/**
 * The texts the appointment book sends (confirmations, reminders, replies to C / R). The phone loop
 * owns SMS: at merge it supplies `sendSms` (through the organization's carrier) and `isOptedOut`
 * (its STOP/START store); the appointment book calls only this interface.
 */
export type SmsResult =
  | { status: "sent"; messageId: string; from: string }
  | { status: "skipped"; reason: "opted_out" | "no_sender" }
  /** Held until the messaging registration (A2P 10DLC) is approved; sent then. */
  | { status: "queued"; reason: string };

export interface AppointmentMessaging {
  isOptedOut(db: DbOrTx, organizationId: string, phone: string): Promise<boolean>;
  /** Sends one text from the organization's number; never to an opted-out number. */
  sendSms(db: DbOrTx, organizationId: string, message: { to: string; body: string }): Promise<SmsResult>;
}

/** STOP recorded for the number: the one opt-out check (lib/phone/messages/opt-out.ts). */
export { isOptedOut };

/** Records a STOP (the phone loop's SMS webhook calls it; tests too). */
export async function recordOptOut(db: DbOrTx, organizationId: string, phone: string): Promise<void> {
  await db.insert(smsOptOuts).values({ id: crypto.randomUUID(), organizationId, phone }).onConflictDoNothing();
}

/** Records a START. */
export async function clearOptOut(db: DbOrTx, organizationId: string, phone: string): Promise<void> {
  await db.delete(smsOptOuts).where(and(eq(smsOptOuts.organizationId, organizationId), eq(smsOptOuts.phone, phone)));
}

/**
 * The texts go out through the carrier that holds the organization's first active number (the
 * simulated carrier, or Twilio), into the contact's text thread, where Call History shows them.
 * No number, or a Twilio number without credentials → nothing is sent. A carrier refusal is thrown
 * (the job retries).
 */
export const storedMessaging: AppointmentMessaging = {
  isOptedOut,
  async sendSms(db, organizationId, { to, body }) {
    if (await isOptedOut(db, organizationId, to)) return { status: "skipped", reason: "opted_out" };
    const [number] = await db
      .select({ id: phoneNumbers.id, phoneNumber: phoneNumbers.phoneNumber, provider: phoneNumbers.provider })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.organizationId, organizationId), eq(phoneNumbers.isActive, true)))
      .orderBy(asc(phoneNumbers.createdAt))
      .limit(1);
    if (!number) return { status: "skipped", reason: "no_sender" };
    const hold = await messagingHold(db, organizationId, number);
    if (hold) {
      await holdText(db, { organizationId, phoneNumberId: number.id, to, body, origin: "appointment", reason: hold });
      return { status: "queued", reason: hold };
    }
    const carrier = await getTelephonyProviderFor(db, organizationId, number.provider);
    if (!carrier) return { status: "skipped", reason: "no_sender" };
    const sent = await carrier.sendSms({ from: number.phoneNumber, to, body });
    await db
      .insert(messageThreads)
      .values({ id: crypto.randomUUID(), organizationId, phoneNumberId: number.id, contactNumber: to })
      .onConflictDoNothing({ target: [messageThreads.phoneNumberId, messageThreads.contactNumber] });
    const [thread] = await db
      .select({ id: messageThreads.id })
      .from(messageThreads)
      .where(and(eq(messageThreads.organizationId, organizationId), eq(messageThreads.phoneNumberId, number.id), eq(messageThreads.contactNumber, to)));
    const id = crypto.randomUUID();
    await db.insert(messages).values({
      id,
      organizationId,
      phoneNumberId: number.id,
      threadId: thread?.id ?? null,
      providerMessageSid: sent.sid,
      direction: "outbound",
      fromNumber: number.phoneNumber,
      toNumber: to,
      body,
      status: sent.status === "delivered" ? "delivered" : "sent",
      sentBy: "system",
      intent: "appointment",
    });
    return { status: "sent", messageId: id, from: number.phoneNumber };
  },
};
