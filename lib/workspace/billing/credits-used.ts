import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { creditLedger, creditTotals, creditUsageHours } from "@/db/schema";

/**
 * The credits-used figure (docs/billing.md), read from the ledger's own rollups (credit_usage_hour,
 * credit_total): billing's, so the plan page, the dashboard, Analytics and the admin screens read it
 * here (lib/reports/figures/ holds the other figures).
 */

const HOUR_MS = 3_600_000;

/** Credits used in a window: what was spent, less what was given back for short, spam or failed calls. */
export function creditsUsed(spent: number, creditedBack: number): number {
  return Math.max(0, spent - creditedBack);
}

/**
 * Credits used in [from, to) (null bounds are open): usage units spent, less what was given back for
 * failed turns, short, spam or missed calls (every ledger "refund" is such a credit-back). `organizationId`
 * null is the whole platform (admins only; the caller checks).
 */
export async function getCreditsUsed(db: Db, organizationId: string | null, from: Date | null, to: Date | null): Promise<{ spent: number; creditedBack: number; used: number }> {
  const org = (column: AnyPgColumn) => (organizationId ? sql`${column} = ${organizationId}` : sql`true`);
  const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  // Spent: whole UTC hours from credit_usage_hour (kept by the ledger's trigger), the partial hour at
  // each end from the ledger itself; all time from credit_total. Neither grows with the history.
  const ledgerUsage = (a: Date | null, b: Date | null) =>
    sql`(select coalesce(sum(${creditLedger.units}), 0) from ${creditLedger}
          where ${org(creditLedger.organizationId)} and ${creditLedger.kind} = 'usage'
            ${a ? sql`and ${creditLedger.createdAt} >= ${at(a)}` : sql``} ${b ? sql`and ${creditLedger.createdAt} < ${at(b)}` : sql``})`;
  let spentSql: SQL;
  if (!from && !to) {
    spentSql = sql`(select coalesce(sum(${creditTotals.units}), 0) from ${creditTotals} where ${org(creditTotals.organizationId)} and ${creditTotals.kind} = 'usage')`;
  } else {
    const wholeFrom = from ? new Date(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS) : null;
    const wholeTo = to ? new Date(Math.floor(to.getTime() / HOUR_MS) * HOUR_MS) : null;
    if (wholeFrom && wholeTo && wholeFrom >= wholeTo) {
      spentSql = ledgerUsage(from, to);
    } else {
      const hours = sql`(select coalesce(sum(${creditUsageHours.units}), 0) from ${creditUsageHours}
          where ${org(creditUsageHours.organizationId)}
            ${wholeFrom ? sql`and ${creditUsageHours.hour} >= ${at(wholeFrom)}` : sql``} ${wholeTo ? sql`and ${creditUsageHours.hour} < ${at(wholeTo)}` : sql``})`;
      spentSql = sql`${hours} + ${from && wholeFrom ? ledgerUsage(from, wholeFrom) : sql`0`} + ${to && wholeTo ? ledgerUsage(wholeTo, to) : sql`0`}`;
    }
  }
  // Given back: the refunds alone (a partial index keeps them apart from the usage rows).
  const backSql = sql`(select coalesce(sum(${creditLedger.amount}), 0) from ${creditLedger}
      where ${org(creditLedger.organizationId)} and ${creditLedger.kind} = 'refund'
        ${from ? sql`and ${creditLedger.createdAt} >= ${at(from)}` : sql``} ${to ? sql`and ${creditLedger.createdAt} < ${at(to)}` : sql``})`;
  const result = await db.execute(sql`select (${spentSql})::bigint::text as spent, (${backSql})::bigint::text as back`);
  const row = (result as unknown as { rows: { spent: string; back: string }[] }).rows[0];
  const spent = Number(row?.spent ?? 0);
  const creditedBack = Number(row?.back ?? 0);
  return { spent, creditedBack, used: creditsUsed(spent, creditedBack) };
}
