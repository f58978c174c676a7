import "server-only";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "@/db/client";
import { analyticsDays, analyticsDirtyDays, analyticsDirtyHours, analyticsHours, assistantActions, assistantReplies, calls, emails, messages } from "@/db/schema";
import { enqueue } from "@/lib/jobs/queue";
import { defineJob } from "@/lib/jobs/types";

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

/** `organizationId` null: every organization (platform analytics). */
export async function rollupWindow(db: Db, organizationId: string | null, from: Date, to: Date): Promise<RollupWindow> {
  const wholeStart = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const wholeEnd = Math.floor(to.getTime() / DAY_MS) * DAY_MS;
  if (wholeStart >= wholeEnd) return withHours(db, organizationId, { wholeFrom: null, wholeTo: null, dirty: [], live: from < to ? [[from, to]] : [] });
  const wholeFrom = isoDay(wholeStart);
  const wholeTo = isoDay(wholeEnd);
  const result = await db.execute(sql`
    select distinct ${analyticsDirtyDays.day}::text as day from ${analyticsDirtyDays}
     where ${organizationId ? sql`${analyticsDirtyDays.organizationId} = ${organizationId} and` : sql``}
           ${analyticsDirtyDays.day} >= ${wholeFrom}::date and ${analyticsDirtyDays.day} < ${wholeTo}::date
     order by 1`);
  const dirty = (result as unknown as { rows: { day: string }[] }).rows.map((r) => r.day);
  const pieces: [number, number][] = [];
  if (from.getTime() < wholeStart) pieces.push([from.getTime(), wholeStart]);
  for (const day of dirty) {
    const start = Date.parse(`${day}T00:00:00Z`);
    pieces.push([start, start + DAY_MS]);
  }
  if (wholeEnd < to.getTime()) pieces.push([wholeEnd, to.getTime()]);
  const live: [Date, Date][] = [];
  let open: [number, number] | null = null;
  for (const piece of pieces) {
    if (open && piece[0] <= open[1]) open[1] = Math.max(open[1], piece[1]);
    else {
      if (open) live.push([new Date(open[0]), new Date(open[1])]);
      open = [...piece];
    }
  }
  if (open) live.push([new Date(open[0]), new Date(open[1])]);
  return withHours(db, organizationId, { wholeFrom, wholeTo, dirty, live });
}

/** `column` inside one of the window's live intervals (false when there is none). */
export function inLiveIntervals(column: SQLWrapper, window: RollupWindow): SQL {
  if (window.live.length === 0) return sql`false`;
  return sql.join(
    window.live.map(([a, b]) => sql`(${column} >= ${a.toISOString()}::timestamptz and ${column} < ${b.toISOString()}::timestamptz)`),
    sql` or `,
  );
}

/** The rollup rows of `source` that a window reads (whole, clean days), as rollup-shaped rows. */
export function rolledUpRows(source: RollupSource, organizationId: string | null, window: RollupWindow, dim?: string): SQL {
  if (window.unit === "hour") return rolledUpHourRows(source, organizationId, window, dim);
  if (window.hours?.length) {
    const parts = [rolledUpRows(source, organizationId, { ...window, hours: undefined }, dim), ...window.hours.map((h) => rolledUpHourRows(source, organizationId, h, dim))];
    return sql.join(parts, sql` union all `);
  }
  const t = analyticsDays;
  const dayIn =
    window.wholeFrom && window.wholeTo
      ? sql`${t.day} >= ${window.wholeFrom}::date and ${t.day} < ${window.wholeTo}::date${
          window.dirty.length ? sql` and ${t.day}::text not in (${sql.join(window.dirty.map((d) => sql`${d}`), sql`, `)})` : sql``
        }`
      : sql`false`;
  return sql`
    select organization_id, day, source, dim, key, phone_number_id, assistant_id, direction,
           ${sql.raw(ROLLUP_METRICS.join(", "))}
      from ${t}
     where ${t.source} = ${source} and ${dim ? sql`${t.dim} = ${dim} and` : sql``} ${organizationId ? sql`${t.organizationId} = ${organizationId} and` : sql``} ${dayIn}`;
}

