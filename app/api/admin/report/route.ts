import { listOrganizations } from "@/lib/consoles/admin/service";
import { getPlatformStats } from "@/lib/consoles/admin/platform";
import { toCsv } from "@/lib/platform/text/csv";
import { csvResponse } from "@/lib/reports/analytics/reports";
import { authedRoute } from "@/lib/identity/http/route";

/** GET /api/admin/report: the master admin's Export Report (platform figures and organizations) as CSV. */
export const GET = authedRoute({ permission: "master.read" }, async (_req, { db }) => {
  const [stats, orgs] = await Promise.all([getPlatformStats(db), listOrganizations(db)]);
  const rows: unknown[][] = [
    ["metric", "value"],
    ["totalUsers", stats.totalUsers],
    ["totalOrganizations", stats.totalOrganizations],
    ["totalRevenue", stats.totalRevenue],
    ["totalCalls", stats.totalCalls],
    ["totalMessages", stats.totalMessages],
    ["totalCreditsUsed", stats.totalCreditsUsed],
    ["totalCreditsRemaining", stats.totalCreditsRemaining],
    ["activeSubscriptions", stats.activeSubscriptions],
    ["monthlyRecurringRevenue", stats.monthlyRecurringRevenue],
    ["uptimePercent", stats.uptime.percent],
    ...(["users", "revenue", "calls", "messages"] as const).map((k) => [`growth.${k}`, stats.growth[k].growth]),
    ...stats.creditUsage.map((c) => [`creditUsage.${c.category}`, c.credits]),
    ...stats.subscriptions.map((s) => [`subscriptions.${s.plan}`, s.organizations]),
    [],
    ["organization", "tier", "status", "credits", "members", "phoneNumbers", "assistants", "calls", "createdAt"],
    ...orgs.map((o) => [o.name, o.subscriptionTier, o.subscriptionStatus, o.credits, o.members, o.phoneNumbers, o.assistants, o.calls, o.createdAt]),
  ];
  return csvResponse(toCsv(rows), `platform-report-${new Date().toISOString().slice(0, 10)}.csv`);
});
