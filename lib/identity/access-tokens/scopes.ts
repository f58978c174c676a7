import type { Permission } from "@/lib/identity/auth/roles";

/**
 * What an access token may do on Switchboard's MCP server (docs/mcp.md#scopes). Each MCP tool
 * names the scope it needs (lib/channels/mcp/tools); the token's scopes are the connection's permissions.
 * Creating a token with a scope needs the role permission next to it. Client-safe.
 */
export const accessTokenScopes = [
  {
    id: "calls:read",
    label: "Read calls",
    description: "List and search calls; read a call with its transcript and summary.",
    permission: "calls.read",
  },
  {
    id: "messages:read",
    label: "Read texts",
    description: "List the organization's text messages.",
    permission: "messages.read",
  },
  {
    id: "messages:send",
    label: "Send texts",
    description: "Send a text message from one of the organization's phone numbers.",
    permission: "phone_numbers.write",
  },
  {
    id: "dashboard:read",
    label: "Read dashboard stats",
    description: "Totals of calls, texts and assistants, and the average response time.",
    permission: "dashboard.read",
  },
] as const satisfies readonly { id: string; label: string; description: string; permission: Permission }[];

export type AccessTokenScope = (typeof accessTokenScopes)[number]["id"];

export const accessTokenScopeIds = accessTokenScopes.map((s) => s.id) as [AccessTokenScope, ...AccessTokenScope[]];

export function isAccessTokenScope(value: unknown): value is AccessTokenScope {
  return typeof value === "string" && (accessTokenScopeIds as string[]).includes(value);
}
