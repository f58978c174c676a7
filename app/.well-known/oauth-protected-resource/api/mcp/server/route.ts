import { publicRoute } from "@/lib/identity/http/route";
import { mcpResourceMetadata } from "@/lib/channels/mcp/server";

/**
 * The MCP server's protected-resource metadata (RFC 9728), at the URL its 401 challenge advertises
 * as resource_metadata: bearer access tokens in the Authorization header, created in Settings.
 */
export const GET = publicRoute(async () =>
  Response.json(mcpResourceMetadata(), { headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" } }),
);
