import "server-only";
import type { DbOrTx } from "@/db/client";
import { assistantReplies } from "@/db/schema";
import { insertEveryColumn, preparedSql } from "@/lib/platform/database-statements";

export type NewAssistantReply = typeof assistantReplies.$inferInsert;

/**
 * Records one reply of an assistant (a voice-test or chat turn, a call turn, a text, an agent's
 * question) with its timings: the rows the analytics and the voice-test history read. Every
 * channel writes it here, as one statement planned once per embedded handle (a reply is written on
 * every turn: lib/platform/database-statements.ts); inside a transaction it runs as written.
 */
export async function recordAssistantReply(db: DbOrTx, reply: NewAssistantReply): Promise<void> {
  await replyStatement(db).execute({
    id: reply.id ?? crypto.randomUUID(),
    organizationId: reply.organizationId,
    assistantId: reply.assistantId ?? null,
    callId: reply.callId ?? null,
    source: reply.source,
    intent: reply.intent ?? null,
    inputText: reply.inputText,
    replyText: reply.replyText,
    llmProvider: reply.llmProvider,
    ttsProvider: reply.ttsProvider ?? null,
    llmFirstTokenMs: reply.llmFirstTokenMs ?? null,
    llmTotalMs: reply.llmTotalMs,
    ttsFirstByteMs: reply.ttsFirstByteMs ?? null,
    ttsTotalMs: reply.ttsTotalMs ?? null,
    totalMs: reply.totalMs,
    toolCalls: JSON.stringify(reply.toolCalls ?? []),
    createdAt: (reply.createdAt ?? new Date()).toISOString(),
  });
}

function replyStatement(db: DbOrTx) {
  return preparedSql(db, "switchboard_record_assistant_reply", (value) => insertEveryColumn(assistantReplies, value));
}