const HOUR_MS = 3_600_000;
/** How long hourly rollups are kept (and hours marked dirty by the triggers, migration analytics_hourly_sql). */
export const HOUR_ROLLUP_KEEP_HOURS = 72;
/** Ranges starting at most this long ago may be read from the hourly rollup (margin under the 72 hours kept). */
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
  const wholeStart = Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS;
  const wholeEnd = Math.floor(to.getTime() / HOUR_MS) * HOUR_MS;
  if (wholeStart >= wholeEnd) return { unit: "hour", wholeFrom: null, wholeTo: null, dirty: [], live: from < to ? [[from, to]] : [] };
  const wholeFrom = new Date(wholeStart).toISOString();
  const wholeTo = new Date(wholeEnd).toISOString();
  const result = await db.execute(sql`
    select distinct ${analyticsDirtyHours.hour} as hour from ${analyticsDirtyHours}
     where ${organizationId ? sql`${analyticsDirtyHours.organizationId} = ${organizationId} and` : sql``}
           ${analyticsDirtyHours.hour} >= ${wholeFrom}::timestamptz and ${analyticsDirtyHours.hour} < ${wholeTo}::timestamptz
     order by 1`);
  const dirty = (result as unknown as { rows: { hour: string | Date }[] }).rows.map((r) => new Date(r.hour).toISOString());
  const pieces: [number, number][] = [];
  if (from.getTime() < wholeStart) pieces.push([from.getTime(), wholeStart]);
  for (const hour of dirty) {
    const start = Date.parse(hour);
    pieces.push([start, start + HOUR_MS]);
  }
  if (wholeEnd < to.getTime()) pieces.push([wholeEnd, to.getTime()]);
  return { unit: "hour", wholeFrom, wholeTo, dirty, live: mergeIntervals(pieces) };
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

function rolledUpHourRows(source: RollupSource, organizationId: string | null, window: RollupWindow, dim?: string): SQL {
  const t = analyticsHours;
  const hourIn =
    window.wholeFrom && window.wholeTo
      ? sql`${t.hour} >= ${window.wholeFrom}::timestamptz and ${t.hour} < ${window.wholeTo}::timestamptz${
          window.dirty.length ? sql` and ${t.hour} not in (${sql.join(window.dirty.map((h) => sql`${h}::timestamptz`), sql`, `)})` : sql``
        }`
      : sql`false`;
  return sql`
    select organization_id, (hour at time zone 'UTC')::date as day, source, dim, key, phone_number_id, assistant_id, direction,
           ${sql.raw(ROLLUP_METRICS.join(", "))}
      from ${t}
     where ${t.source} = ${source} and ${dim ? sql`${t.dim} = ${dim} and` : sql``} ${organizationId ? sql`${t.organizationId} = ${organizationId} and` : sql``} ${hourIn}`;
}

/**
 * A day window whose live pieces inside the hourly rollup's hours are read by the hour: whole clean
 * hours from analytics_hour, only partial and dirty hours live. So a range's edges (today, above all)
 * cost the same for a busy organization as for a quiet one.
 */
export async function withHours(db: Db, organizationId: string | null, window: RollupWindow, realNow = Date.now()): Promise<RollupWindow> {
  if (window.unit === "hour" || window.live.length === 0) return window;
  const coverStart = realNow - HOUR_ROLLUP_READ_HOURS * HOUR_MS;
  const hours: RollupWindow[] = [];
  const live: [Date, Date][] = [];
  for (const [a, b] of window.live) {
    if (b.getTime() <= coverStart) {
      live.push([a, b]);
      continue;
    }
    const start = new Date(Math.max(a.getTime(), Math.ceil(coverStart / HOUR_MS) * HOUR_MS));
    if (a < start) live.push([a, start]);
    const hourly = await rollupHourWindow(db, organizationId, start, b);
    hours.push(hourly);
    live.push(...hourly.live);
  }
  return { ...window, live: mergeIntervals(live.map(([a, b]) => [a.getTime(), b.getTime()])), hours };
}

/** Recomputes one organization's hour (ISO timestamp of its start), unless another run did it first. */
export async function refreshHour(db: Db, organizationId: string, hour: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Same locking as refreshDay: the dirty row's lock holds back writers marking the hour again.
    const locked = await tx.execute(sql`
      select 1 from ${analyticsDirtyHours}
       where ${analyticsDirtyHours.organizationId} = ${organizationId} and ${analyticsDirtyHours.hour} = ${hour}::timestamptz
       for update`);
    if ((locked as unknown as { rows: unknown[] }).rows.length === 0) return false;
    const end = new Date(Date.parse(hour) + HOUR_MS).toISOString();
    await tx.execute(sql`delete from ${analyticsHours} where ${analyticsHours.organizationId} = ${organizationId} and ${analyticsHours.hour} = ${hour}::timestamptz`);
    const metrics = ["source", "dim", "key", "phone_number_id", "assistant_id", "direction", ...ROLLUP_METRICS].join(", ");
    await tx.execute(sql`
      insert into ${analyticsHours} (organization_id, hour, ${sql.raw(metrics)})
      select organization_id, ${hour}::timestamptz, ${sql.raw(metrics)} from (${allSourceRows(organizationId, hour, end)}) r`);
    await tx.execute(sql`
      delete from ${analyticsDirtyHours}
       where ${analyticsDirtyHours.organizationId} = ${organizationId} and ${analyticsDirtyHours.hour} = ${hour}::timestamptz`);
    return true;
  });
}

