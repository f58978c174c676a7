import "server-only";
import { and, eq, gte, like, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { callPolicies, calls, creditLedger } from "@/db/schema";
import { changeCredits } from "@/lib/workspace/billing/ledger";
import { CAP } from "@/lib/platform/text/routing";
import type { CallPolicyInput } from "./schema";

/**
 * The organization's call policy (spam threshold and action, report sharing, monthly cap) and the
 * money side of a call: what it cost, and the automatic credit-back for short, spam and failed calls.
 */

export type CallPolicy = typeof callPolicies.$inferSelect;

export const CAP_ALERT_PERCENT = 75;
/** Calls shorter than this are credited back. */
export const SHORT_CALL_SECONDS = 15;

export async function getCallPolicy(db: DbOrTx, organizationId: string): Promise<CallPolicy> {
  const [row] = await db.select().from(callPolicies).where(eq(callPolicies.organizationId, organizationId));
  if (row) return row;
  return { organizationId, spamThreshold: 70, spamAction: "voicemail", shareSpamReports: false, monthlyCapCredits: null, atCap: "voicemail_only", capAlertMonth: null, updatedAt: new Date(0) };
}

export async function updateCallPolicy(db: DbOrTx, organizationId: string, input: CallPolicyInput, now = new Date()) {
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  await db
    .insert(callPolicies)
    .values({ organizationId, ...patch, updatedAt: now })
    .onConflictDoUpdate({ target: callPolicies.organizationId, set: { ...patch, updatedAt: now } });
  return callPolicyView(db, organizationId, now);
}

/** The month of `now` (UTC) as "2026-11" and its first instant. */
export function monthOf(now: Date): { key: string; start: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { key: start.toISOString().slice(0, 7), start };
}

/** Credits used this month: usage units minus what calls and texts got back. */
export async function monthUsage(db: DbOrTx, organizationId: string, now = new Date()): Promise<number> {
  const { start } = monthOf(now);
  const [row] = await db
    .select({
      used: sql<number>`coalesce(sum(case when ${creditLedger.kind} = 'usage' then ${creditLedger.units} else 0 end), 0)::int`,
      back: sql<number>`coalesce(sum(case when ${creditLedger.kind} = 'refund' then ${creditLedger.amount} else 0 end), 0)::int`,
    })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.organizationId, organizationId),
        gte(creditLedger.createdAt, start),
        or(eq(creditLedger.kind, "usage"), and(eq(creditLedger.kind, "refund"), or(like(creditLedger.reference, "call-%"), like(creditLedger.reference, "sms-%")))),
      ),
    );
  return Math.max(0, Number(row?.used ?? 0) - Number(row?.back ?? 0));
}

export type CapState = { cap: number; used: number; percent: number; reached: boolean; alert: boolean; atCap: CallPolicy["atCap"]; message: string | null };

export async function capState(db: DbOrTx, organizationId: string, now = new Date(), policy?: CallPolicy): Promise<CapState | null> {
  const p = policy ?? (await getCallPolicy(db, organizationId));
  if (!p.monthlyCapCredits) return null;
  const used = await monthUsage(db, organizationId, now);
  const percent = Math.floor((used * 100) / p.monthlyCapCredits);
  const alert = percent >= CAP_ALERT_PERCENT;
  return { cap: p.monthlyCapCredits, used, percent, reached: used >= p.monthlyCapCredits, alert, atCap: p.atCap, message: alert ? CAP.alert(percent, used, p.monthlyCapCredits) : null };
}

/**
 * Checked at every assistant turn of a call under way (the Gather loop and the streaming gateway):
 * the cap state when the month's cap is reached and set to `voicemail_only` — the assistant then
 * stops spending and takes a message instead — else null (no cap, under it, or `keep_answering`).
 */
export async function capStopsAssistant(db: DbOrTx, organizationId: string, now = new Date(), policy?: CallPolicy): Promise<CapState | null> {
  const p = policy ?? (await getCallPolicy(db, organizationId));
  if (!p.monthlyCapCredits || p.atCap !== "voicemail_only") return null;
  const cap = await capState(db, organizationId, now, p);
  return cap?.reached ? cap : null;
}

export async function callPolicyView(db: DbOrTx, organizationId: string, now = new Date()) {
  const p = await getCallPolicy(db, organizationId);
  return {
    spamThreshold: p.spamThreshold,
    spamAction: p.spamAction,
    shareSpamReports: p.shareSpamReports,
    monthlyCapCredits: p.monthlyCapCredits,
    atCap: p.atCap,
    usage: await capState(db, organizationId, now, p),
  };
}

