import { analyticsQuery } from "@/lib/reports/analytics/schema";
import { analyticsCsv, checkFilters, csvResponse, scopeFor } from "@/lib/reports/analytics/reports";
import { getAnalytics } from "@/lib/reports/analytics/service";
import { parseQuery } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

/** GET /api/analytics/export: the same query as GET /api/analytics, as CSV. */
export const GET = authedRoute({ permission: "dashboard.read" }, async (req, { db, ctx }) => {
  const { range, scope, ...filters } = parseQuery(req, analyticsQuery);
  const where = scopeFor(ctx, scope);
  await checkFilters(db, where.organizationId, filters);
  const analytics = await getAnalytics(db, where, range, filters);
  return csvResponse(analyticsCsv(analytics), `analytics-${range}-${analytics.to.slice(0, 10)}.csv`);
});
