import { jobDefinitions } from "@/lib/all-jobs";
import { runScheduledWork } from "@/lib/platform/jobs/cron";
import { publicRoute } from "@/lib/identity/http/route";

/**
 * GET/POST /api/cron/jobs — for hosts without long-lived processes (Vercel Cron, a system cron):
 * runs due recurring and queued jobs for up to ~20 s. `Authorization: Bearer $CRON_SECRET`.
 */
const handler = publicRoute(async (req) => runScheduledWork(req.headers.get("authorization"), jobDefinitions));
export const GET = handler;
export const POST = handler;
