import "server-only";
import { sql } from "drizzle-orm";
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

/**
 * The four figures in one statement (one round trip; on embedded PGlite, whose one connection runs
 * statements one after another, four queries cost four turns). Each count walks an index that
 * starts with organization_id (call_org_started_idx, message_org_created_idx, …).
 */
export async function getDashboardStats(db: Db, organizationId: string): Promise<DashboardStats> {
  const { rows } = await db.execute<{ total_calls: number; active_assistants: number; total_messages: number; avg_ms: string | null }>(sql`
    select
      (select count(*) from ${calls} where ${calls.organizationId} = ${organizationId})::int as total_calls,
      (select count(*) from ${voiceAssistants}
        where ${voiceAssistants.organizationId} = ${organizationId} and ${voiceAssistants.isActive})::int as active_assistants,
      (select count(*) from ${messages} where ${messages.organizationId} = ${organizationId})::int as total_messages,
      (select avg(${assistantReplies.totalMs}) from ${assistantReplies} where ${assistantReplies.organizationId} = ${organizationId}) as avg_ms`);
  const row = rows[0];
  return {
    totalCalls: Number(row.total_calls),
    activeAssistants: Number(row.active_assistants),
    totalMessages: Number(row.total_messages),
    avgResponseTime: formatSeconds(row.avg_ms === null ? null : Number(row.avg_ms)),
  };
}
