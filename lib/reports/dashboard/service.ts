import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { preparedStatement } from "@/lib/platform/database-statements";
import { organizationCounts, voiceAssistants } from "@/db/schema";
import type { SentimentFigure } from "@/lib/reports/figures";
import { getSentiment } from "@/lib/reports/figures/service";
import { getCreditsUsed } from "@/lib/workspace/billing/credits-used";

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
 * (lib/platform/database-statements.ts). Calls, texts and reply times come from organization_count, kept
 * by triggers as rows are written (migration scale_blobs_retention_sql): one row, however long the
 * history (issue 29: counting 1,000,000 calls took 520 ms).
 */
function statsStatement(db: Db) {
  const org = sql.placeholder("organizationId");
  return preparedStatement(db, "switchboard_dashboard_stats", () =>
    db
      .select({
        totalCalls: sql<number>`coalesce((select ${organizationCounts.calls} from ${organizationCounts} where ${organizationCounts.organizationId} = ${org}), 0)::int`,
        activeAssistants: sql<number>`(select count(*) from ${voiceAssistants} where ${voiceAssistants.organizationId} = ${org} and ${voiceAssistants.isActive})::int`,
        totalMessages: sql<number>`coalesce((select ${organizationCounts.messages} from ${organizationCounts} where ${organizationCounts.organizationId} = ${org}), 0)::int`,
        avgMs: sql<string | null>`(select ${organizationCounts.replyMsSum}::numeric / nullif(${organizationCounts.replyMsCount}, 0) from ${organizationCounts} where ${organizationCounts.organizationId} = ${org})::text`,
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

/** The window of the dashboard's figures: the same 30 days as CRM Voice and Analytics' "30d". */
export const DASHBOARD_FIGURES_DAYS = 30;

export type DashboardFigures = {
  windowDays: number;
  since: string;
  /** lib/reports/figures: positive share and mean 1–5 score of the analysed calls, with how many were analysed. */
  sentiment: SentimentFigure;
  /** lib/reports/figures: credits spent less credits given back. */
  creditsUsed: number;
};

/** The dashboard's figures that other screens show too, computed by lib/reports/figures so they read the same everywhere. */
export async function getDashboardFigures(db: Db, organizationId: string, now = new Date()): Promise<DashboardFigures> {
  const since = new Date(now.getTime() - DASHBOARD_FIGURES_DAYS * 86_400_000);
  const [sentiment, credits] = await Promise.all([getSentiment(db, organizationId, since, now), getCreditsUsed(db, organizationId, since, now)]);
  return { windowDays: DASHBOARD_FIGURES_DAYS, since: since.toISOString(), sentiment, creditsUsed: credits.used };
}
