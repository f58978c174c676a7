import "server-only";
import { and, avg, count, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assistantReplies, calls, messages, voiceAssistants } from "@/db/schema";

export type DashboardStats = {
  totalCalls: number;
  activeAssistants: number;
  totalMessages: number;
  /** Mean server time of the organization's assistant replies, e.g. "1.2s"; "—" until there is one. */
  avgResponseTime: string;
};

export function formatSeconds(ms: number | null): string {
  if (ms === null || Number.isNaN(ms)) return "—";
  return `${(ms / 1000).toFixed(1)}s`;
}

export async function getDashboardStats(db: Db, organizationId: string): Promise<DashboardStats> {
  const [[callRow], [assistantRow], [messageRow], [replyRow]] = await Promise.all([
    db.select({ n: count() }).from(calls).where(eq(calls.organizationId, organizationId)),
    db
      .select({ n: count() })
      .from(voiceAssistants)
      .where(and(eq(voiceAssistants.organizationId, organizationId), eq(voiceAssistants.isActive, true))),
    db.select({ n: count() }).from(messages).where(eq(messages.organizationId, organizationId)),
    db.select({ ms: avg(assistantReplies.totalMs) }).from(assistantReplies).where(eq(assistantReplies.organizationId, organizationId)),
  ]);
  return {
    totalCalls: callRow.n,
    activeAssistants: assistantRow.n,
    totalMessages: messageRow.n,
    avgResponseTime: formatSeconds(replyRow.ms === null ? null : Number(replyRow.ms)),
  };
}
