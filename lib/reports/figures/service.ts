import "server-only";
import { type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { creditLedger, creditTotals, creditUsageHours } from "@/db/schema";

const HOUR_MS = 3_600_000;
import { latestHealth, platformUptime, UPTIME_WINDOW_DAYS, type Uptime } from "@/lib/reports/analytics/health";
import { rollupTotals, rollupWindow } from "@/lib/reports/analytics/rollup";
import { creditsUsed, healthFigure, sentimentFigure, type HealthFigure, type SentimentFigure } from "./index";

/**
 * The figures of lib/reports/figures read from the database, for the screens that show them without a
 * report of their own: the dashboard, the footer, the admin screens and CRM Voice. Analytics reads
 * the same rows through its own report and hands them to the same pure functions.
 */

export type SystemHealth = HealthFigure & {
  /** When the newest probe ran; null before the first health check. */
  checkedAt: string | null;
  uptime: Uptime;
};

/** The platform's state from the newest probes (lib/reports/analytics/health.ts), without uptime: one cheap read. */
export async function getHealthNow(db: Db): Promise<HealthFigure & { checkedAt: string | null }> {
  const latest = await latestHealth(db);
  const checkedAt = latest.map((h) => h.checkedAt).filter((t): t is string => t !== null).sort().at(-1) ?? null;
  return { ...healthFigure(latest), checkedAt };
}

/** The platform's state from the newest probes and its uptime over the window. */
export async function getSystemHealth(db: Db, now = new Date(), uptimeDays = UPTIME_WINDOW_DAYS): Promise<SystemHealth> {
  const [health, uptime] = await Promise.all([getHealthNow(db), platformUptime(db, now, uptimeDays)]);
  return { ...health, uptime };
}

/**
 * Sentiment of an organization's calls started in [from, to): the analysed calls' 1–5 scores, from
 * the daily rollup plus a live scan of the edges, the same rows Analytics and CRM Voice read.
 */
export async function getSentiment(db: Db, organizationId: string, from: Date, to: Date): Promise<SentimentFigure> {
  const rows = await rollupTotals(db, "call", organizationId, await rollupWindow(db, organizationId, from, to), "hour");
  const sum = (metric: "s5" | "s4" | "s3" | "s12" | "score_sum") => rows.reduce((total, r) => total + r[metric], 0);
  return sentimentFigure({ veryPositive: sum("s5"), positive: sum("s4"), neutral: sum("s3"), negative: sum("s12"), scoreSum: sum("score_sum") });
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
