import "server-only";
import { createMcpHandler, withMcpAuth } from "mcp-handler";
import { OAuthError, OAuthErrorCode, type AuthInfo, type McpServer } from "@modelcontextprotocol/server";
import type { Db } from "@/db/client";
import { verifyAccessToken } from "@/lib/identity/access-tokens/service";
import { accessTokenScopeIds, type AccessTokenScope } from "@/lib/identity/access-tokens/scopes";
import { env } from "@/lib/platform/env";
import { getDb } from "@/lib/platform/database";
import { HttpError } from "@/lib/platform/http/errors";
import { readBodyText } from "@/lib/platform/http/parse";
import { hitRateLimit } from "@/lib/platform/http/rate-limit";
import { recordMcpRequest, requestInfoFromBody } from "@/lib/agents/mcp/connections";
import { switchboardTools } from "./tools";
import { errorForLog } from "@/lib/platform/database-errors";

/**
 * Switchboard's own MCP server at /api/mcp/server (docs/mcp.md): Streamable HTTP hosted by
 * mcp-handler, which serves protocol 2026-07-28 natively and 2025-era clients statelessly from the
 * same handler. Every request needs an organization access token (`Authorization: Bearer sbat_…`,
 * Settings → API Keys → Access tokens); the tools work on that organization's data, and each one
 * checks that the token carries its scope. Requests are recorded as connections and rate-limited
 * per token.
 */
export const MCP_SERVER_INFO = { name: "switchboard", version: "1.0.0" } as const;

/** Requests one token may make per minute. */
export const MCP_RATE_LIMIT_PER_MINUTE = 600;

type SwitchboardAuth = { organizationId: string; accessTokenId: string };

function callerOf(authInfo: AuthInfo | undefined): (SwitchboardAuth & { scopes: string[] }) | null {
  const extra = authInfo?.extra as Partial<SwitchboardAuth> | undefined;
  if (!authInfo || !extra?.organizationId || !extra.accessTokenId) return null;
  return { organizationId: extra.organizationId, accessTokenId: extra.accessTokenId, scopes: authInfo.scopes };
}

function textResult(text: string, isError = false) {
  return { content: [{ type: "text" as const, text }], ...(isError ? { isError: true } : {}) };
}

/** Registers every tool of the registry on a (per-request) server. */
export function registerSwitchboardTools(server: McpServer): void {
  for (const tool of switchboardTools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: `${tool.description} Needs the ${tool.scope} scope.`,
        inputSchema: tool.input,
        annotations: { readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: !tool.readOnly },
      },
      async (args: unknown, ctx) => {
        const caller = callerOf(ctx.http?.authInfo);
        if (!caller) return textResult("Unauthorized: this server needs an access token.", true);
        if (!caller.scopes.includes(tool.scope as AccessTokenScope)) {
          return textResult(`insufficient_scope: ${tool.name} requires the ${tool.scope} scope, which this access token does not have.`, true);
        }
        try {
          const result = await tool.run(args as never, { db: await getDb(), organizationId: caller.organizationId });
          return { content: [{ type: "text" as const, text: JSON.stringify(result, null, 2) }], structuredContent: result };
        } catch (error) {
          if (error instanceof HttpError) return textResult(error.message, true);
          console.error(`[mcp] tool ${tool.name} failed:`, errorForLog(error));
          return textResult(`${tool.name} failed unexpectedly. Please try again.`, true);
        }
      },
    );
  }
}

const globalForMcp = globalThis as unknown as { __switchboardMcpHandler?: (req: Request) => Promise<Response> };

function mcpHandler(): (req: Request) => Promise<Response> {
  globalForMcp.__switchboardMcpHandler ??= createMcpHandler(registerSwitchboardTools, {
    serverInfo: MCP_SERVER_INFO,
    instructions:
      "Switchboard is a business's AI phone desk. These tools read the organization's calls (with transcripts and summaries) and text messages, send texts from its numbers, and report its dashboard figures. Times are ISO 8601; phone numbers are E.164.",
    telemetry: false,
  });
  return globalForMcp.__switchboardMcpHandler;
}

