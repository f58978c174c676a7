import { authedRoute } from "@/lib/identity/http/route";
import { getMcpHealth } from "@/lib/agents/mcp/health";

/** Polled every 30 s by the console (advanced §9). */
export const GET = authedRoute({ permission: "mcp.manage" }, async (_req, { db, ctx }) => getMcpHealth(db, ctx));
