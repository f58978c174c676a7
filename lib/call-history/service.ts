import "server-only";
import { and, asc, desc, eq, gte, ilike, inArray, lte, ne, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assistantActions, calls, messages, phoneNumbers, voiceAssistants, type CallOutcome, type FailureClass, type TranscriptTurn } from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import { threadView, type ThreadView } from "@/lib/telephony/sms";
import { encodeCursor, type Cursor } from "@/lib/http/pagination";
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

/** The number a call or text came in on, joined in the same statement (its own organization's only). */
const numberColumns = { id: phoneNumbers.id, phoneNumber: phoneNumbers.phoneNumber, friendlyName: phoneNumbers.friendlyName };

async function pageOfCalls(db: Db, where: SQL[], take: number): Promise<Keyed[]> {
  const rows = await db
    .select({
      id: calls.id,
      t: epochMicros(calls.startedAt),
      startedAt: calls.startedAt,
      direction: calls.direction,
      channel: calls.channel,
      fromNumber: calls.fromNumber,
      toNumber: calls.toNumber,
      callerName: calls.callerName,
      status: calls.status,
      durationSeconds: calls.durationSeconds,
      summary: calls.summary,
      sentiment: calls.sentiment,
      isSpam: calls.isSpam,
      routedBecause: calls.routedBecause,
      spamScore: calls.spamScore,
      spamReasons: calls.spamReasons,
      costCredits: calls.costCredits,
      creditedBack: calls.creditedBack,
      hasRecording: sql<boolean>`${calls.recordingUrl} is not null`,
      number: numberColumns,
    })
    .from(calls)
    .leftJoin(phoneNumbers, and(eq(phoneNumbers.id, calls.phoneNumberId), eq(phoneNumbers.organizationId, calls.organizationId)))
    .where(and(...where))
    .orderBy(desc(calls.startedAt), desc(calls.id))
    .limit(take);
  return rows.map((r) => ({
    t: BigInt(r.t),
    phoneNumber: r.number,
    item: {
      kind: r.status === "voicemail" ? "voicemail" : "call",
      id: r.id,
      at: r.startedAt.toISOString(),
      channel: r.channel,
      direction: r.direction,
      from: r.fromNumber,
      to: r.toNumber,
      callerName: r.callerName,
      status: r.status,
      durationSeconds: r.durationSeconds,
      summary: r.summary,
      sentiment: r.sentiment,
      isSpam: r.isSpam,
      routedBecause: r.routedBecause,
      spamScore: r.spamScore,
      spamReasons: r.spamReasons,
      costCredits: r.costCredits,
      creditedBack: r.creditedBack,
      hasRecording: Boolean(r.hasRecording),
    },
  }));
}

async function pageOfMessages(db: Db, where: SQL[], take: number): Promise<Keyed[]> {
  const rows = await db
    .select({
      id: messages.id,
      t: epochMicros(messages.createdAt),
      createdAt: messages.createdAt,
      direction: messages.direction,
      fromNumber: messages.fromNumber,
      toNumber: messages.toNumber,
      body: messages.body,
      status: messages.status,
      isSpam: messages.isSpam,
      spamScore: messages.spamScore,
      spamReasons: messages.spamReasons,
      costCredits: messages.costCredits,
      creditedBack: messages.creditedBack,
      number: numberColumns,
    })
    .from(messages)
    .leftJoin(phoneNumbers, and(eq(phoneNumbers.id, messages.phoneNumberId), eq(phoneNumbers.organizationId, messages.organizationId)))
    .where(and(...where))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(take);
  return rows.map((r) => ({
    t: BigInt(r.t),
    phoneNumber: r.number,
    item: {
      kind: "message",
      id: r.id,
      at: r.createdAt.toISOString(),
      direction: r.direction,
      from: r.fromNumber,
      to: r.toNumber,
      status: r.status,
      isSpam: r.isSpam,
      spamScore: r.spamScore,
      spamReasons: r.spamReasons,
      costCredits: r.costCredits,
      creditedBack: r.creditedBack,
      body: r.body,
    },
  }));
}

