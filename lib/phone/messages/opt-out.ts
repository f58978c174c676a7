import "server-only";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { assistantActions, messageThreads, smsOptOuts } from "@/db/schema";
import { conflict } from "@/lib/platform/http/errors";

/**
 * The one opt-out check before any outbound text or call (docs/security.md "Opt-out"): MCP send_text, the
 * owner's reply, the missed-call text-back, appointment confirmations and reminders all ask here.
 * A contact is opted out of an organization's texts when a STOP is recorded for the number
 * (sms_opt_out) or on any of its text threads with the organization's numbers; START clears both.
 */
export async function optOutOf(db: DbOrTx, organizationId: string, phone: string): Promise<{ since: Date | null } | null> {
  const [[stored], [thread]] = await Promise.all([
    db
      .select({ since: smsOptOuts.optedOutAt })
      .from(smsOptOuts)
      .where(and(eq(smsOptOuts.organizationId, organizationId), eq(smsOptOuts.phone, phone)))
      .limit(1),
    db
      .select({ since: messageThreads.optedOutAt })
      .from(messageThreads)
      .where(and(eq(messageThreads.organizationId, organizationId), eq(messageThreads.contactNumber, phone), eq(messageThreads.optedOut, true)))
      .limit(1),
  ]);
  if (!stored && !thread) return null;
  return { since: stored?.since ?? thread?.since ?? null };
}

export async function isOptedOut(db: DbOrTx, organizationId: string, phone: string): Promise<boolean> {
  return (await optOutOf(db, organizationId, phone)) !== null;
}

/** Throws 409 naming the STOP when the contact opted out; every send that answers a person calls it. */
export async function assertMayText(db: DbOrTx, organizationId: string, phone: string): Promise<void> {
  const optOut = await optOutOf(db, organizationId, phone);
  if (!optOut) return;
  const when = optOut.since ? ` on ${optOut.since.toISOString().slice(0, 10)}` : "";
  throw conflict(`${phone} replied STOP${when}: carriers forbid texting them again until they text START.`, {
    to: `${phone} has opted out of texts`,
  });
}

/** The channels an opt-out can arrive on (a text, a call, the streaming call, another AI agent, the browser test). */
export type OptOutChannel = "sms" | "call" | "relay" | "a2a" | "voice_test";

export type OptOutInput = {
  organizationId: string;
  /** E.164. */
  phone: string;
  /** The words that did it ("stop texting me", "STOP"), kept with the record. */
  words: string;
  channel: OptOutChannel;
  callId?: string | null;
  messageId?: string | null;
  /**
   * Sends the one confirmation text (a call or an agent's request; a text's own reply is its
   * confirmation, and Twilio's Advanced Opt-Out confirms carrier keywords itself).
   */
  confirmation?: { body: string; send: (to: string, body: string) => Promise<unknown> } | null;
};

/**
 * The one opt-out function (issue 32: "opt-out in any words, on any channel"): the number is opted
 * out of the organization's texts and outbound calls (sms_opt_out, and every text thread with it),
 * an `opted_out` action records the words and the channel, and — the first time only — one
 * confirmation text goes out. Answers whether this opted the number out now (false: it already was).
 */
export async function optOut(db: DbOrTx, input: OptOutInput): Promise<{ newly: boolean; confirmed: boolean }> {
  const already = await isOptedOut(db, input.organizationId, input.phone);
  await db.insert(smsOptOuts).values({ id: crypto.randomUUID(), organizationId: input.organizationId, phone: input.phone }).onConflictDoNothing();
  await db
    .update(messageThreads)
    .set({ optedOut: true, optedOutAt: new Date() })
    .where(and(eq(messageThreads.organizationId, input.organizationId), eq(messageThreads.contactNumber, input.phone), eq(messageThreads.optedOut, false)));
  await db.insert(assistantActions).values({
    id: crypto.randomUUID(),
    organizationId: input.organizationId,
    callId: input.callId ?? null,
    messageId: input.messageId ?? null,
    type: "opted_out",
    detail: { contact: input.phone, words: input.words.slice(0, 500), channel: input.channel },
  });
  let confirmed = false;
  if (!already && input.confirmation) {
    try {
      await input.confirmation.send(input.phone, input.confirmation.body);
      confirmed = true;
    } catch (error) {
      // The opt-out stands whatever the carrier says; the confirmation is best effort.
      console.error(`[opt-out] the confirmation text to ${input.phone} failed:`, error instanceof Error ? error.message : error);
    }
  }
  return { newly: !already, confirmed };
}

/**
 * The same check before any outbound call (Test forwarding, caller-ID verification, any dial-out): a
 * number that opted out ("don't call me again", STOP) is not called. 409 naming `to`.
 */
export async function assertMayCall(db: DbOrTx, organizationId: string, phone: string): Promise<void> {
  const optOut = await optOutOf(db, organizationId, phone);
  if (!optOut) return;
  const when = optOut.since ? ` on ${optOut.since.toISOString().slice(0, 10)}` : "";
  throw conflict(`${phone} opted out${when}: Switchboard does not call or text them until they text START.`, { to: `${phone} has opted out of calls and texts` });
}
