import "server-only";
import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { calls, type TranscriptTurn } from "@/db/schema";
import { orgAgentUrl } from "./card";

/**
 * Every exchange with another AI agent lands in Call History as a conversation (docs/decisions.md
 * "A2A conversations in Call History"): one `call` row per A2A context, with channel "agent",
 * direction inbound, the calling agent's name as the caller and its URL (or "A2A agent") as the
 * number, and a transcript where the calling agent's turns have speaker "agent" and the answers
 * speaker "assistant". Later messages of the same context are appended to the same row.
 */
export type AgentSender = { name: string | null; agentUrl: string | null };

export function conversationKey(organizationId: string, contextId: string): string {
  return `a2a:${organizationId}:${contextId}`;
}

export async function conversationTranscript(db: Db, organizationId: string, contextId: string): Promise<TranscriptTurn[]> {
  const [row] = await db
    .select({ transcript: calls.transcript })
    .from(calls)
    .where(and(eq(calls.organizationId, organizationId), eq(calls.providerCallSid, conversationKey(organizationId, contextId))))
    .limit(1);
  return row?.transcript ?? [];
}

export async function recordExchange(
  db: Db,
  input: {
    organizationId: string;
    contextId: string;
    sender: AgentSender;
    assistantId: string | null;
    turns: TranscriptTurn[];
    summary: string;
    intent: string | null;
    status: "completed" | "failed";
  },
): Promise<string> {
  const now = new Date();
  const key = conversationKey(input.organizationId, input.contextId);
  const [row] = await db
    .insert(calls)
    .values({
      id: crypto.randomUUID(),
      organizationId: input.organizationId,
      assistantId: input.assistantId,
      providerCallSid: key,
      direction: "inbound",
      channel: "agent",
      fromNumber: (input.sender.agentUrl ?? "A2A agent").slice(0, 500),
      toNumber: orgAgentUrl(input.organizationId),
      callerName: input.sender.name?.slice(0, 200) ?? null,
      status: input.status,
      startedAt: now,
      endedAt: now,
      durationSeconds: 0,
      transcript: input.turns,
      summary: input.summary.slice(0, 2000),
      intent: input.intent,
    })
    .onConflictDoUpdate({
      target: calls.providerCallSid,
      set: {
        transcript: sql`${calls.transcript} || ${JSON.stringify(input.turns)}::jsonb`,
        endedAt: now,
        durationSeconds: sql`greatest(0, floor(extract(epoch from (${now}::timestamptz - ${calls.startedAt}))))::int`,
        summary: input.summary.slice(0, 2000),
        intent: input.intent,
        status: input.status,
      },
    })
    .returning({ id: calls.id });
  return row.id;
}
