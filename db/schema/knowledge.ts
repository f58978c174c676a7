import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { organizations } from "./organizations";
import { assistantReplies, calls, messages, voiceAssistants } from "./telephony";

/**
 * A question the assistant could not answer from the business's knowledge (issue: the receptionist).
 * One row per distinct open question (`questionKey` is the question normalised); each time it is
 * asked again an occurrence is added. The owner answers it once: the answer becomes an FAQ of the
 * business profile, and the gap is `answered`. `dismissed` gaps are not real questions (noise, spam).
 */
export const knowledgeGaps = pgTable(
  "knowledge_gap",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The question as first asked (or as the owner reworded it when answering). */
    question: text("question").notNull(),
    questionKey: text("question_key").notNull(),
    status: text("status", { enum: ["open", "answered", "dismissed"] }).notNull().default("open"),
    answer: text("answer"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    answeredByUserId: text("answered_by_user_id"),
    occurrences: integer("occurrences").notNull().default(1),
    firstAskedAt: timestamp("first_asked_at", { withTimezone: true }).notNull().defaultNow(),
    lastAskedAt: timestamp("last_asked_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("knowledge_gap_org_status_idx").on(t.organizationId, t.status, t.lastAskedAt),
    // At most one open gap per question: a repeat becomes an occurrence (an upsert, safe under concurrency).
    uniqueIndex("knowledge_gap_open_question_uq").on(t.organizationId, t.questionKey).where(sql`${t.status} = 'open'`),
  ],
);

/** Each time a gap's question was asked: where (a call, a text, a voice test, a chat) and what the assistant said. */
export const knowledgeGapOccurrences = pgTable(
  "knowledge_gap_occurrence",
  {
    id: text("id").primaryKey(),
    gapId: text("gap_id")
      .notNull()
      .references(() => knowledgeGaps.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    source: text("source", { enum: ["voice_test", "chat", "call", "sms"] }).notNull(),
    callId: text("call_id").references(() => calls.id, { onDelete: "set null" }),
    messageId: text("message_id").references(() => messages.id, { onDelete: "set null" }),
    chatSessionId: text("chat_session_id"),
    assistantId: text("assistant_id").references(() => voiceAssistants.id, { onDelete: "set null" }),
    assistantReplyId: text("assistant_reply_id").references(() => assistantReplies.id, { onDelete: "set null" }),
    /** The caller's words as said. */
    question: text("question").notNull(),
    /** What the assistant answered instead. */
    replyText: text("reply_text").notNull().default(""),
    askedAt: timestamp("asked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("knowledge_gap_occurrence_gap_idx").on(t.gapId, t.askedAt),
    index("knowledge_gap_occurrence_call_idx").on(t.organizationId, t.callId),
  ],
);
