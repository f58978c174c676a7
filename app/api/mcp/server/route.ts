import { publicRoute } from "@/lib/identity/http/route";
import { handleMcpServerRequest } from "@/lib/channels/mcp/server";

/**
 * Switchboard's MCP server (Streamable HTTP; docs/mcp.md). Public at the HTTP level: the MCP layer
 * requires an organization access token and answers 401 with a Bearer challenge without one.
 */
const handler = publicRoute(async (req, { db }) => handleMcpServerRequest(db, req));

export { handler as GET, handler as POST, handler as DELETE };