/**
 * Raises the Credit Usage Alert once a month when usage reaches 75% of the cap (recorded on the
 * policy; the settings screen and GET /api/call-policy show it). Returns the state when it was raised now.
 */
export async function raiseCapAlertIfDue(db: DbOrTx, organizationId: string, now = new Date()): Promise<CapState | null> {
  const state = await capState(db, organizationId, now);
  if (!state?.alert) return null;
  const { key } = monthOf(now);
  const [raised] = await db
    .update(callPolicies)
    .set({ capAlertMonth: key })
    .where(and(eq(callPolicies.organizationId, organizationId), sql`${callPolicies.capAlertMonth} is distinct from ${key}`))
    .returning({ organizationId: callPolicies.organizationId });
  return raised ? state : null;
}

/**
 * What the call spent (usage rows naming it) and what it got back (refunds naming it: its
 * credit-backs, and failed turns' refunds, which carry the turn's reference). Two index lookups
 * (credit_ledger_org_call_idx, then credit_ledger_org_kind_reference_idx), never a scan of the
 * organization's ledger.
 */
export async function callLedgerTotals(db: DbOrTx, organizationId: string, callId: string): Promise<{ spent: number; back: number }> {
  const l = creditLedger;
  const naming = sql`${l.organizationId} = ${organizationId} and (${l.metadata}->>'callId') = ${callId}`;
  const result = await db.execute(sql`
    with named as (
      select ${l.id} as id, ${l.kind} as kind, ${l.units} as units, ${l.amount} as amount, ${l.reference} as reference
        from ${l} where ${naming} and ${l.kind} in ('usage', 'refund')
    ), turn_refunds as (
      select ${l.id} as id, ${l.kind} as kind, ${l.units} as units, ${l.amount} as amount, ${l.reference} as reference
        from ${l}
       where ${l.organizationId} = ${organizationId} and ${l.kind} = 'refund'
         and ${l.reference} in (select reference from named where kind = 'usage' and reference is not null)
    ), rows as (select * from named union select * from turn_refunds)
    select coalesce(sum(case when kind = 'usage' then units else 0 end), 0)::int as spent,
           coalesce(sum(case when kind = 'refund' then amount else 0 end), 0)::int as back
      from rows`);
  const [row] = (result as unknown as { rows: { spent: number; back: number }[] }).rows;
  return { spent: Number(row?.spent ?? 0), back: Number(row?.back ?? 0) };
}

/** Why a call is credited back, or null when it is billed. */
export function creditBackReason(call: Pick<typeof calls.$inferSelect, "isSpam" | "failureClass" | "durationSeconds" | "endedAt" | "status">): string | null {
  if (call.isSpam) return "spam";
  if (call.failureClass) return "failed on our side";
  // A short voicemail is still a message taken and transcribed: billed, unlike a hang-up.
  if (call.endedAt && call.durationSeconds < SHORT_CALL_SECONDS && call.status !== "voicemail") return `shorter than ${SHORT_CALL_SECONDS} s`;
  return null;
}

/**
 * Settles the call's credits: its cost (what it spent) and, for a spam call, one shorter than 15 s
 * or one that failed on our side, gives back what it has not got back yet through the ledger. Safe
 * to run again (the voicemail's transcription is charged later; a second run refunds only the rest).
 */
export async function settleCallCredits(db: DbOrTx, organizationId: string, callId: string, now = new Date()): Promise<{ costCredits: number; creditedBack: number }> {
  const [call] = await db.select().from(calls).where(and(eq(calls.id, callId), eq(calls.organizationId, organizationId)));
  if (!call) return { costCredits: 0, creditedBack: 0 };
  const totals = await callLedgerTotals(db, organizationId, callId);
  const { spent } = totals;
  let { back } = totals;
  const reason = creditBackReason(call);
  const owed = spent - back;
  if (reason && owed > 0) {
    const result = await changeCredits(db, organizationId, "refund", owed, {
      reason: `Credit back: call ${reason}`,
      reference: `call-credit-back:${callId}:${spent}`,
      metadata: { callId, why: reason },
    });
    if (result.applied) back += owed;
  }
  await db.update(calls).set({ costCredits: spent, creditedBack: back }).where(and(eq(calls.id, callId), eq(calls.organizationId, organizationId)));
  await raiseCapAlertIfDue(db, organizationId, now);
  return { costCredits: spent, creditedBack: back };
}
