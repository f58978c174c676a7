import { createReportInput } from "@/lib/analytics/schema";
import { createReport, listReports } from "@/lib/analytics/reports";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute, json } from "@/lib/http/route";

export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) => ({ reports: await listReports(db, ctx.organizationId) }));

export const POST = authedRoute({ permission: "dashboard.read" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createReportInput);
  return json(await createReport(db, ctx, input), { status: 201 });
});
