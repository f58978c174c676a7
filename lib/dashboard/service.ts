import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { preparedStatement } from "@/lib/database-statements";
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
 * statements one after another, four queries cost four turns), planned once per database handle
 * (lib/database-statements.ts). Each count walks an index that starts with organization_id
 * (call_org_started_idx, message_org_created_idx, …).
 */
function statsStatement(db: Db) {
  const org = sql.placeholder("organizationId");
  return preparedStatement(db, "switchboard_dashboard_stats", () =>
    db
      .select({
        totalCalls: sql<number>`(select count(*) from ${calls} where ${calls.organizationId} = ${org})::int`,
        activeAssistants: sql<number>`(select count(*) from ${voiceAssistants} where ${voiceAssistants.organizationId} = ${org} and ${voiceAssistants.isActive})::int`,
        totalMessages: sql<number>`(select count(*) from ${messages} where ${messages.organizationId} = ${org})::int`,
        avgMs: sql<string | null>`(select avg(${assistantReplies.totalMs}) from ${assistantReplies} where ${assistantReplies.organizationId} = ${org})::text`,
      })
      .from(sql`(values (1)) as one`),
  );
}

export async function getDashboardStats(db: Db, organizationId: string): Promise<DashboardStats> {
  const [row] = await statsStatement(db).execute({ organizationId });
  return {
    totalCalls: Number(row.totalCalls),
    activeAssistants: Number(row.activeAssistants),
    totalMessages: Number(row.totalMessages),
    avgResponseTime: formatSeconds(row.avgMs === null ? null : Number(row.avgMs)),
  };
}
