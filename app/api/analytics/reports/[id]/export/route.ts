import { csvResponse, reportCsv, runReport } from "@/lib/reports/analytics/reports";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx, params }) => {
  const run = await runReport(db, ctx.organizationId, params.id);
  return csvResponse(reportCsv(run), `report-${run.to.slice(0, 10)}.csv`);
});
