import { authedRoute } from "@/lib/identity/http/route";
import { listServices } from "@/lib/agents/mcp/service";

/** The MCP console's services and stats (advanced §7 MCP). */
export const GET = authedRoute({ permission: "mcp.manage" }, async (_req, { db, ctx }) => listServices(db, ctx));
