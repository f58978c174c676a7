import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accessTokens, mcpConnections } from "@/db/schema";
import type { RequestContext } from "@/lib/identity/http/route";
import { consoleScope, scopedTo } from "@/lib/identity/organizations/console-scope";

/**
 * The MCP clients using Switchboard's MCP server. Protocol 2026-07-28 is stateless (every request
 * carries the client's identity in its `_meta` envelope) and 2025-era clients are served statelessly
 * too, so a "connection" is one client identity (clientInfo name and version) on one access token,
 * kept up to date by every request. It counts as connected while it was active within
 * CONNECTED_WINDOW_MS and its token is not revoked.
 */
export const CONNECTED_WINDOW_MS = 5 * 60_000;
/** How far back the Connections tab looks. */
export const CONNECTION_HISTORY_MS = 7 * 24 * 3600_000;

export type McpConnectionDto = {
  id: string;
  /** The client's own name from its clientInfo; "" when it sent none (shown as Anonymous). */
  clientId: string;
  clientVersion: string;
  organizationId: string;
  connected: boolean;
  /** The token's scopes: what this client may do. */
  permissions: string[];
  lastActivity: string;
  connectedAt: string;
  protocolVersion: string | null;
  requestCount: number;
  lastMethod: string | null;
  tokenName: string;
};

export type McpRequestInfo = {
  accessTokenId: string;
  organizationId: string;
  method: string | null;
  /** From the request's `_meta` envelope (2026-07-28) or the initialize params (2025 era). */
  clientInfo: { name: string; version: string } | null;
  protocolVersion: string | null;
};

const clip = (value: string, max: number) => value.slice(0, max);

/** Reads what a JSON-RPC request body says about its client (one message or a batch). */
export function requestInfoFromBody(body: unknown): Omit<McpRequestInfo, "accessTokenId" | "organizationId"> {
  const message = Array.isArray(body) ? body[0] : body;
  if (!message || typeof message !== "object") return { method: null, clientInfo: null, protocolVersion: null };
  const { method, params } = message as { method?: unknown; params?: Record<string, unknown> };
  const meta = (params?._meta ?? {}) as Record<string, unknown>;
  const rawInfo = (meta["io.modelcontextprotocol/clientInfo"] ?? (method === "initialize" ? params?.clientInfo : undefined)) as
    | { name?: unknown; version?: unknown }
    | undefined;
  const rawVersion = meta["io.modelcontextprotocol/protocolVersion"] ?? (method === "initialize" ? params?.protocolVersion : undefined);
  const clientInfo =
    rawInfo && typeof rawInfo === "object"
      ? { name: clip(typeof rawInfo.name === "string" ? rawInfo.name : "", 200), version: clip(typeof rawInfo.version === "string" ? rawInfo.version : "", 100) }
      : null;
  return {
    method: typeof method === "string" ? clip(method, 100) : null,
    clientInfo,
    protocolVersion: typeof rawVersion === "string" ? clip(rawVersion, 40) : null,
  };
}

/**
 * Records one request. Without a client identity (a 2025-era request after initialize) the request
 * counts for the token's most recently active connection, or an anonymous one.
 */
export async function recordMcpRequest(db: Db, info: McpRequestInfo, now = new Date()): Promise<void> {
  let identity = info.clientInfo;
  if (!identity) {
    const [recent] = await db
      .select({ name: mcpConnections.clientName, version: mcpConnections.clientVersion })
      .from(mcpConnections)
      .where(and(eq(mcpConnections.organizationId, info.organizationId), eq(mcpConnections.accessTokenId, info.accessTokenId)))
      .orderBy(desc(mcpConnections.lastActivityAt))
      .limit(1);
    identity = recent ?? { name: "", version: "" };
  }
  await db
    .insert(mcpConnections)
    .values({
      id: crypto.randomUUID(),
      organizationId: info.organizationId,
      accessTokenId: info.accessTokenId,
      clientName: identity.name,
      clientVersion: identity.version,
      protocolVersion: info.protocolVersion,
      requestCount: 1,
      lastMethod: info.method,
      connectedAt: now,
      lastActivityAt: now,
    })
    .onConflictDoUpdate({
      target: [mcpConnections.accessTokenId, mcpConnections.clientName, mcpConnections.clientVersion],
      set: {
        requestCount: sql`${mcpConnections.requestCount} + 1`,
        lastActivityAt: now,
        lastMethod: info.method,
        protocolVersion: sql`coalesce(${info.protocolVersion}, ${mcpConnections.protocolVersion})`,
        // A client back after a long silence starts a new connection.
        connectedAt: sql`case when ${mcpConnections.lastActivityAt} < ${new Date(now.getTime() - CONNECTED_WINDOW_MS)} then ${now} else ${mcpConnections.connectedAt} end`,
      },
    });
}

/** Clients seen in the last week on live tokens, most recently active first. */
export async function listConnections(db: Db, ctx: RequestContext, now = new Date()): Promise<McpConnectionDto[]> {
  const scope = consoleScope(ctx);
  const rows = await db
    .select({
      connection: mcpConnections,
      scopes: accessTokens.scopes,
      tokenName: accessTokens.name,
    })
    .from(mcpConnections)
    .innerJoin(accessTokens, and(eq(accessTokens.id, mcpConnections.accessTokenId), eq(accessTokens.organizationId, mcpConnections.organizationId)))
    .where(
      and(
        scopedTo(mcpConnections.organizationId, scope),
        isNull(accessTokens.revokedAt),
        gt(mcpConnections.lastActivityAt, new Date(now.getTime() - CONNECTION_HISTORY_MS)),
      ),
    )
    .orderBy(desc(mcpConnections.lastActivityAt))
    .limit(200);
  return rows.map(({ connection: c, scopes, tokenName }) => ({
    id: c.id,
    clientId: c.clientName,
    clientVersion: c.clientVersion,
    organizationId: c.organizationId,
    connected: now.getTime() - c.lastActivityAt.getTime() <= CONNECTED_WINDOW_MS,
    permissions: scopes,
    lastActivity: c.lastActivityAt.toISOString(),
    connectedAt: c.connectedAt.toISOString(),
    protocolVersion: c.protocolVersion,
    requestCount: c.requestCount,
    lastMethod: c.lastMethod,
    tokenName,
  }));
}

/** Clients connected now (active within the window, live token). */
export async function countConnected(db: Db, ctx: RequestContext, now = new Date()): Promise<number> {
  const scope = consoleScope(ctx);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mcpConnections)
    .innerJoin(accessTokens, eq(accessTokens.id, mcpConnections.accessTokenId))
    .where(
      and(
        scopedTo(mcpConnections.organizationId, scope),
        isNull(accessTokens.revokedAt),
        gt(mcpConnections.lastActivityAt, new Date(now.getTime() - CONNECTED_WINDOW_MS)),
      ),
    );
  return row?.n ?? 0;
}
