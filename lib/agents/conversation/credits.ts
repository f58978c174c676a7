import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { creditLedger } from "@/db/schema";
import { changeCredits, spendCredits, type LedgerResult } from "@/lib/workspace/billing/ledger";
import { renewFreePeriodIfDue } from "@/lib/workspace/billing/free-renewal";
import { categoryOf, creditPrices, type CreditCategory } from "@/lib/workspace/billing/prices";
import { isUniqueViolation } from "@/lib/platform/database-errors";

/**
 * What one answered turn costs, and the refund of a turn that produced no reply — the one place for
 * every channel (phone Gather loop, ConversationRelay gateway, texts, A2A, the browser voice test).
 * A turn is charged with a reference that names it (`call-turn:{callId}:{step}`…): a retried turn
 * (a carrier retry after a crash) spends nothing twice, and its refund is given back once.
 */
export type TurnChannel = "call" | "sms" | "a2a" | "voice_test";

const PRICE: Record<TurnChannel, { units: number; category: CreditCategory; reason: string; refund: string }> = {
  call: { units: creditPrices.callTurn, category: categoryOf.callTurn, reason: "Phone call turn", refund: "Refund: the phone call turn failed" },
  sms: { units: creditPrices.smsReply, category: categoryOf.smsReply, reason: "Text answered by the assistant", refund: "Refund: the text reply failed" },
  a2a: { units: creditPrices.agentReply, category: categoryOf.agentReply, reason: "Question from an AI agent (A2A)", refund: "Refund: the agent's question could not be answered" },
  voice_test: { units: creditPrices.voiceTestTurn, category: categoryOf.voiceTestTurn, reason: "Voice test turn", refund: "Refund: the voice test turn failed" },
};

export type TurnCharge = {
  channel: TurnChannel;
  organizationId: string;
  /** Names the turn; the spend and its refund are idempotent by it. */
  reference: string;
  metadata?: Record<string, unknown>;
  actorUserId?: string | null;
  /** A Free organization whose period ended gets its monthly credits first. */
  renewFree?: boolean;
  /** Overrides the channel's usual reason line (e.g. a chat turn vs. a voice turn). */
  reason?: string;
};

/**
 * Spends the turn's credits (402 when they do not fit). A turn already charged (a step resumed after
 * the process that first answered it died) is not charged again: its first entry stands.
 */
export async function chargeTurn(db: DbOrTx, charge: TurnCharge): Promise<LedgerResult> {
  const price = PRICE[charge.channel];
  if (charge.renewFree !== false) await renewFreePeriodIfDue(db, charge.organizationId);
  try {
    return await spendCredits(db, charge.organizationId, price.units, {
      reason: charge.reason ?? price.reason,
      category: price.category,
      reference: charge.reference,
      actorUserId: charge.actorUserId ?? null,
      metadata: charge.metadata ?? {},
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const [entry] = await db
      .select({ id: creditLedger.id, balanceAfter: creditLedger.balanceAfter })
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, charge.organizationId), eq(creditLedger.kind, "usage"), eq(creditLedger.reference, charge.reference)));
    if (!entry) throw error;
    return { applied: false, balance: entry.balanceAfter, entryId: entry.id };
  }
}

/**
 * Gives back what the turn named by `reference` spent (nothing when it spent nothing, e.g. an
 * Enterprise usage row, or when it was already given back). Answers the credits given back.
 */
export async function refundTurn(db: DbOrTx, charge: Pick<TurnCharge, "channel" | "organizationId" | "reference" | "actorUserId">): Promise<number> {
  const [entry] = await db
    .select({ amount: creditLedger.amount })
    .from(creditLedger)
    .where(and(eq(creditLedger.organizationId, charge.organizationId), eq(creditLedger.kind, "usage"), eq(creditLedger.reference, charge.reference)));
  const spent = entry ? -entry.amount : 0;
  if (spent <= 0) return 0;
  const back = await changeCredits(db, charge.organizationId, "refund", spent, {
    reason: PRICE[charge.channel].refund,
    reference: charge.reference,
    actorUserId: charge.actorUserId ?? null,
  });
  return back.applied ? spent : 0;
}

/** refundTurn that never throws (a failed refund is logged; the caller's answer goes on). */
export async function refundTurnQuietly(db: DbOrTx, charge: Parameters<typeof refundTurn>[1]): Promise<number> {
  try {
    return await refundTurn(db, charge);
  } catch (error) {
    console.error(`[conversation] refund of ${charge.reference} failed:`, error instanceof Error ? error.message : error);
    return 0;
  }
}
