import { getSystemHealth } from "@/lib/figures/service";
import { publicRoute } from "@/lib/http/route";

/**
 * GET /api/status: the platform's health from lib/figures, for the footer on every page. Anyone gets
 * the overall state; a signed-in caller also gets the parts that are degraded or down, how to
 * install them, and uptime (what is installed on the server is not told to strangers).
 */
export const GET = publicRoute({ session: "optional" }, async (_req, { db, session }) => {
  const health = await getSystemHealth(db);
  if (!session) return { status: health.status, checkedAt: health.checkedAt };
  return health;
});
