import "server-only";
import crypto from "node:crypto";
import type { DbOrTx } from "@/db/client";
import { assistantActions } from "@/db/schema";

/**
 * What the assistant did, one row each, so analytics can count them (docs/api.md#assistant-actions).
 */
export const actionTypes = [
  "took_message",
  "transferred",
  "transfer_unanswered",
  "voicemail_recorded",
  "callback_requested",
  "booking_requested",
  "appointment_booked",
  "appointment_moved",
  "appointment_cancelled",
  "texted_back",
  "reply_held",
  "owner_replied",
  "opted_out",
  "opted_in",
  "spam_declined",
  "cap_reached",
] as const;
export type ActionType = (typeof actionTypes)[number];

export async function recordAction(
  db: DbOrTx,
  input: { organizationId: string; callId?: string | null; messageId?: string | null; type: ActionType; detail?: Record<string, unknown> },
): Promise<void> {
  await db.insert(assistantActions).values({
    id: crypto.randomUUID(),
    organizationId: input.organizationId,
    callId: input.callId ?? null,
    messageId: input.messageId ?? null,
    type: input.type,
    detail: input.detail ?? {},
  });
}
