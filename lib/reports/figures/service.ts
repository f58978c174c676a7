import "server-only";
import type { Db } from "@/db/client";
import { latestHealth, platformUptime, UPTIME_WINDOW_DAYS, type Uptime } from "@/lib/reports/analytics/health";
import { rollupTotals, rollupWindow } from "@/lib/reports/analytics/rollup";
import { healthFigure, sentimentFigure, type HealthFigure, type SentimentFigure } from "./index";

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

