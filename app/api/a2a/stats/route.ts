import { getStats } from "@/lib/agents/a2a/service";
import { authedRoute } from "@/lib/identity/http/route";

/** Polled every 5 s by the console (advanced §9). */
export const GET = authedRoute({ permission: "a2a.manage" }, async (_req, { db, ctx }) => getStats(db, ctx));
