import { getDashboardStats } from "@/lib/dashboard/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) =>
  getDashboardStats(db, ctx.organizationId),
);
