import "server-only";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { McpToolInfo } from "@/db/schema";
import { safeFetch, type SafeFetchInit } from "@/lib/platform/net/safe-fetch";

/**
 * Switchboard as an MCP client (docs/mcp.md): Streamable HTTP to a registered service, with the
 * protocol negotiated (`versionNegotiation: auto` probes with server/discover for 2026-07-28 and
 * falls back to the 2025-era initialize handshake). Every request, and every same-origin redirect
 * the transport follows, goes through the SSRF guard (lib/platform/net/safe-fetch.ts).
 */
export const MCP_CLIENT_INFO = { name: "switchboard", version: "1.0.0" } as const;

/** Each request (probe, list, call) gives up after this long. */
export const MCP_REQUEST_TIMEOUT_MS = 10_000;

const guardedFetch = ((url: string | URL, init?: RequestInit) =>
  safeFetch(String(url), (init ?? {}) as SafeFetchInit)) as unknown as typeof fetch;

export type McpSession = {
  client: Client;
  era: "modern" | "legacy";
  protocolVersion: string | null;
  serverInfo: { name: string; version: string } | null;
  close(): Promise<void>;
};

export async function connectMcp(endpoint: string, options: { timeoutMs?: number } = {}): Promise<McpSession> {
  const timeout = options.timeoutMs ?? MCP_REQUEST_TIMEOUT_MS;
  const client = new Client(MCP_CLIENT_INFO, {
    versionNegotiation: { mode: "auto", probe: { timeoutMs: timeout } },
  });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), { fetch: guardedFetch });
  await client.connect(transport, { timeout });
  const server = client.getServerVersion();
  const era = client.getProtocolEra() === "modern" ? "modern" : "legacy";
  return {
    client,
    era,
    protocolVersion: client.getNegotiatedProtocolVersion() ?? (era === "modern" ? "2026-07-28" : null),
    serverInfo: server ? { name: server.name, version: server.version } : null,
    close: async () => {
      await client.close().catch(() => undefined);
    },
  };
}

/** Every tool the server offers (all pages). */
export async function listAllTools(session: McpSession, timeoutMs = MCP_REQUEST_TIMEOUT_MS): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    const result = await session.client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    for (const tool of result.tools) {
      tools.push({
        name: tool.name,
        ...(tool.title ? { title: tool.title } : {}),
        ...(tool.description ? { description: tool.description.slice(0, 2000) } : {}),
        inputSchema: tool.inputSchema as Record<string, unknown>,
      });
    }
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

/** A person-readable reason a connection or call failed (no stack, bounded length). */
export function describeMcpError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${message}${cause}`.replace(/\s+/g, " ").slice(0, 500);
}
