import "server-only";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "@/db/client";
import { analyticsDays, analyticsDirtyDays, analyticsDirtyHours, analyticsHours, assistantActions, assistantReplies, calls, emails, messages } from "@/db/schema";
import { enqueue } from "@/lib/platform/jobs/queue";
import { defineJob } from "@/lib/platform/jobs/types";

/**
 * Daily rollups for /api/analytics (docs/analytics.md#rollups).
 *
 * `analytics_day` holds, per organization, UTC day and filter combination (number, assistant,
 * direction), the sums of calls per hour / area code / intent, texts per hour and assistant replies.
 * Triggers on call, message and assistant_reply mark the (organization, day) of every write in
 * `analytics_dirty_day` (migration 0018); the `analytics.rollup` job recomputes those days whole.
 * Reads take whole clean days from the rollup and scan live only the partial days at the edges of
 * the range and the days still marked dirty, so a figure is never stale and never double-counted.
 */

export type RollupSource = "call" | "message" | "reply" | "action" | "email";

/** The summed columns, in the order every rollup-shaped select lists them. */
export const ROLLUP_METRICS = [
  "n", "served", "unserved", "timeouts", "auth", "processing", "duration_sum", "duration_n", "score_sum", "score_n",
  "s5", "s4", "s3", "s12", "ms_sum", "under1", "mid", "over3", "pos", "neu", "neg",
] as const;
export type RollupMetric = (typeof ROLLUP_METRICS)[number];

const utcDay = (column: SQLWrapper) => sql`(${column} at time zone 'UTC')::date`;

/** What a call ended as: its recorded outcome, or for older rows without one, its status. */
const resolvedOutcome = sql`coalesce(${calls.outcome}, case ${calls.status} when 'completed' then 'answered_by_assistant' when 'voicemail' then 'voicemail' when 'missed' then 'missed' when 'failed' then 'failed' end)`;
/** The number on the other end: the caller for inbound calls, the called party for outbound. */
const otherParty = sql`case when ${calls.direction} = 'inbound' then ${calls.fromNumber} else ${calls.toNumber} end`;
// Cheap per row (no regex): the region table checks the key; a malformed NANP key lands in "Other North America".
const areaKey = sql`case when ${calls.channel} <> 'phone' or left(${otherParty}, 1) <> '+' then 'unknown' when left(${otherParty}, 2) = '+1' then substr(${otherParty}, 3, 3) else 'intl' end`;

/**
 * Calls matching `where`, as rollup rows: per organization, day and filter combination, one row per
 * hour of the day, per area key and per intent (grouping bits: hour 4, area 2, intent 1).
 */
export function callDayRows(where: SQL): SQL {
  return sql`
    select organization_id, day, 'call' as source,
           case grouping(hour, area, intent) when 3 then 'hour' when 5 then 'area' else 'intent' end as dim,
           case grouping(hour, area, intent) when 3 then hour::text when 5 then area else intent end as key,
           phone_number_id, assistant_id, direction,
           count(*)::int as n,
           count(*) filter (where outcome in ('answered_by_assistant', 'transferred', 'voicemail'))::int as served,
           count(*) filter (where outcome in ('missed', 'failed'))::int as unserved,
           count(*) filter (where failure_class = 'timeout' and outcome is not null)::int as timeouts,
           count(*) filter (where failure_class = 'authentication' and outcome is not null)::int as auth,
           count(*) filter (where failure_class = 'processing' and outcome is not null)::int as processing,
           coalesce(sum(duration_seconds) filter (where duration_seconds > 0), 0)::bigint as duration_sum,
           count(*) filter (where duration_seconds > 0)::int as duration_n,
           coalesce(sum(sentiment_score), 0)::bigint as score_sum,
           count(sentiment_score)::int as score_n,
           count(*) filter (where sentiment_score = 5)::int as s5,
           count(*) filter (where sentiment_score = 4)::int as s4,
           count(*) filter (where sentiment_score = 3)::int as s3,
           count(*) filter (where sentiment_score <= 2)::int as s12,
           0::bigint as ms_sum, 0 as under1, 0 as mid, 0 as over3,
           count(*) filter (where sentiment = 'positive')::int as pos,
           count(*) filter (where sentiment = 'neutral')::int as neu,
           count(*) filter (where sentiment = 'negative')::int as neg
      from (
        select ${calls.organizationId} as organization_id, ${utcDay(calls.startedAt)} as day,
               extract(hour from ${calls.startedAt} at time zone 'UTC')::int as hour,
               ${areaKey} as area, ${calls.intent} as intent, ${resolvedOutcome} as outcome,
               ${calls.failureClass} as failure_class, ${calls.durationSeconds} as duration_seconds,
               ${calls.sentimentScore} as sentiment_score, ${calls.sentiment} as sentiment, ${calls.phoneNumberId} as phone_number_id,
               ${calls.assistantId} as assistant_id, ${calls.direction} as direction
          from ${calls}
         where ${where}
      ) c
     group by organization_id, day, phone_number_id, assistant_id, direction, grouping sets ((hour), (area), (intent))`;
}

