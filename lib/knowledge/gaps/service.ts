import "server-only";
import crypto from "node:crypto";
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { calls, knowledgeGapOccurrences, knowledgeGaps } from "@/db/schema";
import { upsertFaq } from "@/lib/knowledge/business-profile/service";
import { notFound } from "@/lib/platform/http/errors";
import { questionKey } from "@/lib/platform/text/match";
import type { AnswerGapInput, GapSource, GapStatus, ListGapsQuery } from "./schema";

/**
 * Knowledge gaps: questions the assistant could not answer from the business's knowledge. Each
 * distinct open question is one gap; asking it again adds an occurrence (with the call, text, voice
 * test or chat it came from). The owner answers a gap once — in the app, or later by replying to the
 * daily recap, through `answerKnowledgeGap` — and the answer becomes an FAQ of the business profile,
 * which both the local responder and the language model read on the next turn.
 */

export type GapOccurrenceDto = {
  id: string;
  source: GapSource;
  callId: string | null;
  messageId: string | null;
  chatSessionId: string | null;
  assistantId: string | null;
  question: string;
  replyText: string;
  askedAt: string;
  /** The caller's number when the occurrence belongs to a call. */
  caller: string | null;
};

export type KnowledgeGapDto = {
  id: string;
  question: string;
  status: GapStatus;
  answer: string | null;
  answeredAt: string | null;
  occurrences: number;
  firstAskedAt: string;
  lastAskedAt: string;
  /** The latest time it was asked. */
  lastOccurrence: GapOccurrenceDto | null;
};

export type RecordGapInput = {
  organizationId: string;
  question: string;
  source: GapSource;
  callId?: string | null;
  messageId?: string | null;
  chatSessionId?: string | null;
  assistantId?: string | null;
  assistantReplyId?: string | null;
  replyText?: string;
  at?: Date;
};

/**
 * Logs a question the assistant could not answer: the open gap with the same question gains an
 * occurrence, or a new gap opens. Safe under concurrency (an upsert on the open-question index).
 */
export async function recordKnowledgeGap(db: DbOrTx, input: RecordGapInput): Promise<{ gapId: string; occurrenceId: string }> {
  const question = input.question.trim().replace(/\s+/g, " ").slice(0, 300);
  const at = input.at ?? new Date();
  const key = questionKey(question) || question.toLowerCase();
  const [gap] = await db
    .insert(knowledgeGaps)
    .values({ id: crypto.randomUUID(), organizationId: input.organizationId, question, questionKey: key, firstAskedAt: at, lastAskedAt: at })
    .onConflictDoUpdate({
      target: [knowledgeGaps.organizationId, knowledgeGaps.questionKey],
      targetWhere: sql`${knowledgeGaps.status} = 'open'`,
      set: {
        occurrences: sql`${knowledgeGaps.occurrences} + 1`,
        lastAskedAt: sql`greatest(${knowledgeGaps.lastAskedAt}, excluded.last_asked_at)`,
        updatedAt: new Date(),
      },
    })
    .returning({ id: knowledgeGaps.id });
  const occurrenceId = crypto.randomUUID();
  await db.insert(knowledgeGapOccurrences).values({
    id: occurrenceId,
    gapId: gap.id,
    organizationId: input.organizationId,
    source: input.source,
    callId: input.callId ?? null,
    messageId: input.messageId ?? null,
    chatSessionId: input.chatSessionId ?? null,
    assistantId: input.assistantId ?? null,
    assistantReplyId: input.assistantReplyId ?? null,
    question: input.question.trim().slice(0, 1000),
    replyText: (input.replyText ?? "").slice(0, 2000),
    askedAt: at,
  });
  return { gapId: gap.id, occurrenceId };
}

const occurrenceColumns = {
  id: knowledgeGapOccurrences.id,
  gapId: knowledgeGapOccurrences.gapId,
  source: knowledgeGapOccurrences.source,
  callId: knowledgeGapOccurrences.callId,
  messageId: knowledgeGapOccurrences.messageId,
  chatSessionId: knowledgeGapOccurrences.chatSessionId,
  assistantId: knowledgeGapOccurrences.assistantId,
  question: knowledgeGapOccurrences.question,
  replyText: knowledgeGapOccurrences.replyText,
  askedAt: knowledgeGapOccurrences.askedAt,
  caller: calls.fromNumber,
};

type OccurrenceRow = { gapId: string; askedAt: Date } & Omit<GapOccurrenceDto, "askedAt">;

function occurrenceDto(row: OccurrenceRow): GapOccurrenceDto {
  const { gapId: _gap, askedAt, ...rest } = row;
  void _gap;
  return { ...rest, askedAt: askedAt.toISOString() };
}

function selectOccurrences(db: DbOrTx, organizationId: string) {
  return db
    .select(occurrenceColumns)
    .from(knowledgeGapOccurrences)
    .leftJoin(calls, and(eq(calls.id, knowledgeGapOccurrences.callId), eq(calls.organizationId, organizationId)));
}