/**
 * Calls and texts in one statement (`(calls … limit n) union all (texts … limit n)`): each branch
 * still walks its own (organization_id, timestamp, id) index and stops after `take` rows; one round
 * trip instead of two (on embedded PGlite, whose one connection runs statements one at a time, that
 * is one turn instead of two).
 */
function bothQuery(db: Db, callWhere: SQL[], messageWhere: SQL[], take: number | Placeholder) {
  const callPart = db
    .select({
      kind: sql<"call" | "message">`'call'`,
      id: calls.id,
      t: epochMicros(calls.startedAt),
      at: calls.startedAt,
      direction: calls.direction,
      channel: sql<"phone" | "agent" | null>`${calls.channel}`,
      fromNumber: calls.fromNumber,
      toNumber: calls.toNumber,
      callerName: sql<string | null>`${calls.callerName}`,
      status: sql<string>`${calls.status}`,
      durationSeconds: sql<number | null>`${calls.durationSeconds}`,
      summary: sql<string | null>`${calls.summary}`,
      sentiment: sql<"positive" | "neutral" | "negative" | null>`${calls.sentiment}`,
      isSpam: calls.isSpam,
      routedBecause: sql<string | null>`${calls.routedBecause}`,
      spamScore: calls.spamScore,
      spamReasons: calls.spamReasons,
      costCredits: calls.costCredits,
      creditedBack: calls.creditedBack,
      hasRecording: sql<boolean>`${calls.recordingUrl} is not null`,
      body: sql<string | null>`null::text`,
      number: numberColumns,
    })
    .from(calls)
    .leftJoin(phoneNumbers, and(eq(phoneNumbers.id, calls.phoneNumberId), eq(phoneNumbers.organizationId, calls.organizationId)))
    .where(and(...callWhere))
    .orderBy(desc(calls.startedAt), desc(calls.id))
    .limit(take);
  const messagePart = db
    .select({
      kind: sql<"call" | "message">`'message'`,
      id: messages.id,
      t: epochMicros(messages.createdAt),
      at: messages.createdAt,
      direction: messages.direction,
      channel: sql<"phone" | "agent" | null>`null::text`,
      fromNumber: messages.fromNumber,
      toNumber: messages.toNumber,
      callerName: sql<string | null>`null::text`,
      status: sql<string>`${messages.status}`,
      durationSeconds: sql<number | null>`null::integer`,
      summary: sql<string | null>`null::text`,
      sentiment: sql<"positive" | "neutral" | "negative" | null>`null::text`,
      isSpam: messages.isSpam,
      routedBecause: sql<string | null>`null::text`,
      spamScore: messages.spamScore,
      spamReasons: messages.spamReasons,
      costCredits: messages.costCredits,
      creditedBack: messages.creditedBack,
      hasRecording: sql<boolean>`false`,
      body: sql<string | null>`${messages.body}`,
      number: numberColumns,
    })
    .from(messages)
    .leftJoin(phoneNumbers, and(eq(phoneNumbers.id, messages.phoneNumberId), eq(phoneNumbers.organizationId, messages.organizationId)))
    .where(and(...messageWhere))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(take);
  // The newest `take` of both, ordered and cut by the database (positions: `at` is column 4, `id` 2),
  // so only one page crosses the wire, in the same order the keyset bound compares.
  return callPart.unionAll(messagePart).orderBy(sql`4 desc, 2 desc`).limit(take);
}

type BothRow = Awaited<ReturnType<typeof bothQuery>>[number];

/**
 * The unfiltered pages (what Call History shows first, and every "Load more" after it), as two
 * statements prepared once per database handle: no planning per request (on PGlite the planning of
 * this union cost more than running it).
 */
function preparedBoth(db: Db) {
  const org = sql.placeholder("organizationId");
  const bound = (column: typeof calls.startedAt | typeof messages.createdAt, id: typeof calls.id | typeof messages.id) =>
    sql`(${column}, ${id}) < (${sql.placeholder("at")}::timestamptz, ${sql.placeholder("id")})`;
  const take = sql.placeholder("take");
  return {
    first: bothQuery(db, [sql`${calls.organizationId} = ${org}`], [sql`${messages.organizationId} = ${org}`], take).prepare("switchboard_history_first"),
    next: bothQuery(
      db,
      [sql`${calls.organizationId} = ${org}`, bound(calls.startedAt, calls.id)],
      [sql`${messages.organizationId} = ${org}`, bound(messages.createdAt, messages.id)],
      take,
    ).prepare("switchboard_history_next"),
  };
}

