import "server-only";
import { assertRegistrationAllowsTexts, holdText, messagingHold } from "@/lib/compliance/messaging-registration";
import crypto from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { messages, messageThreads, phoneNumbers } from "@/db/schema";
import { badRequest, conflict, HttpError } from "@/lib/platform/http/errors";
import { TelephonyError, type TelephonyProvider } from "@/lib/platform/providers/telephony/interface";
import { getTelephonyProviderFor } from "@/lib/workspace/provider-selection/telephony";
import { assertMayText } from "./opt-out";
import type { SendTextInput } from "./schema";

/**
 * Sends a text from one of the organization's numbers through the carrier that holds the number
 * (Twilio, or the simulated carrier), and records it as an outbound message of Call History. A
 * refused send is recorded too, with status failed, and answered with the carrier's reason.
 *
 * The number: `fromPhoneNumberId` (one of the organization's active numbers) or else its oldest
 * active number. Answers the message's id (its Call History row: getMessageDetail in
 * lib/receptionist/call-history/service.ts).
 */
export async function sendText(db: Db, organizationId: string, input: SendTextInput, deps: { provider?: TelephonyProvider } = {}): Promise<SentText> {
  return (await deliverText(db, organizationId, input, deps)) as SentText;
}

/** A text recorded as sent: the id of its outbound message. */
export type SentText = { id: string };

/**
 * The one text that confirms an opt-out (lib/phone/messages/opt-out.ts `optOut`), the only text an
 * opted-out number gets. While the messaging registration (A2P 10DLC) is not approved it waits in
 * the queue with the reason instead of being lost.
 */
export async function sendOptOutConfirmation(db: Db, organizationId: string, input: SendTextInput, deps: { provider?: TelephonyProvider } = {}): Promise<SentText | { held: true; reason: string }> {
  return deliverText(db, organizationId, input, { ...deps, optOutConfirmation: true });
}

async function deliverText(
  db: Db,
  organizationId: string,
  input: SendTextInput,
  deps: { provider?: TelephonyProvider; optOutConfirmation?: boolean },
): Promise<SentText | { held: true; reason: string }> {
  const where = [eq(phoneNumbers.organizationId, organizationId), eq(phoneNumbers.isActive, true)];
  if (input.fromPhoneNumberId) where.push(eq(phoneNumbers.id, input.fromPhoneNumberId));
  const [number] = await db
    .select({ id: phoneNumbers.id, phoneNumber: phoneNumbers.phoneNumber, provider: phoneNumbers.provider })
    .from(phoneNumbers)
    .where(and(...where))
    .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id))
    .limit(1);
  if (!number) {
    throw input.fromPhoneNumberId
      ? badRequest("fromPhoneNumberId is not an active phone number of this organization", {
          fromPhoneNumberId: "Choose one of the organization's active phone numbers",
        })
      : badRequest("The organization has no active phone number to send from. Add one in Phone Numbers (/phone-numbers).");
  }
  // Never to a contact who replied STOP (the one opt-out check): 409, nothing sent or recorded.
  if (!deps.optOutConfirmation) await assertMayText(db, organizationId, input.to);
  const provider = deps.provider ?? (await getTelephonyProviderFor(db, organizationId, number.provider));
  if (!provider) {
    throw conflict(`${number.phoneNumber} is a Twilio number and the Twilio credentials are gone. Add them again in Settings → API Keys.`);
  }

  const id = crypto.randomUUID();
  // A2P 10DLC (lib/compliance/messaging-registration.ts): a text someone typed is refused with the
  // reason (409); the opt-out confirmation, which nobody would retype, waits and goes out on approval.
  if (deps.optOutConfirmation) {
    const hold = await messagingHold(db, organizationId, number);
    if (hold) {
      await holdText(db, { organizationId, phoneNumberId: number.id, to: input.to, body: input.body, origin: "opt_out_confirmation", reason: hold, sentBy: "system", intent: "opt_out" });
      return { held: true, reason: hold };
    }
  } else {
    await assertRegistrationAllowsTexts(db, organizationId, number);
  }
  // The opt-out confirmation is the system's text in the contact's thread (Call History shows it
  // there, tagged opt_out, under the opt-out it confirms).
  const confirmation = deps.optOutConfirmation ? { sentBy: "system" as const, intent: "opt_out", threadId: await optedOutThread(db, organizationId, number.id, input.to) } : {};
  const row = { id, organizationId, phoneNumberId: number.id, direction: "outbound" as const, fromNumber: number.phoneNumber, toNumber: input.to, body: input.body, ...confirmation };
  try {
    const sent = await provider.sendSms({ from: number.phoneNumber, to: input.to, body: input.body });
    await db.insert(messages).values({ ...row, providerMessageSid: sent.sid, status: "sent" });
  } catch (error) {
    if (!(error instanceof TelephonyError)) throw error;
    await db.insert(messages).values({ ...row, status: "failed" });
    throw error.kind === "invalid" ? badRequest(error.message) : new HttpError(502, error.message);
  }
  return { id };
}

/** The contact's thread with this number (made if new), opted out: the confirmation is its last text. */
async function optedOutThread(db: Db, organizationId: string, phoneNumberId: string, contactNumber: string): Promise<string | null> {
  await db
    .insert(messageThreads)
    .values({ id: crypto.randomUUID(), organizationId, phoneNumberId, contactNumber, optedOut: true, optedOutAt: new Date(), lastMessageAt: new Date() })
    .onConflictDoUpdate({ target: [messageThreads.phoneNumberId, messageThreads.contactNumber], set: { lastMessageAt: new Date() } });
  const [thread] = await db
    .select({ id: messageThreads.id })
    .from(messageThreads)
    .where(and(eq(messageThreads.organizationId, organizationId), eq(messageThreads.phoneNumberId, phoneNumberId), eq(messageThreads.contactNumber, contactNumber)));
  return thread?.id ?? null;
}
