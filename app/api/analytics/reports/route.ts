import { createReportInput } from "@/lib/reports/analytics/schema";
import { createReport, listReports } from "@/lib/reports/analytics/reports";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) => ({ reports: await listReports(db, ctx.organizationId) }));

export const POST = authedRoute({ permission: "dashboard.read" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createReportInput);
  return json(await createReport(db, ctx, input), { status: 201 });
});
