import "server-only";
import { and, count, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { assistantReplies, calls, creditLedger, messages, payments, phoneNumbers, users } from "@/db/schema";
import { latestHealth, overallStatus, platformUptime, type Uptime } from "./health";
import type { HealthStatus } from "@/db/schema";
import { regionNames, regionOfKey, type RegionName } from "./regions";
import { RANGE_HOURS, type AnalyticsFilters, type AnalyticsRange } from "./schema";
import { performanceInsight } from "./text";

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
  systemStatus: { status: HealthStatus; checkedAt: string | null };
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

/** Filters narrowing calls (and, through their call, assistant replies). */
function callFilters(f: AnalyticsFilters): SQL[] {
  const where: SQL[] = [];
  if (f.phoneNumberId) where.push(eq(calls.phoneNumberId, f.phoneNumberId));
  if (f.assistantId) where.push(eq(calls.assistantId, f.assistantId));
  if (f.direction) where.push(eq(calls.direction, f.direction));
  return where;
}

/** Filters narrowing texts: the number, the direction, and the assistant through the numbers it answers. */
function messageFilters(f: AnalyticsFilters, scope: AnalyticsScope): SQL[] {
  const where: SQL[] = [];
  if (f.phoneNumberId) where.push(eq(messages.phoneNumberId, f.phoneNumberId));
  if (f.direction) where.push(eq(messages.direction, f.direction));
  if (f.assistantId) {
    where.push(
      sql`${messages.phoneNumberId} in (select ${phoneNumbers.id} from ${phoneNumbers} where ${phoneNumbers.assistantId} = ${f.assistantId} and ${orgIs(sql`${phoneNumbers.organizationId}`, scope)})`,
    );
  }
  return where;
}

/** What a call ended as: its recorded outcome, or for older rows without one, its status. */
const resolvedOutcome = sql`coalesce(${calls.outcome}, case ${calls.status} when 'completed' then 'answered_by_assistant' when 'voicemail' then 'voicemail' when 'missed' then 'missed' when 'failed' then 'failed' end)`;
export const SERVED_OUTCOMES = ["answered_by_assistant", "transferred", "voicemail"] as const;
export const UNSERVED_OUTCOMES = ["missed", "failed"] as const;

/** The number on the other end: the caller for inbound calls, the called party for outbound. */
const otherParty = sql`case when ${calls.direction} = 'inbound' then ${calls.fromNumber} else ${calls.toNumber} end`;
// Cheap per row (no regex): the region table checks the key; a malformed NANP key lands in "Other North America".
const areaKey = sql`case when ${calls.channel} <> 'phone' or left(${otherParty}, 1) <> '+' then 'unknown' when left(${otherParty}, 2) = '+1' then substr(${otherParty}, 3, 3) else 'intl' end`;

type CallAggregateRow = {
  g: number;
  day: string | null;
  hour: number | null;
  area: string | null;
  intent: string | null;
  calls: number;
  served: number;
  unserved: number;
  timeouts: number;
  auth: number;
  processing: number;
  duration_sum: string;
  duration_n: number;
  score_sum: string;
  score_n: number;
  s5: number;
  s4: number;
  s3: number;
  s12: number;
};

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * One scan of the range's calls, grouped by grouping sets: totals, per day, per hour, per area code
 * and per intent (the organization's (organization_id, started_at) index bounds it).
 */
async function callAggregates(db: Db, scope: AnalyticsScope, filters: AnalyticsFilters, from: Date, to: Date) {
  const where = and(orgIs(calls.organizationId, scope), gte(calls.startedAt, from), lt(calls.startedAt, to), ...callFilters(filters));
  const result = await db.execute(sql`
    select grouping(day, hour, area, intent)::int as g, day, hour, area, intent,
           count(*)::int as calls,
           count(*) filter (where outcome in ('answered_by_assistant', 'transferred', 'voicemail'))::int as served,
           count(*) filter (where outcome in ('missed', 'failed'))::int as unserved,
           count(*) filter (where failure_class = 'timeout' and outcome is not null)::int as timeouts,
           count(*) filter (where failure_class = 'authentication' and outcome is not null)::int as auth,
           count(*) filter (where failure_class = 'processing' and outcome is not null)::int as processing,
           coalesce(sum(duration_seconds) filter (where duration_seconds > 0), 0)::bigint::text as duration_sum,
           count(*) filter (where duration_seconds > 0)::int as duration_n,
           coalesce(sum(sentiment_score), 0)::bigint::text as score_sum,
           count(sentiment_score)::int as score_n,
           count(*) filter (where sentiment_score = 5)::int as s5,
           count(*) filter (where sentiment_score = 4)::int as s4,
           count(*) filter (where sentiment_score = 3)::int as s3,
           count(*) filter (where sentiment_score <= 2)::int as s12
      from (
        select floor(extract(epoch from ${calls.startedAt}) / 86400)::int as day,
               (floor(extract(epoch from ${calls.startedAt}) / 3600)::bigint % 24)::int as hour,
               ${areaKey} as area,
               ${calls.intent} as intent,
               ${resolvedOutcome} as outcome,
               ${calls.failureClass} as failure_class,
               ${calls.durationSeconds} as duration_seconds,
               ${calls.sentimentScore} as sentiment_score
          from ${calls}
         where ${where}
      ) c
     group by grouping sets ((), (day), (hour), (area), (intent))
  `);
  const rows = rowsOf<CallAggregateRow>(result).map((r) => ({ ...r, g: Number(r.g), calls: Number(r.calls) }));
  // grouping() bits: day 8, hour 4, area 2, intent 1 (1 = not grouped by it).
  const total = rows.find((r) => r.g === 15);
  return {
    total,
    byDay: rows.filter((r) => r.g === 7),
    byHour: rows.filter((r) => r.g === 11),
    byArea: rows.filter((r) => r.g === 13),
    byIntent: rows.filter((r) => r.g === 14),
  };
}

async function messageAggregates(db: Db, scope: AnalyticsScope, filters: AnalyticsFilters, from: Date, to: Date) {
  const where = and(orgIs(messages.organizationId, scope), gte(messages.createdAt, from), lt(messages.createdAt, to), ...messageFilters(filters, scope));
  const result = await db.execute(sql`
    select grouping(day, hour)::int as g, day, hour, count(*)::int as n
      from (select floor(extract(epoch from ${messages.createdAt}) / 86400)::int as day,
                   (floor(extract(epoch from ${messages.createdAt}) / 3600)::bigint % 24)::int as hour
              from ${messages} where ${where}) m
     group by grouping sets ((), (day), (hour))
  `);
  const rows = rowsOf<{ g: number; day: string | null; hour: number | null; n: number }>(result).map((r) => ({ ...r, g: Number(r.g), n: Number(r.n) }));
  return { total: rows.find((r) => r.g === 3)?.n ?? 0, byDay: rows.filter((r) => r.g === 1), byHour: rows.filter((r) => r.g === 2) };
}

async function replyAggregates(db: Db, scope: AnalyticsScope, filters: AnalyticsFilters, from: Date, to: Date) {
  const where: SQL[] = [orgIs(assistantReplies.organizationId, scope), gte(assistantReplies.createdAt, from), lt(assistantReplies.createdAt, to)];
  if (filters.assistantId) where.push(eq(assistantReplies.assistantId, filters.assistantId));
  if (filters.phoneNumberId || filters.direction) {
    const byCall = callFilters({ phoneNumberId: filters.phoneNumberId, direction: filters.direction });
    where.push(sql`${assistantReplies.callId} in (select ${calls.id} from ${calls} where ${and(orgIs(calls.organizationId, scope), ...byCall)})`);
  }
  const [row] = await db
    .select({
      n: sql<number>`count(*)::int`,
      totalMs: sql<string>`coalesce(sum(${assistantReplies.totalMs}), 0)::bigint::text`,
      under1: sql<number>`count(*) filter (where ${assistantReplies.totalMs} < 1000)::int`,
      oneToThree: sql<number>`count(*) filter (where ${assistantReplies.totalMs} >= 1000 and ${assistantReplies.totalMs} <= 3000)::int`,
      over3: sql<number>`count(*) filter (where ${assistantReplies.totalMs} > 3000)::int`,
    })
    .from(assistantReplies)
    .where(and(...where));
  return { n: Number(row.n), totalMs: Number(row.totalMs), under1: Number(row.under1), oneToThree: Number(row.oneToThree), over3: Number(row.over3) };
}

async function countCalls(db: Db, scope: AnalyticsScope, filters: AnalyticsFilters, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(calls)
    .where(and(orgIs(calls.organizationId, scope), gte(calls.startedAt, from), lt(calls.startedAt, to), ...callFilters(filters)));
  return row.n;
}

async function countMessages(db: Db, scope: AnalyticsScope, filters: AnalyticsFilters, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(messages)
    .where(and(orgIs(messages.organizationId, scope), gte(messages.createdAt, from), lt(messages.createdAt, to), ...messageFilters(filters, scope)));
  return row.n;
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

export async function creditsUsedBetween(db: Db, scope: AnalyticsScope, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ units: sql<string>`coalesce(sum(${creditLedger.units}), 0)::bigint::text` })
    .from(creditLedger)
    .where(and(orgIs(creditLedger.organizationId, scope), eq(creditLedger.kind, "usage"), gte(creditLedger.createdAt, from), lt(creditLedger.createdAt, to)));
  return Number(row.units);
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

  const [c, m, r, prevCalls, prevMessages, revenue, prevRevenue, usersNow, usersBefore, creditsUsed, uptime] = await Promise.all([
    callAggregates(db, scope, filters, from, to),
    messageAggregates(db, scope, filters, from, to),
    replyAggregates(db, scope, filters, from, to),
    countCalls(db, scope, filters, previousFrom, from),
    countMessages(db, scope, filters, previousFrom, from),
    revenueBetween(db, scope, from, to),
    revenueBetween(db, scope, previousFrom, from),
    usersAt(db, scope, to),
    usersAt(db, scope, from),
    creditsUsedBetween(db, scope, from, to),
    platformUptime(db, to, RANGE_HOURS[range] / 24),
  ]);
  const health = await latestHealth(db);

  const t = c.total;
  const totalCalls = t?.calls ?? 0;
  const served = Number(t?.served ?? 0);
  const finished = served + Number(t?.unserved ?? 0);
  const errorCounts = { timeout: Number(t?.timeouts ?? 0), authentication: Number(t?.auth ?? 0), processing: Number(t?.processing ?? 0) };
  const failedTurns = errorCounts.timeout + errorCounts.authentication + errorCounts.processing;
  const scoreN = Number(t?.score_n ?? 0);
  const sentimentCounts = [
    ["Very Positive", Number(t?.s5 ?? 0)],
    ["Positive", Number(t?.s4 ?? 0)],
    ["Neutral", Number(t?.s3 ?? 0)],
    ["Negative", Number(t?.s12 ?? 0)],
  ] as const;

  const isoDay = (epochDay: unknown) => new Date(Number(epochDay) * 86_400_000).toISOString().slice(0, 10);
  const callsByDay = new Map(c.byDay.map((row) => [isoDay(row.day), row.calls]));
  const messagesByDay = new Map(m.byDay.map((row) => [isoDay(row.day), row.n]));
  const callsByHour = new Map(c.byHour.map((row) => [Number(row.hour), row.calls]));
  const messagesByHour = new Map(m.byHour.map((row) => [Number(row.hour), row.n]));

  const regionCounts = new Map<RegionName, number>();
  for (const row of c.byArea) {
    const region = regionOfKey(row.area ?? "unknown");
    regionCounts.set(region, (regionCounts.get(region) ?? 0) + row.calls);
  }
  const byRegion = regionNames
    .filter((name) => regionCounts.has(name))
    .map((region) => ({ region, calls: regionCounts.get(region)!, percent: percentOf(regionCounts.get(region)!, totalCalls) ?? 0 }))
    .sort((a, b) => b.calls - a.calls || regionNames.indexOf(a.region) - regionNames.indexOf(b.region));

  const withIntent = c.byIntent.filter((row) => row.intent !== null);
  const intentTotal = withIntent.reduce((sum, row) => sum + row.calls, 0);
  const topIntents = withIntent
    .map((row) => ({ intent: row.intent!, count: row.calls, percent: percentOf(row.calls, intentTotal) ?? 0 }))
    .sort((a, b) => b.count - a.count || a.intent.localeCompare(b.intent))
    .slice(0, 5);

  const trends = {
    calls: growthOf(totalCalls, prevCalls),
    messages: growthOf(m.total, prevMessages),
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
      totalMessages: m.total,
      totalUsers: usersNow,
      totalRevenue: revenue,
      avgCallDuration: Number(t?.duration_n ?? 0) > 0 ? Math.round(Number(t!.duration_sum) / Number(t!.duration_n)) : null,
      successRate: percentOf(served, finished),
      responseTime: r.n > 0 ? Math.round(r.totalMs / r.n / 100) / 10 : null,
      creditsUsed,
    },
    trends,
    usage: {
      byHour: Array.from({ length: 24 }, (_, hour) => ({ hour, calls: callsByHour.get(hour) ?? 0, messages: messagesByHour.get(hour) ?? 0 })),
      byDay: utcDays(from, to).map((day) => ({ day, calls: callsByDay.get(day) ?? 0, messages: messagesByDay.get(day) ?? 0 })),
      byRegion,
    },
    performance: {
      avgSentiment: scoreN > 0 ? round1(Number(t!.score_sum) / scoreN) : null,
      sentiment: sentimentCounts.map(([label, n]) => ({ label, count: n, percent: percentOf(n, scoreN) ?? 0 })),
      analysedCalls: scoreN,
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
        { bucket: "under_1s", count: r.under1, percent: percentOf(r.under1, r.n) ?? 0 },
        { bucket: "1_3s", count: r.oneToThree, percent: percentOf(r.oneToThree, r.n) ?? 0 },
        { bucket: "over_3s", count: r.over3, percent: percentOf(r.over3, r.n) ?? 0 },
      ],
      replies: r.n,
      uptime,
    },
    systemStatus: {
      status: overallStatus(health.map((h) => h.status)),
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