/**
 * Answers one HTTP request to the MCP endpoint: 401 (with a Bearer challenge) without a live token,
 * 429 over the rate limit, else the MCP response.
 */
export async function handleMcpServerRequest(db: Db, req: Request): Promise<Response> {
  const refused = refuseForeignHostOrOrigin(req);
  if (refused) return refused;
  const authed = withMcpAuth(
    async (request: Request) => {
      const caller = callerOf(request.auth);
      if (caller) {
        await hitRateLimit(db, `mcp:${caller.accessTokenId}`, MCP_RATE_LIMIT_PER_MINUTE, 60_000, "Too many requests for this access token. Please slow down.");
        // The body is read once here, and handed on as a fresh request (its size is bounded like every route's).
        const text = request.method === "POST" ? await readBodyText(request) : "";
        let body: unknown = null;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = null;
        }
        await recordMcpRequest(db, { ...requestInfoFromBody(body), accessTokenId: caller.accessTokenId, organizationId: caller.organizationId });
        const forwarded = new Request(request.url, { method: request.method, headers: request.headers, body: request.method === "POST" ? text : undefined });
        forwarded.auth = request.auth;
        return mcpHandler()(forwarded);
      }
      return mcpHandler()(request);
    },
    async (_request, bearer) => {
      const token = await verifyAccessToken(db, bearer);
      // A token was presented and is not a live one: say so (not "No authorization provided").
      if (!token && bearer) throw new OAuthError(OAuthErrorCode.InvalidToken, TOKEN_REFUSED_MESSAGE);
      if (!token) return undefined;
      return {
        token: bearer!,
        clientId: token.id,
        scopes: token.scopes,
        extra: { organizationId: token.organizationId, accessTokenId: token.id },
      } satisfies AuthInfo;
    },
    { required: true, resourceUrl: publicOrigin(), resourceMetadataPath: MCP_RESOURCE_METADATA_PATH },
  );
  return authed(req);
}

export const TOKEN_REFUSED_MESSAGE =
  "The access token was refused: it is unknown, revoked or expired. Create a new one in Settings → API Keys → Access tokens.";

/** Where the protected-resource metadata (RFC 9728) of /api/mcp/server is served: the path-inserted well-known URL. */
export const MCP_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource/api/mcp/server";

function publicOrigin(): string {
  return new URL(env.PUBLIC_URL).origin;
}

/** RFC 9728 metadata: this resource takes bearer access tokens in the header, issued in Settings (no OAuth server). */
export function mcpResourceMetadata() {
  const origin = publicOrigin();
  return {
    resource: `${origin}/api/mcp/server`,
    authorization_servers: [],
    bearer_methods_supported: ["header"],
    scopes_supported: [...accessTokenScopeIds],
    resource_name: "Switchboard MCP server",
    resource_documentation: `${origin}/integrations`,
  };
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The MCP transport's DNS-rebinding defence (Streamable HTTP: servers MUST validate Origin): the
 * Host must be PUBLIC_URL's host or a loopback name, and an Origin, when sent, must be PUBLIC_URL's
 * origin or a loopback origin; otherwise 403 before anything else (docs/security.md "MCP server").
 */
function refuseForeignHostOrOrigin(req: Request): Response | null {
  const publicUrl = new URL(env.PUBLIC_URL);
  const host = (req.headers.get("host") ?? new URL(req.url).host).toLowerCase();
  const hostname = host.replace(/:\d+$/, "");
  const hostAllowed = host === publicUrl.host.toLowerCase() || hostname === publicUrl.hostname.toLowerCase() || LOOPBACK_HOSTS.has(hostname);
  const origin = req.headers.get("origin");
  let originAllowed = true;
  if (origin !== null) {
    try {
      const o = new URL(origin);
      originAllowed = o.origin === publicUrl.origin || LOOPBACK_HOSTS.has(o.hostname.toLowerCase());
    } catch {
      originAllowed = false;
    }
  }
  if (hostAllowed && originAllowed) return null;
  const what = hostAllowed ? `Origin ${origin}` : `Host ${host}`;
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: `Forbidden: ${what} is not allowed for this MCP server` } }, { status: 403 });
}
