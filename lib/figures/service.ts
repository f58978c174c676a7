import "server-only";
import { and, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { creditLedger } from "@/db/schema";
import { latestHealth, platformUptime, UPTIME_WINDOW_DAYS, type Uptime } from "@/lib/analytics/health";
import { rollupTotals, rollupWindow } from "@/lib/analytics/rollup";
import { creditsUsed, healthFigure, sentimentFigure, type HealthFigure, type SentimentFigure } from "./index";

/**
 * The figures of lib/figures read from the database, for the screens that show them without a
 * report of their own: the dashboard, the footer, the admin screens and CRM Voice. Analytics reads
 * the same rows through its own report and hands them to the same pure functions.
 */

export type SystemHealth = HealthFigure & {
  /** When the newest probe ran; null before the first health check. */
  checkedAt: string | null;
  uptime: Uptime;
};

/** The platform's state from the newest probes (lib/analytics/health.ts), without uptime: one cheap read. */
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
  const where: SQL[] = [inArray(creditLedger.kind, ["usage", "refund"])];
  if (organizationId) where.push(eq(creditLedger.organizationId, organizationId));
  if (from) where.push(gte(creditLedger.createdAt, from));
  if (to) where.push(lt(creditLedger.createdAt, to));
  const [row] = await db
    .select({
      spent: sql<string>`coalesce(sum(${creditLedger.units}) filter (where ${creditLedger.kind} = 'usage'), 0)::bigint::text`,
      back: sql<string>`coalesce(sum(${creditLedger.amount}) filter (where ${creditLedger.kind} = 'refund'), 0)::bigint::text`,
    })
    .from(creditLedger)
    .where(and(...where));
  const spent = Number(row?.spent ?? 0);
  const creditedBack = Number(row?.back ?? 0);
  return { spent, creditedBack, used: creditsUsed(spent, creditedBack) };
}
