import "server-only";
import { and, asc, eq, gte, ilike, inArray, lte, ne, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assistantActions, calls, messages, phoneNumbers, voiceAssistants, type CallOutcome, type FailureClass, type TranscriptTurn } from "@/db/schema";
import { notFound } from "@/lib/platform/http/errors";
import { consentFor, type ConsentView } from "@/lib/compliance/consent";
import { callRecordingFor, type CallRecordingView } from "@/lib/compliance/recordings";
import { threadView, type ThreadView } from "@/lib/phone/telephony/sms-threads";
import { encodeCursor, type Cursor } from "@/lib/platform/http/pagination";
import { preparedStatement } from "@/lib/platform/database-statements";
import { callStatuses, messageStatuses, type HistoryQuery } from "./schema";

export type HistoryPhoneNumber = { id: string; phoneNumber: string; friendlyName: string };

export type HistoryItem = {
  kind: "call" | "message" | "voicemail";
  id: string;
  at: string;
  /** Calls only: "agent" when another AI agent reached the business over A2A (docs/a2a.md). */
  channel?: "phone" | "agent";
  direction: "inbound" | "outbound";
  from: string;
  to: string;
  callerName?: string | null;
  status: string;
  durationSeconds?: number;
  summary?: string | null;
  sentiment?: "positive" | "neutral" | "negative" | null;
  isSpam: boolean;
  /** Why the call went where it went; its spam score and the reasons; credits spent and credited back. */
  routedBecause?: string | null;
  spamScore?: number | null;
  spamReasons?: string[];
  costCredits: number;
  creditedBack: number;
  body?: string;
  hasRecording?: boolean;
  phoneNumber: HistoryPhoneNumber | null;
};

export type HistoryPage = { items: HistoryItem[]; nextCursor: string | null };

type Keyed = { item: Omit<HistoryItem, "phoneNumber">; phoneNumber: HistoryPhoneNumber | null; t: bigint };

