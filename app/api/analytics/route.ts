import { analyticsQuery } from "@/lib/reports/analytics/schema";
import { checkFilters, scopeFor } from "@/lib/reports/analytics/reports";
import { getAnalytics } from "@/lib/reports/analytics/service";
import { parseQuery } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

/** GET /api/analytics: the caller's organization; scope=platform for admins. */
export const GET = authedRoute({ permission: "dashboard.read" }, async (req, { db, ctx }) => {
  const { range, scope, ...filters } = parseQuery(req, analyticsQuery);
  const where = scopeFor(ctx, scope);
  await checkFilters(db, where.organizationId, filters);
  return getAnalytics(db, where, range, filters);
});
