import { getDashboardStats } from "@/lib/reports/dashboard/service";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) =>
  getDashboardStats(db, ctx.organizationId),
);