/** Texts matching `where`, as rollup rows: one per organization, day, number, direction and hour. */
export function messageDayRows(where: SQL): SQL {
  return sql`
    select ${messages.organizationId} as organization_id, ${utcDay(messages.createdAt)} as day, 'message' as source,
           'hour' as dim, extract(hour from ${messages.createdAt} at time zone 'UTC')::int::text as key,
           ${messages.phoneNumberId} as phone_number_id, null::text as assistant_id, ${messages.direction} as direction,
           count(*)::int as n, 0 as served, 0 as unserved, 0 as timeouts, 0 as auth, 0 as processing,
           0::bigint as duration_sum, 0 as duration_n, 0::bigint as score_sum, 0 as score_n, 0 as s5, 0 as s4, 0 as s3, 0 as s12,
           0::bigint as ms_sum, 0 as under1, 0 as mid, 0 as over3, 0 as pos, 0 as neu, 0 as neg
      from ${messages}
     where ${where}
     group by 1, 2, 5, 6, 8`;
}

/**
 * Assistant replies matching `where`, as rollup rows: per organization, day and assistant, with the
 * number and direction of the reply's call (null for replies outside a call, e.g. texts and tests).
 */
export function replyDayRows(where: SQL): SQL {
  return sql`
    select ${assistantReplies.organizationId} as organization_id, ${utcDay(assistantReplies.createdAt)} as day, 'reply' as source,
           'all' as dim, ${assistantReplies.source}::text as key, c.phone_number_id, ${assistantReplies.assistantId} as assistant_id, c.direction,
           count(*)::int as n, 0 as served, 0 as unserved, 0 as timeouts, 0 as auth, 0 as processing,
           0::bigint as duration_sum, 0 as duration_n, 0::bigint as score_sum, 0 as score_n, 0 as s5, 0 as s4, 0 as s3, 0 as s12,
           coalesce(sum(${assistantReplies.totalMs}), 0)::bigint as ms_sum,
           count(*) filter (where ${assistantReplies.totalMs} < 1000)::int as under1,
           count(*) filter (where ${assistantReplies.totalMs} >= 1000 and ${assistantReplies.totalMs} <= 3000)::int as mid,
           count(*) filter (where ${assistantReplies.totalMs} > 3000)::int as over3, 0 as pos, 0 as neu, 0 as neg
      from ${assistantReplies}
      left join ${calls} c on c.id = ${assistantReplies.callId}
     where ${where}
     group by 1, 2, 5, 6, 7, 8`;
}

const NO_SUMS = sql.raw(
  "0 as served, 0 as unserved, 0 as timeouts, 0 as auth, 0 as processing, 0::bigint as duration_sum, 0 as duration_n, 0::bigint as score_sum, 0 as score_n, 0 as s5, 0 as s4, 0 as s3, 0 as s12, 0::bigint as ms_sum, 0 as under1, 0 as mid, 0 as over3, " +
    "0 as pos, 0 as neu, 0 as neg",
);