type GapRow = typeof knowledgeGaps.$inferSelect;

function gapDto(row: GapRow, last: GapOccurrenceDto | null): KnowledgeGapDto {
  return {
    id: row.id,
    question: row.question,
    status: row.status,
    answer: row.answer,
    answeredAt: row.answeredAt?.toISOString() ?? null,
    occurrences: row.occurrences,
    firstAskedAt: row.firstAskedAt.toISOString(),
    lastAskedAt: row.lastAskedAt.toISOString(),
    lastOccurrence: last,
  };
}

export async function countKnowledgeGaps(db: DbOrTx, organizationId: string): Promise<Record<GapStatus, number>> {
  const rows = await db
    .select({ status: knowledgeGaps.status, n: count() })
    .from(knowledgeGaps)
    .where(eq(knowledgeGaps.organizationId, organizationId))
    .groupBy(knowledgeGaps.status);
  const counts: Record<GapStatus, number> = { open: 0, answered: 0, dismissed: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/** GET /api/knowledge-gaps: the gaps with a status (most recently asked first) and the counts per status. */
export async function listKnowledgeGaps(db: DbOrTx, organizationId: string, query: ListGapsQuery) {
  const where =
    query.status === "all"
      ? eq(knowledgeGaps.organizationId, organizationId)
      : and(eq(knowledgeGaps.organizationId, organizationId), eq(knowledgeGaps.status, query.status));
  const [rows, counts] = await Promise.all([
    db.select().from(knowledgeGaps).where(where).orderBy(desc(knowledgeGaps.lastAskedAt), desc(knowledgeGaps.id)).limit(query.limit),
    countKnowledgeGaps(db, organizationId),
  ]);
  const latest = new Map<string, GapOccurrenceDto>();
  if (rows.length) {
    const ids = rows.map((r) => r.id);
    // The latest occurrence per gap, in one query.
    const occurrences = await selectOccurrences(db, organizationId)
      .where(
        and(
          eq(knowledgeGapOccurrences.organizationId, organizationId),
          sql`${knowledgeGapOccurrences.gapId} in ${ids}`,
          sql`${knowledgeGapOccurrences.askedAt} = (select max(o2.asked_at) from knowledge_gap_occurrence o2 where o2.gap_id = ${knowledgeGapOccurrences.gapId})`,
        ),
      );
    for (const o of occurrences) if (!latest.has(o.gapId)) latest.set(o.gapId, occurrenceDto(o));
  }
  return { items: rows.map((r) => gapDto(r, latest.get(r.id) ?? null)), counts };
}

async function loadGap(db: DbOrTx, organizationId: string, id: string): Promise<GapRow> {
  const [row] = await db.select().from(knowledgeGaps).where(and(eq(knowledgeGaps.id, id), eq(knowledgeGaps.organizationId, organizationId)));
  if (!row) throw notFound("Knowledge gap");
  return row;
}

/** GET /api/knowledge-gaps/{id}: the gap and every time it was asked (newest first, 100). */
export async function getKnowledgeGap(db: DbOrTx, organizationId: string, id: string) {
  const row = await loadGap(db, organizationId, id);
  const occurrences = (
    await selectOccurrences(db, organizationId)
      .where(and(eq(knowledgeGapOccurrences.organizationId, organizationId), eq(knowledgeGapOccurrences.gapId, id)))
      .orderBy(desc(knowledgeGapOccurrences.askedAt))
      .limit(100)
  ).map(occurrenceDto);
  return { ...gapDto(row, occurrences[0] ?? null), occurrenceList: occurrences };
}

/**
 * The owner's answer: it becomes an FAQ of the business profile (the question as asked, or as the
 * owner reworded it), and the gap is answered. Answering again replaces the FAQ's answer.
 */
export async function answerKnowledgeGap(db: Db, organizationId: string, id: string, input: AnswerGapInput, actorUserId: string | null) {
  const row = await loadGap(db, organizationId, id);
  const question = input.question ?? row.question;
  await db.transaction(async (tx) => {
    await upsertFaq(tx, organizationId, { question, answer: input.answer });
    await tx
      .update(knowledgeGaps)
      .set({ status: "answered", answer: input.answer, question, answeredAt: new Date(), answeredByUserId: actorUserId, updatedAt: new Date() })
      .where(and(eq(knowledgeGaps.id, id), eq(knowledgeGaps.organizationId, organizationId)));
  });
  return getKnowledgeGap(db, organizationId, id);
}

/** Not a real question (noise, spam, a mis-hearing): hidden from the open list, counted as dismissed. */
export async function dismissKnowledgeGap(db: DbOrTx, organizationId: string, id: string) {
  await loadGap(db, organizationId, id);
  await db
    .update(knowledgeGaps)
    .set({ status: "dismissed", updatedAt: new Date() })
    .where(and(eq(knowledgeGaps.id, id), eq(knowledgeGaps.organizationId, organizationId)));
  return getKnowledgeGap(db, organizationId, id);
}