/** Recomputes up to `limit` dirty hours (of one organization, or of all), oldest mark first. */
export async function refreshDirtyHours(db: Db, options: { limit?: number; organizationId?: string } = {}): Promise<number> {
  const limit = options.limit ?? 500;
  const result = await db.execute(sql`
    select ${analyticsDirtyHours.organizationId} as organization_id, ${analyticsDirtyHours.hour} as hour
      from ${analyticsDirtyHours}
     ${options.organizationId ? sql`where ${analyticsDirtyHours.organizationId} = ${options.organizationId}` : sql``}
     order by ${analyticsDirtyHours.markedAt}
     limit ${limit}`);
  let refreshed = 0;
  for (const row of (result as unknown as { rows: { organization_id: string; hour: string | Date }[] }).rows) {
    if (await refreshHour(db, row.organization_id, new Date(row.hour).toISOString())) refreshed += 1;
  }
  return refreshed;
}

/** Hourly rollups and dirty hours older than the 72 hours kept: never read (hourlyRollupCovers). */
export async function pruneHourlyRollup(db: Db): Promise<void> {
  const cutoff = new Date(Date.now() - HOUR_ROLLUP_KEEP_HOURS * HOUR_MS).toISOString();
  await db.execute(sql`delete from ${analyticsHours} where ${analyticsHours.hour} < ${cutoff}::timestamptz`);
  await db.execute(sql`delete from ${analyticsDirtyHours} where ${analyticsDirtyHours.hour} < ${cutoff}::timestamptz`);
}

/** Recomputes one organization's day, unless another run did it first. True when it was recomputed. */
export async function refreshDay(db: Db, organizationId: string, day: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    // The dirty row's lock serializes refreshes of one day and holds back writers marking it again
    // until this transaction ends, so what the recompute reads is never newer than what it clears.
    const locked = await tx.execute(sql`
      select 1 from ${analyticsDirtyDays}
       where ${analyticsDirtyDays.organizationId} = ${organizationId} and ${analyticsDirtyDays.day} = ${day}::date
       for update`);
    if ((locked as unknown as { rows: unknown[] }).rows.length === 0) return false;
    const start = `${day}T00:00:00Z`;
    const end = isoDay(Date.parse(start) + DAY_MS) + "T00:00:00Z";
    await tx.execute(sql`delete from ${analyticsDays} where ${analyticsDays.organizationId} = ${organizationId} and ${analyticsDays.day} = ${day}::date`);
    const columns = sql.raw(["organization_id", "day", "source", "dim", "key", "phone_number_id", "assistant_id", "direction", ...ROLLUP_METRICS].join(", "));
    await tx.execute(sql`
      insert into ${analyticsDays} (${columns})
      ${allSourceRows(organizationId, start, end)}`);
    await tx.execute(sql`
      delete from ${analyticsDirtyDays}
       where ${analyticsDirtyDays.organizationId} = ${organizationId} and ${analyticsDirtyDays.day} = ${day}::date`);
    return true;
  });
}

/**
 * Recomputes up to `limit` dirty days (of one organization, or of all), oldest mark first. Returns how
 * many were recomputed.
 */
export async function refreshDirtyDays(db: Db, options: { limit?: number; organizationId?: string } = {}): Promise<number> {
  const limit = options.limit ?? 500;
  const result = await db.execute(sql`
    select ${analyticsDirtyDays.organizationId} as organization_id, ${analyticsDirtyDays.day}::text as day
      from ${analyticsDirtyDays}
     ${options.organizationId ? sql`where ${analyticsDirtyDays.organizationId} = ${options.organizationId}` : sql``}
     order by ${analyticsDirtyDays.markedAt}
     limit ${limit}`);
  let refreshed = 0;
  for (const row of (result as unknown as { rows: { organization_id: string; day: string }[] }).rows) {
    if (await refreshDay(db, row.organization_id, row.day)) refreshed += 1;
  }
  return refreshed;
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