/** What the assistant did (assistant_action) matching `where`: per organization, day and action type. */
export function actionDayRows(where: SQL): SQL {
  return sql`
    select ${assistantActions.organizationId} as organization_id, ${utcDay(assistantActions.createdAt)} as day, 'action' as source,
           'all' as dim, ${assistantActions.type} as key, null::text as phone_number_id, null::text as assistant_id, null::text as direction,
           count(*)::int as n, ${NO_SUMS}
      from ${assistantActions}
     where ${where}
     group by 1, 2, 5`;
}

/** E-mails the product wrote (sent or kept in the Outbox; refused ones are not counted), per organization and day. */
export function emailDayRows(where: SQL): SQL {
  return sql`
    select ${emails.organizationId} as organization_id, ${utcDay(emails.createdAt)} as day, 'email' as source,
           'all' as dim, null::text as key, null::text as phone_number_id, null::text as assistant_id, null::text as direction,
           count(*)::int as n, ${NO_SUMS}
      from ${emails}
     where ${where} and ${emails.status} in ('sent', 'outbox')
     group by 1, 2`;
}

/** Every source's rollup rows for the rows of one organization in [start, end) (what refreshDay / refreshHour write). */
function allSourceRows(organizationId: string, start: string, end: string): SQL {
  const range = (column: SQLWrapper) => sql`${column} >= ${start}::timestamptz and ${column} < ${end}::timestamptz`;
  return sql`
      ${callDayRows(sql`${calls.organizationId} = ${organizationId} and ${range(calls.startedAt)}`)}
      union all
      ${messageDayRows(sql`${messages.organizationId} = ${organizationId} and ${range(messages.createdAt)}`)}
      union all
      ${replyDayRows(sql`${assistantReplies.organizationId} = ${organizationId} and ${range(assistantReplies.createdAt)}`)}
      union all
      ${actionDayRows(sql`${assistantActions.organizationId} = ${organizationId} and ${range(assistantActions.createdAt)}`)}
      union all
      ${emailDayRows(sql`${emails.organizationId} = ${organizationId} and ${range(emails.createdAt)}`)}`;
}

/** The rows of `source` (of one organization, or all) inside the window's live intervals, rollup-shaped. */
export function liveRows(source: RollupSource, organizationId: string | null, window: RollupWindow): SQL {
  const org = (column: SQLWrapper) => (organizationId ? sql`${column} = ${organizationId}` : sql`true`);
  switch (source) {
    case "call":
      return callDayRows(sql`${org(calls.organizationId)} and (${inLiveIntervals(calls.startedAt, window)})`);
    case "message":
      return messageDayRows(sql`${org(messages.organizationId)} and (${inLiveIntervals(messages.createdAt, window)})`);
    case "reply":
      return replyDayRows(sql`${org(assistantReplies.organizationId)} and (${inLiveIntervals(assistantReplies.createdAt, window)})`);
    case "action":
      return actionDayRows(sql`${org(assistantActions.organizationId)} and (${inLiveIntervals(assistantActions.createdAt, window)})`);
    case "email":
      return emailDayRows(sql`${org(emails.organizationId)} and (${inLiveIntervals(emails.createdAt, window)})`);
  }
}

/**
 * One source's sums over a window per key, or per UTC day (rollup days or hours plus the live scan of the rest), for
 * figures that need no filter or dimension split: the CRM voice screen and platform figures.
 */