type PreparedBoth = ReturnType<typeof preparedBoth>;
const globalForHistory = globalThis as unknown as { __switchboardHistory?: WeakMap<Db, PreparedBoth> };

function preparedFor(db: Db): PreparedBoth {
  const byDb = (globalForHistory.__switchboardHistory ??= new WeakMap());
  let prepared = byDb.get(db);
  if (!prepared) {
    prepared = preparedBoth(db);
    byDb.set(db, prepared);
  }
  return prepared;
}

/** True when the query narrows nothing: all kinds, no status, direction, number, spam or dates. */
function unfiltered(q: HistoryQuery): boolean {
  return q.type === "all" && !q.status && !q.direction && !q.phoneNumberId && q.spam === undefined && !q.from && !q.to;
}

async function pageOfBoth(db: Db, organizationId: string, q: HistoryQuery, callWhere: SQL[], messageWhere: SQL[], take: number): Promise<Keyed[]> {
  let rows: BothRow[];
  if (unfiltered(q)) {
    const prepared = preparedFor(db);
    rows = q.cursor
      ? await prepared.next.execute({ organizationId, take, at: microsToIso(q.cursor.t), id: q.cursor.id })
      : await prepared.first.execute({ organizationId, take });
  } else {
    rows = await bothQuery(db, callWhere, messageWhere, take);
  }
  return rows.map((r): Keyed => {
    const t = BigInt(r.t);
    if (r.kind === "message") {
      return {
        t,
        phoneNumber: r.number,
        item: {
          kind: "message",
          id: r.id,
          at: r.at.toISOString(),
          direction: r.direction,
          from: r.fromNumber,
          to: r.toNumber,
          status: r.status,
          isSpam: r.isSpam,
          spamScore: r.spamScore,
          spamReasons: r.spamReasons,
          costCredits: r.costCredits,
          creditedBack: r.creditedBack,
          body: r.body ?? "",
        },
      };
    }
    return {
      t,
      phoneNumber: r.number,
      item: {
        kind: r.status === "voicemail" ? "voicemail" : "call",
        id: r.id,
        at: r.at.toISOString(),
        channel: r.channel ?? "phone",
        direction: r.direction,
        from: r.fromNumber,
        to: r.toNumber,
        callerName: r.callerName,
        status: r.status,
        durationSeconds: Number(r.durationSeconds ?? 0),
        summary: r.summary,
        sentiment: r.sentiment,
        isSpam: r.isSpam,
        routedBecause: r.routedBecause,
        spamScore: r.spamScore,
        spamReasons: r.spamReasons,
        costCredits: r.costCredits,
        creditedBack: r.creditedBack,
        hasRecording: Boolean(r.hasRecording),
      },
    };
  });
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
  const rows =
    callWhere && messageWhere
      ? await pageOfBoth(db, organizationId, q, callWhere, messageWhere, take)
      : callWhere
        ? await pageOfCalls(db, callWhere, take)
        : messageWhere
          ? await pageOfMessages(db, messageWhere, take)
          : [];
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
 * (case-insensitive), newest first. For the MCP tool search_calls.
 */
export async function searchCalls(db: Db, organizationId: string, query: string, limit: number): Promise<HistoryItem[]> {
  const pattern = likePattern(query.trim());
  const where = [
    eq(calls.organizationId, organizationId),
    or(
      ilike(calls.callerName, pattern),
      ilike(calls.fromNumber, pattern),
      ilike(calls.toNumber, pattern),
      ilike(calls.summary, pattern),
      ilike(sql`${calls.transcript}::text`, pattern),
    )!,
  ];
  const rows = await pageOfCalls(db, where, limit);
  return rows.map((k) => ({ ...k.item, phoneNumber: k.phoneNumber }));
}

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
  const [numbers, assistant, actions] = await Promise.all([
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
