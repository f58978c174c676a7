import "server-only";
import crypto from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { messages, phoneNumbers, smsOptOuts } from "@/db/schema";

/**
 * The texts the appointment book sends (confirmations, reminders, replies to C / R). The phone loop
 * owns SMS: at merge it supplies `sendSms` (through the organization's carrier) and `isOptedOut`
 * (its STOP/START store); the appointment book calls only this interface.
 */
export type SmsResult =
  | { status: "sent"; messageId: string; from: string }
  | { status: "skipped"; reason: "opted_out" | "no_sender" };

export interface AppointmentMessaging {
  isOptedOut(db: DbOrTx, organizationId: string, phone: string): Promise<boolean>;
  /** Sends one text from the organization's number; never to an opted-out number. */
  sendSms(db: DbOrTx, organizationId: string, message: { to: string; body: string }): Promise<SmsResult>;
}

export async function isOptedOut(db: DbOrTx, organizationId: string, phone: string): Promise<boolean> {
  const [row] = await db
    .select({ id: smsOptOuts.id })
    .from(smsOptOuts)
    .where(and(eq(smsOptOuts.organizationId, organizationId), eq(smsOptOuts.phone, phone)))
    .limit(1);
  return Boolean(row);
}

/** Records a STOP (the phone loop's SMS webhook calls it; tests too). */
export async function recordOptOut(db: DbOrTx, organizationId: string, phone: string): Promise<void> {
  await db.insert(smsOptOuts).values({ id: crypto.randomUUID(), organizationId, phone }).onConflictDoNothing();
}

/** Records a START. */
export async function clearOptOut(db: DbOrTx, organizationId: string, phone: string): Promise<void> {
  await db.delete(smsOptOuts).where(and(eq(smsOptOuts.organizationId, organizationId), eq(smsOptOuts.phone, phone)));
}

/**
 * Until the phone loop merges: the text goes out through the simulated carrier, i.e. it is written
 * to the organization's message log (`message`, outbound) from its first active number, where Call
 * History shows it. No number → nothing is sent.
 */
export const storedMessaging: AppointmentMessaging = {
  isOptedOut,
  async sendSms(db, organizationId, { to, body }) {
    if (await isOptedOut(db, organizationId, to)) return { status: "skipped", reason: "opted_out" };
    const [number] = await db
      .select({ id: phoneNumbers.id, phoneNumber: phoneNumbers.phoneNumber })
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.organizationId, organizationId), eq(phoneNumbers.isActive, true)))
      .orderBy(asc(phoneNumbers.createdAt))
      .limit(1);
    if (!number) return { status: "skipped", reason: "no_sender" };
    const id = crypto.randomUUID();
    await db.insert(messages).values({
      id,
      organizationId,
      phoneNumberId: number.id,
      direction: "outbound",
      fromNumber: number.phoneNumber,
      toNumber: to,
      body,
      status: "sent",
      intent: "appointment",
    });
    return { status: "sent", messageId: id, from: number.phoneNumber };
  },
};
