import { getHealthNow, getSystemHealth } from "@/lib/reports/figures/service";
import { publicRoute } from "@/lib/identity/http/route";

/**
 * GET /api/status: the platform's health from lib/reports/figures, for the footer on every page. Anyone gets
 * the overall state; a signed-in caller also gets the parts that are degraded or down, how to
 * install them, and uptime (what is installed on the server is not told to strangers).
 */
export const GET = publicRoute({ session: "optional" }, async (_req, { db, session }) => {
  if (session) return getSystemHealth(db);
  // Every page's footer asks: a visitor's answer is the newest probes only (no 30-day uptime scan).
  const { status, checkedAt } = await getHealthNow(db);
  return { status, checkedAt };
});
