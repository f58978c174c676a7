import { getDashboardFigures } from "@/lib/reports/dashboard/service";
import { authedRoute } from "@/lib/identity/http/route";

/** GET /api/dashboard/figures: caller sentiment and credits used over the last 30 days (lib/reports/figures). */
export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) => getDashboardFigures(db, ctx.organizationId));
