import "server-only";
import { and, count, eq, lt, sql, type SQL } from "drizzle-orm";
import { hourlyRollupCovers, liveRows, rolledUpRows, rollupHourWindow, rollupWindow, ROLLUP_METRICS, type RollupMetric, type RollupSource, type RollupWindow } from "./rollup";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { payments, phoneNumbers, users } from "@/db/schema";
import { latestHealth, platformUptime, type Uptime } from "./health";
import type { HealthStatus } from "@/db/schema";
import { regionNames, regionOfKey, type RegionName } from "./regions";
import { RANGE_HOURS, type AnalyticsFilters, type AnalyticsRange } from "./schema";
import { performanceInsight } from "./text";
import { healthFigure, sentimentFigure, type HealthProblem } from "@/lib/reports/figures";
import { getCreditsUsed } from "@/lib/workspace/billing/credits-used";

/**
 * GET /api/analytics (docs/analytics.md): every figure computed from calls, messages, assistant
 * replies, payments, the credit ledger and recorded health checks, over the range ending now and
 * compared with the period of the same length before it. `organizationId` null is the whole
 * platform (admins only; the route checks). Days and hours are UTC.
 */

export type AnalyticsScope = { organizationId: string | null };

export type Growth = { current: number; previous: number; growth: number | null };

export type Analytics = {
  range: AnalyticsRange;
  scope: "organization" | "platform";
  from: string;
  to: string;
  previousFrom: string;
  filters: AnalyticsFilters;
  overview: {
    totalCalls: number;
    totalMessages: number;
    totalUsers: number;
    /** US dollars of paid payments in the range. */
    totalRevenue: number;
    /** Seconds, over calls that lasted more than 0 s; null without such calls. */
    avgCallDuration: number | null;
    /** Percent of finished calls that were served (docs/analytics.md); null without finished calls. */
    successRate: number | null;
    /** Seconds, mean of assistant reply times; null without replies. */
    responseTime: number | null;
    creditsUsed: number;
  };
  trends: { calls: Growth; messages: Growth; users: Growth; revenue: Growth };
  usage: {
    byHour: { hour: number; calls: number; messages: number }[];
    byDay: { day: string; calls: number; messages: number }[];
    byRegion: { region: RegionName; calls: number; percent: number }[];
  };
  performance: {
    /** Mean 1–5 sentiment score of analysed calls, one decimal, out of 5; null when none was analysed. */
    avgSentiment: number | null;
    sentiment: { label: "Very Positive" | "Positive" | "Neutral" | "Negative"; count: number; percent: number }[];
    analysedCalls: number;
    /** Share of analysed calls scored 4 or 5 (lib/reports/figures): the same figure CRM Voice shows. */
    positivePercent: number | null;
    topIntents: { intent: string; count: number; percent: number }[];
    /** Percent of finished calls during which the assistant failed; null without finished calls. */
    errorRate: number | null;
    errors: { timeout: number; authentication: number; processing: number };
    errorCounts: { timeout: number; authentication: number; processing: number };
    finishedCalls: number;
    responseTimes: { bucket: "under_1s" | "1_3s" | "over_3s"; count: number; percent: number }[];
    replies: number;
    uptime: Uptime;
  };
  insight: string;
  /** The System Status banner: the worst of the newest recorded probes. */
  /** lib/reports/figures healthFigure: a missing optional part is Degraded and named, never Offline. */
  systemStatus: { status: HealthStatus; checkedAt: string | null; headline: string; problems: HealthProblem[] };
};

const round1 = (n: number) => Math.round(n * 10) / 10;
/** Percent with one decimal; null when the denominator is 0. */
export const percentOf = (part: number, whole: number): number | null => (whole > 0 ? round1((part / whole) * 100) : null);
export function growthOf(current: number, previous: number): Growth {
  return { current, previous, growth: previous > 0 ? round1(((current - previous) / previous) * 100) : null };
}

function orgIs(column: SQL | AnyPgColumn, scope: AnalyticsScope): SQL {
  return scope.organizationId ? sql`${column} = ${scope.organizationId}` : sql`true`;
}