/** Microseconds since the epoch → an exact ISO timestamp with six fractional digits. */
export function microsToIso(micros: string): string {
  const value = BigInt(micros);
  const million = BigInt(1_000_000);
  let seconds = value / million;
  let fraction = value % million;
  if (fraction < BigInt(0)) {
    fraction += million;
    seconds -= BigInt(1);
  }
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${base}.${fraction.toString().padStart(6, "0")}Z`;
}

const epochMicros = (column: typeof calls.startedAt | typeof messages.createdAt) =>
  sql<string>`floor(extract(epoch from ${column}) * 1000000)::bigint::text`;

function callConditions(organizationId: string, q: HistoryQuery, cursor: Cursor | undefined): SQL[] | null {
  if (q.type === "message") return null;
  if (q.status && !(callStatuses as readonly string[]).includes(q.status)) return null;
  if (q.type === "voicemail" && q.status && q.status !== "voicemail") return null;
  if (q.type === "call" && q.status === "voicemail") return null;
  const where: SQL[] = [eq(calls.organizationId, organizationId)];
  if (cursor) where.push(sql`(${calls.startedAt}, ${calls.id}) < (${microsToIso(cursor.t)}::timestamptz, ${cursor.id})`);
  if (q.type === "voicemail") where.push(eq(calls.status, "voicemail"));
  if (q.type === "call") where.push(ne(calls.status, "voicemail"));
  if (q.status) where.push(eq(calls.status, q.status as (typeof callStatuses)[number]));
  if (q.direction) where.push(eq(calls.direction, q.direction));
  if (q.phoneNumberId) where.push(eq(calls.phoneNumberId, q.phoneNumberId));
  if (q.spam !== undefined) where.push(eq(calls.isSpam, q.spam));
  if (q.from) where.push(gte(calls.startedAt, q.from));
  if (q.to) where.push(lte(calls.startedAt, q.to));
  return where;
}

function messageConditions(organizationId: string, q: HistoryQuery, cursor: Cursor | undefined): SQL[] | null {
  if (q.type !== "all" && q.type !== "message") return null;
  if (q.status && !(messageStatuses as readonly string[]).includes(q.status)) return null;
  const where: SQL[] = [eq(messages.organizationId, organizationId)];
  if (cursor) where.push(sql`(${messages.createdAt}, ${messages.id}) < (${microsToIso(cursor.t)}::timestamptz, ${cursor.id})`);
  if (q.status) where.push(eq(messages.status, q.status as (typeof messageStatuses)[number]));
  if (q.direction) where.push(eq(messages.direction, q.direction));
  if (q.phoneNumberId) where.push(eq(messages.phoneNumberId, q.phoneNumberId));
  if (q.spam !== undefined) where.push(eq(messages.isSpam, q.spam));
  if (q.from) where.push(gte(messages.createdAt, q.from));
  if (q.to) where.push(lte(messages.createdAt, q.to));
  return where;
}

/**
 * One page of calls and/or texts as one statement whose answer is one JSON value: the branches
 * (`(calls … limit n) union all (texts … limit n)`, or just one of them) each walk their own
 * (organization_id, timestamp, id) index and stop after `take` rows; the database orders and cuts the
 * union and writes each item in the API's shape, with the number it came in on (a left join on the
 * number's id and organization). A driver then decodes one value instead of 26 rows × 24 columns —
 * on embedded PGlite that decoding was most of the route's time (docs/benchmarks.md).
 * `at` holds the item's microseconds since the epoch until `toKeyed` turns it into the ISO time.
 */
function pageQuery(db: Db, callWhere: SQL[] | null, messageWhere: SQL[] | null, take: number | Placeholder, callSource?: SQL) {
  const number = sql`case when ${phoneNumbers.id} is null then null else json_build_object('id', ${phoneNumbers.id}, 'phoneNumber', ${phoneNumbers.phoneNumber}, 'friendlyName', ${phoneNumbers.friendlyName}) end as number`;
  const callBranch = (where: SQL[]) => sql`(select ${calls.startedAt} as at, ${calls.id} as id, json_build_object(
      'kind', case when ${calls.status} = 'voicemail' then 'voicemail' else 'call' end, 'id', ${calls.id}, 'at', ${epochMicros(calls.startedAt)},
      'channel', ${calls.channel}, 'direction', ${calls.direction}, 'from', ${calls.fromNumber}, 'to', ${calls.toNumber},
      'callerName', ${calls.callerName}, 'status', ${calls.status}, 'durationSeconds', ${calls.durationSeconds}, 'summary', ${calls.summary},
      'sentiment', ${calls.sentiment}, 'isSpam', ${calls.isSpam}, 'routedBecause', ${calls.routedBecause}, 'spamScore', ${calls.spamScore},
      'spamReasons', ${calls.spamReasons}, 'costCredits', ${calls.costCredits}, 'creditedBack', ${calls.creditedBack},
      'hasRecording', ${calls.recordingUrl} is not null) as item, ${number}
    from ${callSource ?? calls} left join ${phoneNumbers} on ${and(eq(phoneNumbers.id, calls.phoneNumberId), eq(phoneNumbers.organizationId, calls.organizationId))}
    where ${and(...where)} order by ${calls.startedAt} desc, ${calls.id} desc limit ${take})`;
  const messageBranch = (where: SQL[]) => sql`(select ${messages.createdAt} as at, ${messages.id} as id, json_build_object(
      'kind', 'message', 'id', ${messages.id}, 'at', ${epochMicros(messages.createdAt)}, 'direction', ${messages.direction},
      'from', ${messages.fromNumber}, 'to', ${messages.toNumber}, 'status', ${messages.status}, 'isSpam', ${messages.isSpam},
      'spamScore', ${messages.spamScore}, 'spamReasons', ${messages.spamReasons}, 'costCredits', ${messages.costCredits},
      'creditedBack', ${messages.creditedBack}, 'body', ${messages.body}) as item, ${number}
    from ${messages} left join ${phoneNumbers} on ${and(eq(phoneNumbers.id, messages.phoneNumberId), eq(phoneNumbers.organizationId, messages.organizationId))}
    where ${and(...where)} order by ${messages.createdAt} desc, ${messages.id} desc limit ${take})`;
  const branches = [callWhere && callBranch(callWhere), messageWhere && messageBranch(messageWhere)].filter((b): b is SQL => b !== null);
  // The newest `take` of the branches, in the same order the keyset bound compares.
  const union = branches.length === 1 ? branches[0] : sql`${sql.join(branches, sql` union all `)} order by at desc, id desc limit ${take}`;
  return db
    .select({ page: sql<PageItem[] | null>`json_agg(json_build_object('item', page.item, 'number', page.number) order by page.at desc, page.id desc)` })
    .from(sql`(${union}) as page`);
}

type PageItem = { item: Omit<HistoryItem, "phoneNumber" | "at"> & { at: string }; number: HistoryPhoneNumber | null };

function toKeyed({ item, number }: PageItem): Keyed {
  const t = BigInt(item.at);
  // The same instant a driver's Date would give (milliseconds), as the API has always written it.
  return { t, phoneNumber: number, item: { ...item, at: new Date(Number(t / BigInt(1000))).toISOString() } };
}

/** True when the query narrows nothing: all kinds, no status, direction, number, spam or dates. */
function unfiltered(q: HistoryQuery): boolean {
  return q.type === "all" && !q.status && !q.direction && !q.phoneNumberId && q.spam === undefined && !q.from && !q.to;
}

/**
 * The unfiltered pages (what Call History shows first, and every "Load more" after it), as two
 * statements prepared once per database handle: no planning per request (planning this statement
 * costs more than running it, most of all on PGlite — lib/platform/database-statements.ts).
 */
function preparedPages(db: Db) {
  const org = sql.placeholder("organizationId");
  const bound = (column: typeof calls.startedAt | typeof messages.createdAt, id: typeof calls.id | typeof messages.id) =>
    sql`(${column}, ${id}) < (${sql.placeholder("at")}::timestamptz, ${sql.placeholder("id")})`;
  const take = sql.placeholder("take");
  return {
    first: preparedStatement(db, "switchboard_history_first", () =>
      pageQuery(db, [sql`${calls.organizationId} = ${org}`], [sql`${messages.organizationId} = ${org}`], take),
    ),
    next: preparedStatement(db, "switchboard_history_next", () =>
      pageQuery(db, [sql`${calls.organizationId} = ${org}`, bound(calls.startedAt, calls.id)], [sql`${messages.organizationId} = ${org}`, bound(messages.createdAt, messages.id)], take),
    ),
  };
}

/** The newest `take` calls and/or texts matching the conditions (null: none of that kind). */
async function pageOf(
  db: Db,
  organizationId: string,
  q: HistoryQuery | null,
  callWhere: SQL[] | null,
  messageWhere: SQL[] | null,
  take: number,
  /** Calls read from this instead of the whole table (a subquery named "call"). */
  callSource?: SQL,
): Promise<Keyed[]> {
  if (!callWhere && !messageWhere) return [];
  let rows: { page: PageItem[] | null }[];
  if (q && unfiltered(q)) {
    const prepared = preparedPages(db);
    rows = q.cursor
      ? await prepared.next.execute({ organizationId, take, at: microsToIso(q.cursor.t), id: q.cursor.id })
      : await prepared.first.execute({ organizationId, take });
  } else {
    rows = await pageQuery(db, callWhere, messageWhere, take, callSource);
  }
  return (rows[0]?.page ?? []).map(toKeyed);
}

async function phoneNumbersById(db: Db, organizationId: string, ids: string[]): Promise<Map<string, HistoryPhoneNumber>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: phoneNumbers.id, phoneNumber: phoneNumbers.phoneNumber, friendlyName: phoneNumbers.friendlyName })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.organizationId, organizationId), inArray(phoneNumbers.id, ids)));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * One page of the organization's calls, texts and voicemails, newest first. Keyset pagination on
 * (timestamp, id): each table is read through its (organization_id, timestamp, id) index with the
 * same bound and `limit + 1` rows; with both, one `union all` keeps the newest `limit + 1` of the two.
 */
export async function listHistory(db: Db, organizationId: string, q: HistoryQuery): Promise<HistoryPage> {
  const take = q.limit + 1;
  const callWhere = callConditions(organizationId, q, q.cursor);
  const messageWhere = messageConditions(organizationId, q, q.cursor);
  const rows = await pageOf(db, organizationId, q, callWhere, messageWhere, take);
  // Rows arrive newest first from the database (the order its keyset bound uses).
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > q.limit && last ? encodeCursor({ t: last.t.toString(), id: last.item.id }) : null;
  return { items: page.map((k) => ({ ...k.item, phoneNumber: k.phoneNumber })), nextCursor };
}

/** `%` and `_` match themselves in a search, not any text. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The organization's calls whose caller, numbers, summary or transcript contain `query`
 * (case-insensitive), newest first. For the MCP tool search_calls. Three steps, each one statement
 * that stops early, so a search costs the same for a business with 1,000 calls and one with 1,000,000:
 *
 * 1. The newest SEARCH_RECENT_CALLS calls, read newest first through (organization_id, started_at),
 *    checked with `ilike`: a common word ("insurance") fills the page here. An organization with no
 *    more than SEARCH_WHOLE_UP_TO calls is searched whole this way, and that is the answer.
 * 2. Older calls through the full-text index (call_search_fts_idx, migration search_fts): the words of
 *    `query` in order, the last one as a prefix ("reference 777" finds "reference 7770"), each match
 *    checked with the same `ilike`. Merged with step 1's rows.
 * 3. Only when steps 1 and 2 found nothing: the trigram index (call_search_trgm_idx), which also
 *    finds text that starts mid-word ("ference 77", digits inside "+15550100001").
 *
 * So every call returned contains `query`. Among calls older than the newest SEARCH_RECENT_CALLS (of
 * an organization with more than SEARCH_WHOLE_UP_TO), a match that starts mid-word is found only when
 * no call matches at a word's start (docs/mcp.md).
 */
export async function searchCalls(db: Db, organizationId: string, query: string, limit: number): Promise<HistoryItem[]> {
  const text = query.trim();
  const pattern = likePattern(text);
  // Steps 1 and 2 check each call they read with `|| ''` added: not the trigram index's expression, so
  // the planner does not AND in that index's bitmap (its whole-table lists cost what step 2 saves).
  const where = [eq(calls.organizationId, organizationId), ilike(sql`(${SEARCHED_TEXT} || '')`, pattern)];
  // Whether the organization has more than SEARCH_WHOLE_UP_TO calls (one index entry past them). When
  // not, step 1 reads every call and is the whole answer (cheaper than any index for so few).
  const [more] = await db.select({ id: calls.id }).from(calls).where(eq(calls.organizationId, organizationId)).orderBy(sql`${calls.startedAt} desc`).offset(SEARCH_WHOLE_UP_TO).limit(1);
  // Step 1's calls (a subquery named like the table): read newest first through (organization_id,
  // started_at), checked one by one, stopped at `limit` matches.
  const newest = sql`(select * from ${calls} c2 where c2.organization_id = ${organizationId} order by c2.started_at desc, c2.id desc limit ${more ? SEARCH_RECENT_CALLS : SEARCH_WHOLE_UP_TO}) as "call"`;
  const recent = await pageOf(db, organizationId, null, where, null, limit, newest);
  if (recent.length >= limit || !more) return recent.map(toItem);
  // The words as PostgreSQL's own parser splits them (the index's), all of them required, the last a
  // prefix; cast, not parsed again (to_tsquery would split "follow-up" a second time). Words, not the
  // phrase: a phrase (`<->`) makes every row the index finds be parsed again from its transcript (0.2 ms
  // each: 212 ms for 1,111 rows at 1,000,000 calls); words alone are answered by the index, and the
  // phrase itself is the ILIKE check below. A query with no words (punctuation only) matches nothing.
  const words = sql`(regexp_replace(replace(phraseto_tsquery('simple', ${text})::text, ' <-> ', ' & '), '''$', ''':*'))::tsquery`;
  // Every call holding the words, through call_search_fts_idx (`offset 0` keeps the newest-first order
  // and the limit outside: with them inside, the planner walked (started_at) backwards expecting a
  // match soon and parsed 128,000 transcripts, 28 s at 1,000,000 calls), then the newest 4 × limit of
  // them get the same check as step 1.
  const withWords = sql`(select * from (select * from ${calls} where ${calls.organizationId} = ${organizationId} and ${SEARCHED_VECTOR} @@ ${words} offset 0) as w
    order by w.started_at desc, w.id desc limit ${limit * 4}) as "call"`;
  const byWords = await pageOf(db, organizationId, null, where, null, limit, withWords);
  const rows = mergeNewest([recent, byWords], limit);
  if (rows.length > 0) return rows.map(toItem);
  return (await pageOf(db, organizationId, null, [eq(calls.organizationId, organizationId), ilike(SEARCHED_TEXT, pattern)], null, limit)).map(toItem);
}

/** The text a search reads: the very expression call_search_trgm_idx indexes (migration scale_blobs_retention_sql). */
const SEARCHED_TEXT = sql`(coalesce(${calls.callerName}, '') || ' ' || ${calls.fromNumber} || ' ' || ${calls.toNumber} || ' ' || coalesce(${calls.summary}, '') || ' ' || (${calls.transcript}::text))`;
/** Its words: the very expression call_search_fts_idx indexes (migration search_fts). */
const SEARCHED_VECTOR = sql`to_tsvector('simple'::regconfig, ${SEARCHED_TEXT})`;

const toItem = (k: Keyed): HistoryItem => ({ ...k.item, phoneNumber: k.phoneNumber });

/** The newest `limit` of several newest-first lists, each item once. */
function mergeNewest(lists: Keyed[][], limit: number): Keyed[] {
  const byId = new Map<string, Keyed>();
  for (const k of lists.flat()) byId.set(k.item.id, k);
  return [...byId.values()].sort((a, b) => (a.t === b.t ? (a.item.id < b.item.id ? 1 : -1) : a.t < b.t ? 1 : -1)).slice(0, limit);
}

/**
 * An organization with at most this many calls is searched whole, call by call; a larger one checks
 * its newest SEARCH_RECENT_CALLS so, then asks the indexes — about the same work as the whole of a
 * small organization's (bench:scale, docs/benchmarks.md "Scale").
 */
const SEARCH_WHOLE_UP_TO = 1000;
const SEARCH_RECENT_CALLS = 250;

export type CallDetail = {
  id: string;
  kind: "call" | "voicemail";
  channel: "phone" | "agent";
  direction: "inbound" | "outbound";
  from: string;
  to: string;
  callerName: string | null;
  status: string;
  startedAt: string;
  endedAt: string | null;
  durationSeconds: number;
  transcript: TranscriptTurn[];
  summary: string | null;
  sentiment: "positive" | "neutral" | "negative" | null;
  intent: string | null;
  isSpam: boolean;
  /** Why the call went where it went ("After hours (…), rule 1: voicemail"). */
  routedBecause: string | null;
  /** 0–100, and the signals behind it; null when the call was never scored. */
  spamScore: number | null;
  spamReasons: string[];
  /** Credits the call spent, and credits given back (short, spam, failed on our side). */
  costCredits: number;
  creditedBack: number;
  recordingUrl: string | null;
  phoneNumber: HistoryPhoneNumber | null;
  assistant: { id: string; name: string } | null;
  /** What the caller got; `failureClass` is set whenever the assistant failed during the call. */
  outcome: CallOutcome | null;
  failureClass: FailureClass | null;
  /** 1 (very negative) … 5 (very positive), from the post-call analysis. */
  sentimentScore: number | null;
  actionItems: string[];
  /** What the assistant did (took_message, transferred, …), oldest first. */
  actions: { type: string; detail: Record<string, unknown>; at: string }[];
  voicemail: { transcript: string | null; transcriptionStatus: string | null; note: string | null } | null;
  provider: "twilio" | "simulated" | null;
  transport: "gather" | "relay" | null;
  analyzedAt: string | null;
  /** The consent record (docs/compliance.md#consent): the notice played, and whether the caller stayed on. */
  consent: ConsentView | null;
  /** The whole-call recording where consent held (docs/compliance.md#recordings): play `url`, save `downloadUrl`. */
  callRecording: CallRecordingView | null;
};

/** A call of the organization by the carrier's CallSid (the phone panel and the simulator know only that). */
export async function getCallDetailBySid(db: Db, organizationId: string, callSid: string): Promise<CallDetail> {
  const [row] = await db
    .select({ id: calls.id })
    .from(calls)
    .where(and(eq(calls.organizationId, organizationId), eq(calls.providerCallSid, callSid)))
    .limit(1);
  if (!row) throw notFound("Call");
  return getCallDetail(db, organizationId, row.id);
}

export async function getCallDetail(db: Db, organizationId: string, id: string): Promise<CallDetail> {
  const [row] = await db
    .select()
    .from(calls)
    .where(and(eq(calls.organizationId, organizationId), eq(calls.id, id)))
    .limit(1);
  if (!row) throw notFound("Call");
  const [numbers, assistant, actions, consent, callRecording] = await Promise.all([
    phoneNumbersById(db, organizationId, row.phoneNumberId ? [row.phoneNumberId] : []),
    row.assistantId
      ? db
          .select({ id: voiceAssistants.id, name: voiceAssistants.name })
          .from(voiceAssistants)
          .where(and(eq(voiceAssistants.organizationId, organizationId), eq(voiceAssistants.id, row.assistantId)))
          .limit(1)
      : Promise.resolve([]),
    db
      .select({ type: assistantActions.type, detail: assistantActions.detail, at: assistantActions.createdAt })
      .from(assistantActions)
      .where(and(eq(assistantActions.organizationId, organizationId), eq(assistantActions.callId, row.id)))
      .orderBy(asc(assistantActions.createdAt)),
    consentFor(db, organizationId, row.id),
    callRecordingFor(db, organizationId, row.id),
  ]);
  return {
    id: row.id,
    kind: row.status === "voicemail" ? "voicemail" : "call",
    channel: row.channel,
    direction: row.direction,
    from: row.fromNumber,
    to: row.toNumber,
    callerName: row.callerName,
    status: row.status,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt ? row.endedAt.toISOString() : null,
    durationSeconds: row.durationSeconds,
    transcript: row.transcript,
    summary: row.summary,
    sentiment: row.sentiment,
    intent: row.intent,
    isSpam: row.isSpam,
    routedBecause: row.routedBecause,
    spamScore: row.spamScore,
    spamReasons: row.spamReasons,
    costCredits: row.costCredits,
    creditedBack: row.creditedBack,
    recordingUrl: row.recordingUrl,
    phoneNumber: (row.phoneNumberId && numbers.get(row.phoneNumberId)) || null,
    assistant: assistant[0] ?? null,
    outcome: row.outcome,
    failureClass: row.failureClass,
    sentimentScore: row.sentimentScore,
    actionItems: row.actionItems,
    actions: actions.map((a) => ({ type: a.type, detail: a.detail, at: a.at.toISOString() })),
    voicemail:
      row.recordingSid || row.transcriptionStatus
        ? { transcript: row.voicemailTranscript, transcriptionStatus: row.transcriptionStatus, note: row.transcriptionNote }
        : null,
    provider: row.provider,
    transport: row.transport,
    analyzedAt: row.analyzedAt ? row.analyzedAt.toISOString() : null,
    consent,
    callRecording,
  };
}

export type MessageDetail = {
  id: string;
  kind: "message";
  direction: "inbound" | "outbound";
  from: string;
  to: string;
  body: string;
  status: string;
  isSpam: boolean;
  spamScore: number | null;
  spamReasons: string[];
  costCredits: number;
  creditedBack: number;
  intent: string | null;
  createdAt: string;
  phoneNumber: HistoryPhoneNumber | null;
  /** Who wrote an outbound text: the assistant, the owner, or the carrier rules (STOP/START/HELP). */
  sentBy: "assistant" | "owner" | "system" | null;
  /** The conversation with this contact on this number (last 50 texts, oldest first), with its opt-out. */
  thread: ThreadView | null;
};

export async function getMessageDetail(db: Db, organizationId: string, id: string): Promise<MessageDetail> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.organizationId, organizationId), eq(messages.id, id)))
    .limit(1);
  if (!row) throw notFound("Message");
  const [numbers, thread] = await Promise.all([
    phoneNumbersById(db, organizationId, row.phoneNumberId ? [row.phoneNumberId] : []),
    threadView(db, organizationId, row),
  ]);
  return {
    id: row.id,
    kind: "message",
    direction: row.direction,
    from: row.fromNumber,
    to: row.toNumber,
    body: row.body,
    status: row.status,
    isSpam: row.isSpam,
    spamScore: row.spamScore,
    spamReasons: row.spamReasons,
    costCredits: row.costCredits,
    creditedBack: row.creditedBack,
    intent: row.intent,
    createdAt: row.createdAt.toISOString(),
    phoneNumber: (row.phoneNumberId && numbers.get(row.phoneNumberId)) || null,
    sentBy: row.sentBy,
    thread,
  };
}
