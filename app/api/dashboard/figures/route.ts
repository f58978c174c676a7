import { getDashboardFigures } from "@/lib/dashboard/service";
import { authedRoute } from "@/lib/http/route";

/** GET /api/dashboard/figures: caller sentiment and credits used over the last 30 days (lib/figures). */
export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) => getDashboardFigures(db, ctx.organizationId));