/**
 * The filters, applied to rollup-shaped rows (lib/reports/analytics/rollup.ts): calls by their number, assistant
 * and direction; texts by their number and direction, and by assistant through the numbers it answers
 * now; assistant replies by their assistant, and by number and direction through their call.
 */
function rowFilter(source: RollupSource, f: AnalyticsFilters, scope: AnalyticsScope): SQL {
  const where: SQL[] = [sql`true`];
  if (f.phoneNumberId) where.push(sql`p.phone_number_id = ${f.phoneNumberId}`);
  if (f.direction) where.push(sql`p.direction = ${f.direction}`);
  if (f.assistantId) {
    where.push(
      source === "message"
        ? sql`p.phone_number_id in (select ${phoneNumbers.id} from ${phoneNumbers} where ${phoneNumbers.assistantId} = ${f.assistantId} and ${orgIs(sql`${phoneNumbers.organizationId}`, scope)})`
        : sql`p.assistant_id = ${f.assistantId}`,
    );
  }
  return sql.join(where, sql` and `);
}

type AggregateRow = { g: number; dim: string; day: string | null; key: string | null } & Record<RollupMetric, number>;

/**
 * One source's figures over a window: clean whole days from the rollup plus the live scan of the rest,
 * summed per dimension (`total`), per dimension and day, and per dimension value. With `totalsOf`, only
 * that dimension's totals (the previous period's counts, replies): the rollup rows of the other
 * dimensions are not read at all.
 */
