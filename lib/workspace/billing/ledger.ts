import "server-only";
import crypto from "node:crypto";
import { and, eq, gte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { creditLedger, organizations } from "@/db/schema";
import { notFound, paymentRequired } from "@/lib/platform/http/errors";
import { isUniqueViolation } from "@/lib/platform/database-errors";
import { preparedSql } from "@/lib/platform/database-statements";
import type { CreditCategory } from "./prices";

type Kind = (typeof creditLedger.$inferInsert)["kind"];

export type LedgerEntryInput = {
  reason: string;
  /** Usage only: what spent the credits (lib/workspace/billing/prices.ts `categoryOf`). */
  category?: CreditCategory | null;
  actorUserId?: string | null;
  /** Makes the change idempotent: a second change with the same kind and reference is ignored. */
  reference?: string | null;
  metadata?: Record<string, unknown>;
};

export type LedgerResult = { applied: boolean; balance: number; entryId: string | null };

async function alreadyApplied(db: DbOrTx, organizationId: string, kind: Kind, reference: string | null | undefined) {
  if (!reference) return null;
  const [row] = await db
    .select({ id: creditLedger.id, balanceAfter: creditLedger.balanceAfter })
    .from(creditLedger)
    .where(and(eq(creditLedger.organizationId, organizationId), eq(creditLedger.kind, kind), eq(creditLedger.reference, reference)));
  return row ?? null;
}

async function currentBalance(db: DbOrTx, organizationId: string): Promise<number> {
  const [org] = await db.select({ balance: organizations.creditBalance }).from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw notFound("Organization");
  return org.balance;
}

/**
 * Adds credits (grant, purchase, refund, positive adjustment) or removes them (negative
 * adjustment, never below zero). Balance update and ledger row commit together.
 */
export async function changeCredits(
  db: DbOrTx,
  organizationId: string,
  kind: Exclude<Kind, "usage">,
  amount: number,
  entry: LedgerEntryInput,
): Promise<LedgerResult> {
  if (!Number.isInteger(amount)) throw new Error("Credit amounts are whole numbers");
  const existing = await alreadyApplied(db, organizationId, kind, entry.reference);
  if (existing) return { applied: false, balance: await currentBalance(db, organizationId), entryId: existing.id };
  try {
    return await db.transaction(async (tx) => {
      const [org] = await tx
        .update(organizations)
        .set({ creditBalance: sql`${organizations.creditBalance} + ${amount}` })
        .where(and(eq(organizations.id, organizationId), gte(sql`${organizations.creditBalance} + ${amount}`, 0)))
        .returning({ balance: organizations.creditBalance });
      if (!org) {
        await currentBalance(tx, organizationId); // 404 when the organization is gone
        throw paymentRequired(`The balance cannot go below zero (change of ${amount} credits refused).`);
      }
      const id = crypto.randomUUID();
      await tx.insert(creditLedger).values({
        id,
        organizationId,
        kind,
        amount,
        balanceAfter: org.balance,
        reason: entry.reason,
        actorUserId: entry.actorUserId ?? null,
        reference: entry.reference ?? null,
        metadata: entry.metadata ?? {},
      });
      return { applied: true, balance: org.balance, entryId: id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      return { applied: false, balance: await currentBalance(db, organizationId), entryId: null };
    }
    throw error;
  }
}

export const NO_CREDITS_MESSAGE =
  "You are out of credits. Buy a credit pack or upgrade your plan in Billing & Credits (/billing) to continue.";

/** The spend, planned once per embedded handle (every metered turn runs it: lib/platform/database-statements.ts). */
function spendStatement(db: DbOrTx) {
  // Unlimited only once Enterprise is paid for: a trialing Enterprise spends its welcome credits.
  return preparedSql<{ balance_after: number }>(db, "switchboard_spend_credits", (value) => sql`
    with org as (
      select ${organizations.id} as id,
             (${organizations.subscriptionTier} = 'enterprise' and ${organizations.subscriptionStatus} = 'active') as unlimited
        from ${organizations}
       where ${organizations.id} = ${value("organizationId")}
    ),
    spent as (
      update ${organizations}
         set credit_balance = ${organizations.creditBalance} - ${value("units")}
        from org
       where ${organizations.id} = org.id and not org.unlimited and ${organizations.creditBalance} >= ${value("units")}
      returning ${organizations.creditBalance} as balance, false as unlimited
    ),
    free as (
      select ${organizations.creditBalance} as balance, true as unlimited
        from ${organizations} join org on org.id = ${organizations.id}
       where org.unlimited
    )
    insert into ${creditLedger} (id, organization_id, kind, amount, units, category, balance_after, reason, actor_user_id, reference, metadata)
    select ${value("id")}, ${value("organizationId")}, 'usage', case when s.unlimited then 0 else ${value("amount")} end, ${value("units")},
           ${value("category")}, s.balance, ${value("reason")}, ${value("actorUserId")}, ${value("reference")}, ${value("metadata")}::jsonb
      from (select * from spent union all select * from free) s
    returning balance_after
  `);
}

/**
 * Spends `units` credits for metered usage. One statement does it all — the conditional balance
 * update and its ledger row commit together — so the organization's row is locked for that statement
 * only: the calls of one busy organization spend side by side instead of queueing behind each
 * other's transactions. The balance never goes below zero, and a spend that does not fit answers 402.
 * Active Enterprise is unlimited: its usage is recorded (units) without lowering the balance.
 */
export async function spendCredits(db: DbOrTx, organizationId: string, units: number, entry: LedgerEntryInput): Promise<LedgerResult> {
  if (!Number.isInteger(units) || units <= 0) throw new Error("Usage is a positive whole number of credits");
  const id = crypto.randomUUID();
  const [row] = await spendStatement(db).execute({
    id,
    organizationId,
    units,
    amount: -units,
    category: entry.category ?? null,
    reason: entry.reason,
    actorUserId: entry.actorUserId ?? null,
    reference: entry.reference ?? null,
    metadata: JSON.stringify(entry.metadata ?? {}),
  });
  if (!row) {
    await currentBalance(db, organizationId); // 404 when the organization is gone
    throw paymentRequired(NO_CREDITS_MESSAGE);
  }
  return { applied: true, balance: Number(row.balance_after), entryId: id };
}

export async function getCreditBalance(db: DbOrTx, organizationId: string): Promise<number> {
  return currentBalance(db, organizationId);
}
