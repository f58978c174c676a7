import "server-only";
import crypto from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { messages, messageThreads, organizations, phoneNumbers, smsOptOuts } from "@/db/schema";
import { getTelephonyProviderFor } from "@/lib/provider-selection/telephony";
import { TelephonyError } from "@/lib/providers/telephony/interface";

/**
 * A caller who opts out on a call, in any words ("don't call me again", "stop texting me"): the
 * number is opted out of the organization's texts and outbound calls (sms_opt_out, which
 * lib/messages/opt-out.ts checks before every outbound text and call), the words are kept on the
 * call's `opted_out` action (the caller does that), and the caller gets one confirmation text, the
 * only text carriers allow after an opt-out. A second opt-out of the same number sends nothing.
 */
export async function optOutFromCall(
  db: Db,
  input: { organizationId: string; phone: string; phoneNumberId?: string | null },
): Promise<{ optedOut: boolean; confirmation: "sent" | "already_opted_out" | "no_sender" | "failed" }> {
  if (!/^\+[1-9]\d{6,14}$/.test(input.phone)) return { optedOut: false, confirmation: "no_sender" };
  const inserted = await db.insert(smsOptOuts).values({ id: crypto.randomUUID(), organizationId: input.organizationId, phone: input.phone }).onConflictDoNothing().returning({ id: smsOptOuts.id });
  const now = new Date();
  await db
    .update(messageThreads)
    .set({ optedOut: true, optedOutAt: now })
    .where(and(eq(messageThreads.organizationId, input.organizationId), eq(messageThreads.contactNumber, input.phone), eq(messageThreads.optedOut, false)));
  if (!inserted.length) return { optedOut: true, confirmation: "already_opted_out" };

  // From the number the caller called, else the organization's oldest active number.
  const where = [eq(phoneNumbers.organizationId, input.organizationId), eq(phoneNumbers.isActive, true)];
  if (input.phoneNumberId) where.push(eq(phoneNumbers.id, input.phoneNumberId));
  const [number] = await db
    .select({ id: phoneNumbers.id, phoneNumber: phoneNumbers.phoneNumber, provider: phoneNumbers.provider })
    .from(phoneNumbers)
    .where(and(...where))
    .orderBy(asc(phoneNumbers.createdAt))
    .limit(1);
  if (!number) return { optedOut: true, confirmation: "no_sender" };
  const carrier = await getTelephonyProviderFor(db, input.organizationId, number.provider);
  if (!carrier) return { optedOut: true, confirmation: "no_sender" };
  const [org] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, input.organizationId));
  const body = optOutConfirmation(org?.name ?? "");
  await db
    .insert(messageThreads)
    .values({ id: crypto.randomUUID(), organizationId: input.organizationId, phoneNumberId: number.id, contactNumber: input.phone, optedOut: true, optedOutAt: now })
    .onConflictDoNothing({ target: [messageThreads.phoneNumberId, messageThreads.contactNumber] });
  const [thread] = await db
    .select({ id: messageThreads.id })
    .from(messageThreads)
    .where(and(eq(messageThreads.organizationId, input.organizationId), eq(messageThreads.phoneNumberId, number.id), eq(messageThreads.contactNumber, input.phone)));
  const row = { id: crypto.randomUUID(), organizationId: input.organizationId, phoneNumberId: number.id, threadId: thread?.id ?? null, direction: "outbound" as const, fromNumber: number.phoneNumber, toNumber: input.phone, body, sentBy: "system" as const, intent: "opt_out" };
  try {
    const sent = await carrier.sendSms({ from: number.phoneNumber, to: input.phone, body });
    await db.insert(messages).values({ ...row, providerMessageSid: sent.sid, status: sent.status === "delivered" ? "delivered" : "sent" });
    return { optedOut: true, confirmation: "sent" };
  } catch (error) {
    if (!(error instanceof TelephonyError)) throw error;
    await db.insert(messages).values({ ...row, status: "failed" });
    return { optedOut: true, confirmation: "failed" };
  }
}

/** The one confirmation text (CTIA: a single message confirming the opt-out, no marketing). */
export function optOutConfirmation(businessName: string): string {
  const who = businessName.trim() || "This business";
  return `${who}: you're opted out and won't get texts or calls from us. Reply START to opt back in.`;
}