async function aggregate(db: Db, source: RollupSource, scope: AnalyticsScope, filters: AnalyticsFilters, window: RollupWindow, totalsOf?: "hour" | "all") {
  const sums = sql.raw(ROLLUP_METRICS.map((m) => `sum(${m})::bigint::text as ${m}`).join(", "));
  const totalsOnly = totalsOf !== undefined;
  const result = await db.execute(sql`
    select ${totalsOnly ? sql`3` : sql`grouping(day, key)::int`} as g, dim, ${totalsOnly ? sql`null` : sql`day::text`} as day,
           ${totalsOnly ? sql`null` : sql`key`} as key, ${sums}
      from (${rolledUpRows(source, scope.organizationId, window, totalsOf)} union all ${liveRows(source, scope.organizationId, window)}) p
     where ${rowFilter(source, filters, scope)}${totalsOnly ? sql` and dim = ${totalsOf}` : sql``}
     group by ${totalsOnly ? sql`dim` : sql`grouping sets ((dim), (dim, day), (dim, key))`}`);
  const rows = rowsOf<Record<string, unknown>>(result).map((r) => {
    const row = { g: Number(r.g), dim: String(r.dim), day: r.day as string | null, key: r.key as string | null } as AggregateRow;
    for (const m of ROLLUP_METRICS) row[m] = Number(r[m] ?? 0);
    return row;
  });
  // grouping() bits: day 2, key 1 (1 = not grouped by it).
  const of = (dim: string, g: number) => rows.filter((r) => r.dim === dim && r.g === g);
  return {
    total: (dim: string): AggregateRow | undefined => of(dim, 3)[0],
    byDay: (dim: string) => of(dim, 1),
    byKey: (dim: string) => of(dim, 2),
  };
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Dollars of paid payments whose payment time falls in [from, to); null bounds are open (all time). */
export async function revenueBetween(db: Db, scope: AnalyticsScope, from: Date | null, to: Date | null): Promise<number> {
  const paidAt = sql`coalesce(${payments.paidAt}, ${payments.createdAt})`;
  const where: SQL[] = [orgIs(payments.organizationId, scope), eq(payments.status, "paid")];
  if (from) where.push(sql`${paidAt} >= ${from.toISOString()}::timestamptz`);
  if (to) where.push(sql`${paidAt} < ${to.toISOString()}::timestamptz`);
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(${payments.amountCents}), 0)::bigint::text` })
    .from(payments)
    .where(and(...where));
  return Number(row.cents) / 100;
}

/** Users that existed at `at`. */
async function usersAt(db: Db, scope: AnalyticsScope, at: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(orgIs(users.organizationId, scope), lt(users.createdAt, at)));
  return row.n;
}

/** lib/reports/figures: credits spent less credits given back, the figure the dashboard, Billing and the admins read. */
export async function creditsUsedBetween(db: Db, scope: AnalyticsScope, from: Date, to: Date): Promise<number> {
  return (await getCreditsUsed(db, scope.organizationId, from, to)).used;
}

function utcDays(from: Date, to: Date): string[] {
  const days: string[] = [];
  const end = to.getTime() - 1;
  for (let t = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); t <= end; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}


export async function getAnalytics(
  db: Db,
  scope: AnalyticsScope,
  range: AnalyticsRange,
  filters: AnalyticsFilters = {},
  now = new Date(),
): Promise<Analytics> {
  const to = now;
  const from = new Date(to.getTime() - RANGE_HOURS[range] * 3_600_000);
  const previousFrom = new Date(from.getTime() - RANGE_HOURS[range] * 3_600_000);

  // The 24h range (and its previous 24 hours) reads the hourly rollup, longer ranges the daily one.
  const windowOf = RANGE_HOURS[range] < 24 * 7 && hourlyRollupCovers(previousFrom) ? rollupHourWindow : rollupWindow;
  const [window, previousWindow] = await Promise.all([
    windowOf(db, scope.organizationId, from, to),
    windowOf(db, scope.organizationId, previousFrom, from),
  ]);
  const [c, m, r, prevC, prevM, revenue, prevRevenue, usersNow, usersBefore, creditsUsed, uptime] = await Promise.all([
    aggregate(db, "call", scope, filters, window),
    aggregate(db, "message", scope, filters, window),
    aggregate(db, "reply", scope, filters, window, "all"),
    aggregate(db, "call", scope, filters, previousWindow, "hour"),
    aggregate(db, "message", scope, filters, previousWindow, "hour"),
    revenueBetween(db, scope, from, to),
    revenueBetween(db, scope, previousFrom, from),
    usersAt(db, scope, to),
    usersAt(db, scope, from),
    creditsUsedBetween(db, scope, from, to),
    platformUptime(db, to, RANGE_HOURS[range] / 24),
  ]);
  const health = await latestHealth(db);
  const prevCalls = prevC.total("hour")?.n ?? 0;
  const prevMessages = prevM.total("hour")?.n ?? 0;
  const replies = r.total("all");
  const rn = replies?.n ?? 0;

  const t = c.total("hour");
  const totalCalls = t?.n ?? 0;
  const totalMessages = m.total("hour")?.n ?? 0;
  const served = t?.served ?? 0;
  const finished = served + (t?.unserved ?? 0);
  const errorCounts = { timeout: t?.timeouts ?? 0, authentication: t?.auth ?? 0, processing: t?.processing ?? 0 };
  const failedTurns = errorCounts.timeout + errorCounts.authentication + errorCounts.processing;
  const scoreN = t?.score_n ?? 0;
  const sentimentCounts = [
    ["Very Positive", t?.s5 ?? 0],
    ["Positive", t?.s4 ?? 0],
    ["Neutral", t?.s3 ?? 0],
    ["Negative", t?.s12 ?? 0],
  ] as const;

  const sentiment = sentimentFigure({ veryPositive: t?.s5 ?? 0, positive: t?.s4 ?? 0, neutral: t?.s3 ?? 0, negative: t?.s12 ?? 0, scoreSum: t?.score_sum ?? 0 });
  const systemHealth = healthFigure(health);

  const callsByDay = new Map(c.byDay("hour").map((row) => [row.day, row.n]));
  const messagesByDay = new Map(m.byDay("hour").map((row) => [row.day, row.n]));
  const callsByHour = new Map(c.byKey("hour").map((row) => [Number(row.key), row.n]));
  const messagesByHour = new Map(m.byKey("hour").map((row) => [Number(row.key), row.n]));

  const regionCounts = new Map<RegionName, number>();
  for (const row of c.byKey("area")) {
    const region = regionOfKey(row.key ?? "unknown");
    regionCounts.set(region, (regionCounts.get(region) ?? 0) + row.n);
  }
  const byRegion = regionNames
    .filter((name) => regionCounts.has(name))
    .map((region) => ({ region, calls: regionCounts.get(region)!, percent: percentOf(regionCounts.get(region)!, totalCalls) ?? 0 }))
    .sort((a, b) => b.calls - a.calls || regionNames.indexOf(a.region) - regionNames.indexOf(b.region));

  const withIntent = c.byKey("intent").filter((row) => row.key !== null);
  const intentTotal = withIntent.reduce((sum, row) => sum + row.n, 0);
  const topIntents = withIntent
    .map((row) => ({ intent: row.key!, count: row.n, percent: percentOf(row.n, intentTotal) ?? 0 }))
    .sort((a, b) => b.count - a.count || a.intent.localeCompare(b.intent))
    .slice(0, 5);

  const trends = {
    calls: growthOf(totalCalls, prevCalls),
    messages: growthOf(totalMessages, prevMessages),
    users: growthOf(usersNow, usersBefore),
    revenue: growthOf(revenue, prevRevenue),
  };

  return {
    range,
    scope: scope.organizationId ? "organization" : "platform",
    from: from.toISOString(),
    to: to.toISOString(),
    previousFrom: previousFrom.toISOString(),
    filters,
    overview: {
      totalCalls,
      totalMessages,
      totalUsers: usersNow,
      totalRevenue: revenue,
      avgCallDuration: t && t.duration_n > 0 ? Math.round(t.duration_sum / t.duration_n) : null,
      successRate: percentOf(served, finished),
      responseTime: replies && rn > 0 ? Math.round(replies.ms_sum / rn / 100) / 10 : null,
      creditsUsed,
    },
    trends,
    usage: {
      byHour: Array.from({ length: 24 }, (_, hour) => ({ hour, calls: callsByHour.get(hour) ?? 0, messages: messagesByHour.get(hour) ?? 0 })),
      byDay: utcDays(from, to).map((day) => ({ day, calls: callsByDay.get(day) ?? 0, messages: messagesByDay.get(day) ?? 0 })),
      byRegion,
    },
    performance: {
      avgSentiment: sentiment.average,
      positivePercent: sentiment.positivePercent,
      sentiment: sentimentCounts.map(([label, n]) => ({ label, count: n, percent: percentOf(n, scoreN) ?? 0 })),
      analysedCalls: sentiment.analysedCalls,
      topIntents,
      errorRate: percentOf(failedTurns, finished),
      errors: {
        timeout: percentOf(errorCounts.timeout, finished) ?? 0,
        authentication: percentOf(errorCounts.authentication, finished) ?? 0,
        processing: percentOf(errorCounts.processing, finished) ?? 0,
      },
      errorCounts,
      finishedCalls: finished,
      responseTimes: [
        { bucket: "under_1s", count: replies?.under1 ?? 0, percent: percentOf(replies?.under1 ?? 0, rn) ?? 0 },
        { bucket: "1_3s", count: replies?.mid ?? 0, percent: percentOf(replies?.mid ?? 0, rn) ?? 0 },
        { bucket: "over_3s", count: replies?.over3 ?? 0, percent: percentOf(replies?.over3 ?? 0, rn) ?? 0 },
      ],
      replies: rn,
      uptime,
    },
    systemStatus: {
      status: systemHealth.status,
      headline: systemHealth.headline,
      problems: systemHealth.problems,
      checkedAt: health.map((h) => h.checkedAt).filter((t): t is string => t !== null).sort().at(-1) ?? null,
    },
    insight: performanceInsight(range, [
      { label: "Calls", ...trends.calls },
      { label: "Messages", ...trends.messages },
      { label: "Revenue", ...trends.revenue },
      { label: "Users", ...trends.users },
    ]),
  };
}
