import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { messageThreads, smsOptOuts } from "@/db/schema";
import { conflict } from "@/lib/http/errors";

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