export async function rollupTotals(
  db: Db,
  source: RollupSource,
  organizationId: string | null,
  window: RollupWindow,
  dim: string,
  by: "key" | "day" = "key",
): Promise<({ key: string | null } & Record<RollupMetric, number>)[]> {
  const sums = sql.raw(ROLLUP_METRICS.map((m) => `sum(${m})::bigint::text as ${m}`).join(", "));
  const result = await db.execute(sql`
    select ${by === "day" ? sql`day::text` : sql`key`} as key, ${sums}
      from (${rolledUpRows(source, organizationId, window, dim)} union all ${liveRows(source, organizationId, window)}) p
     where dim = ${dim}
     group by 1`);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((r) => {
    const row = { key: r.key as string | null } as { key: string | null } & Record<RollupMetric, number>;
    for (const m of ROLLUP_METRICS) row[m] = Number(r[m] ?? 0);
    return row;
  });
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * How a range [from, to) is read: whole UTC days inside it come from the rollup unless marked dirty;
 * the partial days at its edges and the dirty days are scanned live (merged into few intervals).
 */
export type RollupWindow = {
  /** "day": whole days from analytics_day; "hour": whole hours from analytics_hour (ISO timestamps). */
  unit?: "day" | "hour";
  /** Whole days [wholeFrom, wholeTo) (YYYY-MM-DD), or null when the range holds no whole day. */
  wholeFrom: string | null;
  wholeTo: string | null;
  /** Whole days in range still marked dirty (scanned live instead). */
  dirty: string[];
  /** Time intervals to scan live. */
  live: [Date, Date][];
  /**
   * Day windows only: pieces that would be scanned live (today, the first partial day, dirty days) but
   * lie in the hours the hourly rollup keeps, read from analytics_hour instead (withHours).
   */
  hours?: RollupWindow[];
};

/**
 * One rollup period (day or hour) and where it lives: the rollup table, its dirty marks, how long a
 * period is and how it is written as a key ("YYYY-MM-DD" for days, an ISO timestamp for hours). The
 * window, the read and the refresh below are each written once for both.
 */
const PERIODS = {
  day: {
    ms: DAY_MS,
    rollup: analyticsDays,
    rollupAt: analyticsDays.day,
    dirty: analyticsDirtyDays,
    dirtyAt: analyticsDirtyDays.day,
    cast: sql.raw("date"),
    /** The UTC day of the rollup row (hour rows carry it too, for byDay). */
    dayOf: sql.raw("day"),
    key: (ms: number) => isoDay(ms),
  },
  hour: {
    ms: HOUR_MS,
    rollup: analyticsHours,
    rollupAt: analyticsHours.hour,
    dirty: analyticsDirtyHours,
    dirtyAt: analyticsDirtyHours.hour,
    cast: sql.raw("timestamptz"),
    dayOf: sql.raw("(hour at time zone 'UTC')::date"),
    key: (ms: number) => new Date(ms).toISOString(),
  },
} as const;
type Period = keyof typeof PERIODS;

/**
 * How [from, to) is read by `unit`: whole periods inside it from the rollup unless marked dirty; the
 * partial periods at its edges and the dirty ones are scanned live (merged into few intervals).
 */
async function periodWindow(db: Db, unit: Period, organizationId: string | null, from: Date, to: Date): Promise<RollupWindow> {
  return periodWindowOf(unit, from, to, await dirtyPeriods(db, unit, organizationId, from, to));
}

/** Starts (ms) of the periods marked dirty in [from, to). */
async function dirtyPeriods(db: Db, unit: Period, organizationId: string | null, from: Date, to: Date): Promise<number[]> {
  const p = PERIODS[unit];
  const wholeStart = Math.ceil(from.getTime() / p.ms) * p.ms;
  const wholeEnd = Math.floor(to.getTime() / p.ms) * p.ms;
  if (wholeStart >= wholeEnd) return [];
  const result = await db.execute(sql`
    select distinct (extract(epoch from ${p.dirtyAt}) * 1000)::bigint::text as ms from ${p.dirty}
     where ${organizationId ? sql`${p.dirty.organizationId} = ${organizationId} and` : sql``}
           ${p.dirtyAt} >= ${p.key(wholeStart)}::${p.cast} and ${p.dirtyAt} < ${p.key(wholeEnd)}::${p.cast}`);
  return (result as unknown as { rows: { ms: string }[] }).rows.map((r) => Number(r.ms));
}

/** The window of [from, to) given the dirty periods (starts in ms; those outside the range are ignored). */
function periodWindowOf(unit: Period, from: Date, to: Date, dirtyStarts: number[]): RollupWindow {
  const p = PERIODS[unit];
  const wholeStart = Math.ceil(from.getTime() / p.ms) * p.ms;
  const wholeEnd = Math.floor(to.getTime() / p.ms) * p.ms;
  if (wholeStart >= wholeEnd) return { unit, wholeFrom: null, wholeTo: null, dirty: [], live: from < to ? [[from, to]] : [] };
  const dirty = dirtyStarts.filter((ms) => ms >= wholeStart && ms < wholeEnd).sort((x, y) => x - y);
  const pieces: [number, number][] = [];
  if (from.getTime() < wholeStart) pieces.push([from.getTime(), wholeStart]);
  for (const start of dirty) pieces.push([start, start + p.ms]);
  if (wholeEnd < to.getTime()) pieces.push([wholeEnd, to.getTime()]);
  return { unit, wholeFrom: p.key(wholeStart), wholeTo: p.key(wholeEnd), dirty: dirty.map(p.key), live: mergeIntervals(pieces) };
}

/**
 * A range by the day, its live pieces inside the hourly rollup's hours read by the hour (withHours).
 * `organizationId` null: every organization (platform analytics).
 */
export async function rollupWindow(db: Db, organizationId: string | null, from: Date, to: Date): Promise<RollupWindow> {
  return withHours(db, organizationId, await periodWindow(db, "day", organizationId, from, to));
}

/** `column` inside one of the window's live intervals (false when there is none). */
export function inLiveIntervals(column: SQLWrapper, window: RollupWindow): SQL {
  if (window.live.length === 0) return sql`false`;
  return sql.join(
    window.live.map(([a, b]) => sql`(${column} >= ${a.toISOString()}::timestamptz and ${column} < ${b.toISOString()}::timestamptz)`),
    sql` or `,
  );
}

/** The rollup rows of `source` that a window reads (whole, clean days or hours), as rollup-shaped rows. */
export function rolledUpRows(source: RollupSource, organizationId: string | null, window: RollupWindow, dim?: string): SQL {
  const parts = [periodRows(window.unit ?? "day", source, organizationId, window, dim), ...(window.hours ?? []).map((h) => periodRows("hour", source, organizationId, h, dim))];
  return sql.join(parts, sql` union all `);
}

function periodRows(unit: Period, source: RollupSource, organizationId: string | null, window: RollupWindow, dim?: string): SQL {
  const p = PERIODS[unit];
  const t = p.rollup;
  const inWindow =
    window.wholeFrom && window.wholeTo
      ? sql`${p.rollupAt} >= ${window.wholeFrom}::${p.cast} and ${p.rollupAt} < ${window.wholeTo}::${p.cast}${
          window.dirty.length ? sql` and ${p.rollupAt} not in (${sql.join(window.dirty.map((d) => sql`${d}::${p.cast}`), sql`, `)})` : sql``
        }`
      : sql`false`;
  return sql`
    select organization_id, ${p.dayOf} as day, source, dim, key, phone_number_id, assistant_id, direction,
           ${sql.raw(ROLLUP_METRICS.join(", "))}
      from ${t}
     where ${t.source} = ${source} and ${dim ? sql`${t.dim} = ${dim} and` : sql``} ${organizationId ? sql`${t.organizationId} = ${organizationId} and` : sql``} ${inWindow}`;
}

/**
 * How long hourly rollups are kept (and hours marked dirty by the triggers): 182 days, so the partial
 * first and last days of every range up to 90 days, and of the 90 days before it, are read by the hour
 * (withHours) instead of scanning a day of calls live. Must equal analytics_hour_keep() (migration
 * analytics_hourly_edges).
 */
export const HOUR_ROLLUP_KEEP_HOURS = 182 * 24;
/** Ranges starting at most this long ago may be read from the hourly rollup (margin under the hours kept). */
const HOUR_ROLLUP_READ_HOURS = HOUR_ROLLUP_KEEP_HOURS - 6;

/** True when [from, ...) lies inside the hours the hourly rollup keeps. */
export function hourlyRollupCovers(from: Date, realNow = Date.now()): boolean {
  return from.getTime() >= realNow - HOUR_ROLLUP_READ_HOURS * HOUR_MS;
}

/**
 * Like rollupWindow, by the hour (the 24h range): whole UTC hours inside [from, to) come from
 * analytics_hour unless marked dirty; the partial hours at the edges and the dirty hours are scanned
 * live. So a 24-hour figure reads ~24 rollup hours and scans at most the newest few hours of calls.
 */
export async function rollupHourWindow(db: Db, organizationId: string | null, from: Date, to: Date): Promise<RollupWindow> {
  return periodWindow(db, "hour", organizationId, from, to);
}

function mergeIntervals(pieces: [number, number][]): [Date, Date][] {
  const live: [Date, Date][] = [];
  let open: [number, number] | null = null;
  for (const piece of [...pieces].sort((a, b) => a[0] - b[0])) {
    if (open && piece[0] <= open[1]) open[1] = Math.max(open[1], piece[1]);
    else {
      if (open) live.push([new Date(open[0]), new Date(open[1])]);
      open = [...piece];
    }
  }
  if (open) live.push([new Date(open[0]), new Date(open[1])]);
  return live;
}

/**
 * A day window whose live pieces inside the hourly rollup's hours are read by the hour: whole clean
 * hours from analytics_hour, only partial and dirty hours live. So a range's edges (today, above all)
 * cost the same for a busy organization as for a quiet one.
 */
export async function withHours(db: Db, organizationId: string | null, window: RollupWindow, realNow = Date.now()): Promise<RollupWindow> {
  if (window.unit === "hour" || window.live.length === 0) return window;
  const coverStart = Math.ceil((realNow - HOUR_ROLLUP_READ_HOURS * HOUR_MS) / HOUR_MS) * HOUR_MS;
  const live: [number, number][] = [];
  const byHour: [Date, Date][] = [];
  for (const [a, b] of window.live) {
    if (b.getTime() <= coverStart) {
      live.push([a.getTime(), b.getTime()]);
      continue;
    }
    const start = Math.max(a.getTime(), coverStart);
    if (a.getTime() < start) live.push([a.getTime(), start]);
    byHour.push([new Date(start), b]);
  }
  if (byHour.length === 0) return window;
  // One look at the dirty hours for every piece read by the hour.
  const dirty = await dirtyPeriods(db, "hour", organizationId, byHour[0][0], byHour[byHour.length - 1][1]);
  const hours = byHour.map(([a, b]) => periodWindowOf("hour", a, b, dirty));
  for (const h of hours) live.push(...h.live.map(([a, b]): [number, number] => [a.getTime(), b.getTime()]));
  return { ...window, live: mergeIntervals(live), hours };
}

/**
 * Recomputes one organization's period (a day "YYYY-MM-DD" or an hour's ISO start) from its rows,
 * unless another run did it first. True when it was recomputed.
 */
async function refreshPeriod(db: Db, unit: Period, organizationId: string, at: string): Promise<boolean> {
  const p = PERIODS[unit];
  return db.transaction(async (tx) => {
    // The dirty row's lock serializes refreshes of one period and holds back writers marking it again
    // until this transaction ends, so what the recompute reads is never newer than what it clears.
    const locked = await tx.execute(sql`
      select 1 from ${p.dirty} where ${p.dirty.organizationId} = ${organizationId} and ${p.dirtyAt} = ${at}::${p.cast} for update`);
    if ((locked as unknown as { rows: unknown[] }).rows.length === 0) return false;
    const start = unit === "day" ? `${at}T00:00:00Z` : at;
    const end = new Date(Date.parse(start) + p.ms).toISOString();
    await tx.execute(sql`delete from ${p.rollup} where ${p.rollup.organizationId} = ${organizationId} and ${p.rollupAt} = ${at}::${p.cast}`);
    const metrics = ["source", "dim", "key", "phone_number_id", "assistant_id", "direction", ...ROLLUP_METRICS].join(", ");
    await tx.execute(sql`
      insert into ${p.rollup} (organization_id, ${sql.raw(unit)}, ${sql.raw(metrics)})
      select organization_id, ${at}::${p.cast}, ${sql.raw(metrics)} from (${allSourceRows(organizationId, start, end)}) r`);
    await tx.execute(sql`delete from ${p.dirty} where ${p.dirty.organizationId} = ${organizationId} and ${p.dirtyAt} = ${at}::${p.cast}`);
    return true;
  });
}

/** Recomputes up to `limit` dirty periods (of one organization, or of all), oldest mark first. Returns how many were recomputed. */
async function refreshDirty(db: Db, unit: Period, options: { limit?: number; organizationId?: string }): Promise<number> {
  const p = PERIODS[unit];
  const result = await db.execute(sql`
    select ${p.dirty.organizationId} as organization_id, (extract(epoch from ${p.dirtyAt}) * 1000)::bigint::text as ms
      from ${p.dirty}
     ${options.organizationId ? sql`where ${p.dirty.organizationId} = ${options.organizationId}` : sql``}
     order by ${p.dirty.markedAt}
     limit ${options.limit ?? 500}`);
  let refreshed = 0;
  for (const row of (result as unknown as { rows: { organization_id: string; ms: string }[] }).rows) {
    if (await refreshPeriod(db, unit, row.organization_id, p.key(Number(row.ms)))) refreshed += 1;
  }
  return refreshed;
}

/** Recomputes one organization's hour (ISO timestamp of its start), unless another run did it first. */
export const refreshHour = (db: Db, organizationId: string, hour: string) => refreshPeriod(db, "hour", organizationId, new Date(hour).toISOString());
/** Recomputes up to `limit` dirty hours (of one organization, or of all), oldest mark first. */
export const refreshDirtyHours = (db: Db, options: { limit?: number; organizationId?: string } = {}) => refreshDirty(db, "hour", options);
/** Recomputes one organization's day ("YYYY-MM-DD"), unless another run did it first. True when it was recomputed. */
export const refreshDay = (db: Db, organizationId: string, day: string) => refreshPeriod(db, "day", organizationId, day);
/** Recomputes up to `limit` dirty days (of one organization, or of all), oldest mark first. Returns how many were recomputed. */
export const refreshDirtyDays = (db: Db, options: { limit?: number; organizationId?: string } = {}) => refreshDirty(db, "day", options);

/** Hourly rollups and dirty hours older than the 72 hours kept: never read (hourlyRollupCovers). */
export async function pruneHourlyRollup(db: Db): Promise<void> {
  const cutoff = new Date(Date.now() - HOUR_ROLLUP_KEEP_HOURS * HOUR_MS).toISOString();
  await db.execute(sql`delete from ${analyticsHours} where ${analyticsHours.hour} < ${cutoff}::timestamptz`);
  await db.execute(sql`delete from ${analyticsDirtyHours} where ${analyticsDirtyHours.hour} < ${cutoff}::timestamptz`);
}

/** One organization's dirty days, recomputed (exactly, day by day) within ~20 s; the rest waits for the next minute. */
export const analyticsRollupOrganizationJob = defineJob<{ organizationId: string }>({
  name: "analytics.rollup-organization",
  retryLimit: 0,
  concurrency: 4,
  handler: async ({ organizationId }, { db }) => {
    const started = Date.now();
    while ((await refreshDirtyHours(db, { organizationId, limit: 50 })) > 0 && Date.now() - started < 10_000);
    while ((await refreshDirtyDays(db, { organizationId, limit: 50 })) > 0 && Date.now() - started < 20_000);
  },
});

/** Organizations with dirty days handed out per run: at most this many jobs a minute. */
const ORGANIZATIONS_PER_RUN = 5000;

/**
 * Every minute: one `analytics.rollup-organization` job per organization with dirty days, so any
 * number of instances recompute organizations side by side and a busy one holds no other back
 * (issue 29). Days not yet recomputed are read live until then (rollupWindow), so figures stay exact.
 */
export const analyticsRollupJob = defineJob<Record<string, never>>({
  name: "analytics.rollup",
  everySeconds: 60,
  retryLimit: 0,
  handler: async (_data, { db, job }) => {
    await pruneHourlyRollup(db);
    const result = await db.execute(sql`
      select organization_id from (
        select ${analyticsDirtyDays.organizationId} as organization_id, ${analyticsDirtyDays.markedAt} as marked_at from ${analyticsDirtyDays}
        union all
        select ${analyticsDirtyHours.organizationId}, ${analyticsDirtyHours.markedAt} from ${analyticsDirtyHours}
      ) d
       group by 1
       order by min(marked_at)
       limit ${ORGANIZATIONS_PER_RUN}`);
    for (const row of (result as unknown as { rows: { organization_id: string }[] }).rows) {
      await enqueue(null, analyticsRollupOrganizationJob, { organizationId: row.organization_id }, { singletonKey: `${row.organization_id}:${job.id}` });
    }
  },
});
