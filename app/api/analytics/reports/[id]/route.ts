import { deleteReport, runReport } from "@/lib/reports/analytics/reports";
import { authedRoute } from "@/lib/identity/http/route";

/** Runs the saved report now. */
export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx, params }) => runReport(db, ctx.organizationId, params.id));

export const DELETE = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx, params }) => deleteReport(db, ctx.organizationId, params.id));
