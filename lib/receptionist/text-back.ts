import "server-only";
import { holdText, messagingHold } from "@/lib/compliance/messaging-registration";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { messages, phoneNumbers, textBackSettings } from "@/db/schema";
import { spendCredits } from "@/lib/workspace/billing/ledger";
import { creditPrices } from "@/lib/workspace/billing/prices";
import { HttpError, notFound } from "@/lib/platform/http/errors";
import { isOptedOut } from "@/lib/phone/messages/opt-out";
import { TelephonyError } from "@/lib/platform/providers/telephony/interface";
import { getTelephonyProviderFor } from "@/lib/workspace/provider-selection/telephony";
import { recordAction } from "@/lib/phone/telephony/actions";
import { threadFor } from "@/lib/phone/telephony/sms-threads";
import { DEFAULT_TEXT_BACK_TEMPLATE, fillTemplate } from "@/lib/platform/text/receptionist";
import type { TextBackInput } from "./schema";

/**
 * The text-back after a missed or assistant-handled call: per number (on by default, with an
 * editable template), sent through the number's carrier, 1 credit like any text the assistant
 * sends, and never to a contact who opted out — the organization's STOP store (`sms_opt_out`) or the
 * number's thread with them (STOP stored on `message_thread`).
 */

export type TextBackSetting = { phoneNumberId: string; enabled: boolean; template: string; placeholders: string[] };

export async function getTextBack(db: DbOrTx, organizationId: string, phoneNumberId: string): Promise<TextBackSetting> {
  const [number] = await db
    .select({ id: phoneNumbers.id })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.id, phoneNumberId), eq(phoneNumbers.organizationId, organizationId)));
  if (!number) throw notFound("Phone number");
  const [row] = await db
    .select()
    .from(textBackSettings)
    .where(and(eq(textBackSettings.phoneNumberId, phoneNumberId), eq(textBackSettings.organizationId, organizationId)));
  return { phoneNumberId, enabled: row?.enabled ?? true, template: row?.template ?? DEFAULT_TEXT_BACK_TEMPLATE, placeholders: ["{business}", "{number}", "{name}"] };
}

export async function updateTextBack(db: Db, organizationId: string, phoneNumberId: string, input: TextBackInput): Promise<TextBackSetting> {
  const current = await getTextBack(db, organizationId, phoneNumberId);
  const next = { enabled: input.enabled ?? current.enabled, template: input.template ?? current.template };
  await db
    .insert(textBackSettings)
    .values({ phoneNumberId, organizationId, ...next })
    .onConflictDoUpdate({ target: textBackSettings.phoneNumberId, set: { ...next, updatedAt: new Date() } });
  return { ...current, ...next };
}

/** Whether the contact opted out of this organization's texts: the one check (lib/phone/messages/opt-out.ts). */
export async function hasOptedOut(db: DbOrTx, organizationId: string, phone: string): Promise<boolean> {
  return isOptedOut(db, organizationId, phone);
}

export type TextBackOutcome = "sent" | "opted_out" | "disabled" | "no_number" | "no_credits" | "failed" | "queued" | "not_needed";

/**
 * What the call left, which the text describes (it never promises what did not happen): a booking →
 * the booking; a task for the team (a message, a voicemail, a missed call) → the number's template;
 * nothing left to do → no text, unless the owner wrote their own template (their words, their choice).
 */
export type CallResult = { kind: "booked"; readBack: string } | { kind: "message"; message: string } | { kind: "task" } | { kind: "nothing" };

/** A message the engine took (a task was written): the text says what was passed on. */
export const MESSAGE_TEXT = (business: string, message: string) =>
  `Thanks for calling ${business}. We passed your message on to the team: "${message.length > 120 ? `${message.slice(0, 117)}...` : message}". They'll call you back at this number. Reply STOP to opt out.`;

export const BOOKED_TEXT = (business: string, readBack: string) => `Thanks for calling ${business}. You're booked: ${readBack}. Reply STOP to opt out.`;

export async function sendTextBack(
  db: Db,
  call: { id: string; organizationId: string; phoneNumberId: string | null; fromNumber: string },
  values: { business: string; name: string | null; result?: CallResult },
): Promise<{ outcome: TextBackOutcome; messageId?: string }> {
  // No number to text: none was given, or the caller was erased (lib/compliance/erasure.ts).
  if (!call.phoneNumberId || !call.fromNumber.startsWith("+")) return { outcome: "no_number" };
  const [number] = await db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.id, call.phoneNumberId), eq(phoneNumbers.organizationId, call.organizationId)));
  if (!number || !number.isActive) return { outcome: "no_number" };
  const setting = await getTextBack(db, call.organizationId, number.id);
  if (!setting.enabled) return { outcome: "disabled" };
  const result = values.result ?? { kind: "task" };
  // An opted-out caller is never texted, whatever the call needed: that is the reason the owner sees.
  if (await hasOptedOut(db, call.organizationId, call.fromNumber)) return { outcome: "opted_out" };
  if (result.kind === "nothing" && setting.template === DEFAULT_TEXT_BACK_TEMPLATE) return { outcome: "not_needed" };
  const provider = await getTelephonyProviderFor(db, call.organizationId, number.provider);
  if (!provider) return { outcome: "failed" };
  try {
    await spendCredits(db, call.organizationId, creditPrices.smsReply, { reason: "Text-back after a call", reference: `text-back:${call.id}`, metadata: { followUpOfCallId: call.id } });
  } catch (error) {
    if (error instanceof HttpError && error.status === 402) return { outcome: "no_credits" };
    throw error;
  }
  const body =
    result.kind === "booked"
      ? BOOKED_TEXT(values.business, result.readBack)
      : result.kind === "message" && setting.template === DEFAULT_TEXT_BACK_TEMPLATE
        ? MESSAGE_TEXT(values.business, result.message)
        : fillTemplate(setting.template, { business: values.business, number: number.phoneNumber, name: values.name });
  // A2P 10DLC not approved yet: the text waits, with the reason, and goes out on approval (lib/compliance/messaging-registration.ts).
  const hold = await messagingHold(db, call.organizationId, number);
  if (hold) {
    await holdText(db, { organizationId: call.organizationId, phoneNumberId: number.id, to: call.fromNumber, body, origin: "text_back", reason: hold });
    return { outcome: "queued" };
  }
  const thread = await threadFor(db, call.organizationId, number.id, call.fromNumber);
  let sid: string | null = null;
  let status: "sent" | "failed" = "sent";
  try {
    sid = (await provider.sendSms({ from: number.phoneNumber, to: call.fromNumber, body })).sid;
  } catch (error) {
    if (!(error instanceof TelephonyError)) throw error;
    console.error(`[text-back] the carrier refused the text-back for call ${call.id}: ${error.message}`);
    status = "failed";
  }
  const id = crypto.randomUUID();
  await db.insert(messages).values({
    id,
    organizationId: call.organizationId,
    phoneNumberId: number.id,
    threadId: thread.id,
    providerMessageSid: sid,
    direction: "outbound",
    fromNumber: number.phoneNumber,
    toNumber: call.fromNumber,
    body,
    status,
    sentBy: "system",
    intent: "text_back",
  });
  if (status === "failed") return { outcome: "failed", messageId: id };
  await recordAction(db, { organizationId: call.organizationId, callId: call.id, messageId: id, type: "texted_back", detail: { contact: call.fromNumber, textBack: true } });
  return { outcome: "sent", messageId: id };
}
