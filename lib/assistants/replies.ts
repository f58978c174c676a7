import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { assistantReplies } from "@/db/schema";
import { preparedSql } from "@/lib/database-statements";

export type NewAssistantReply = typeof assistantReplies.$inferInsert;

/**
 * Records one reply of an assistant (a voice-test or chat turn, a call turn, a text, an agent's
 * question) with its timings: the rows the analytics and the voice-test history read. Every
 * channel writes it here, as one statement planned once per embedded handle (a reply is written on
 * every turn: lib/database-statements.ts); inside a transaction it runs as written.
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
  const r = assistantReplies;
  return preparedSql(db, "switchboard_record_assistant_reply", (value) => sql`
    insert into ${r} (${sql.identifier(r.id.name)}, ${sql.identifier(r.organizationId.name)}, ${sql.identifier(r.assistantId.name)},
                      ${sql.identifier(r.callId.name)}, ${sql.identifier(r.source.name)}, ${sql.identifier(r.intent.name)},
                      ${sql.identifier(r.inputText.name)}, ${sql.identifier(r.replyText.name)}, ${sql.identifier(r.llmProvider.name)},
                      ${sql.identifier(r.ttsProvider.name)}, ${sql.identifier(r.llmFirstTokenMs.name)}, ${sql.identifier(r.llmTotalMs.name)},
                      ${sql.identifier(r.ttsFirstByteMs.name)}, ${sql.identifier(r.ttsTotalMs.name)}, ${sql.identifier(r.totalMs.name)},
                      ${sql.identifier(r.toolCalls.name)}, ${sql.identifier(r.createdAt.name)})
    values (${value("id")}, ${value("organizationId")}, ${value("assistantId")}, ${value("callId")}, ${value("source")}, ${value("intent")},
            ${value("inputText")}, ${value("replyText")}, ${value("llmProvider")}, ${value("ttsProvider")}, ${value("llmFirstTokenMs")},
            ${value("llmTotalMs")}, ${value("ttsFirstByteMs")}, ${value("ttsTotalMs")}, ${value("totalMs")}, ${value("toolCalls")}::jsonb,
            ${value("createdAt")}::timestamptz)
  `);
}
