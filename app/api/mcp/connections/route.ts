import { authedRoute } from "@/lib/identity/http/route";
import { listConnections } from "@/lib/agents/mcp/connections";

/** MCP clients on Switchboard's own MCP server (advanced §3 "MCP connection"). */
export const GET = authedRoute({ permission: "mcp.manage" }, async (_req, { db, ctx }) => ({ connections: await listConnections(db, ctx) }));
