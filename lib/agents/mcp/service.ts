import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mcpServices, organizations } from "@/db/schema";
import { badRequest, notFound } from "@/lib/platform/http/errors";
import type { RequestContext } from "@/lib/identity/http/route";
import { enqueue } from "@/lib/platform/jobs/queue";
import { assertSafeUrl, UnsafeUrlError } from "@/lib/platform/net/safe-fetch";
import { consoleScope, scopedTo, targetOrganization } from "@/lib/identity/organizations/console-scope";
import { mcpCheckServiceJob } from "./health";
import type { RegisterServiceInput } from "./schema";

/**
 * The MCP service registry (advanced spec §2 "MCP Management", §3): services an organization
 * registers so its assistant can use their tools. Health is measured by the `mcp.check-service` job
 * (./health.ts), never assumed: a new or re-activated service is checked at once, then every minute.
 */
export type McpServiceDto = {
  id: string;
  name: string;
  version: string;
  description: string;
  endpoint: string;
  methods: string[];
  organizationId: string;
  organizationName: string | null;
  metadata: Record<string, unknown>;
  healthStatus: "healthy" | "unhealthy" | "unknown";
  isActive: boolean;
  lastCheckedAt: string | null;
  latencyMs: number | null;
  lastError: string | null;
  protocolVersion: string | null;
  serverInfo: { name: string; version: string } | null;
  /** The tools the server really offered at the last successful check (null: never reached). */
  tools: { name: string; title?: string; description?: string }[] | null;
  /** Declared methods the server did not offer at the last successful check. */
  missingMethods: string[];
  createdAt: string;
  updatedAt: string;
};

export type McpServiceStats = { totalServices: number; activeServices: number; healthyServices: number };

type Row = typeof mcpServices.$inferSelect & { organizationName: string | null };

export function toServiceDto(row: Row): McpServiceDto {
  const offered = row.tools ? new Set(row.tools.map((t) => t.name)) : null;
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    description: row.description,
    endpoint: row.endpoint,
    methods: row.methods,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    metadata: row.metadata,
    healthStatus: row.healthStatus,
    isActive: row.isActive,
    lastCheckedAt: row.lastCheckedAt ? row.lastCheckedAt.toISOString() : null,
    latencyMs: row.latencyMs,
    lastError: row.lastError,
    protocolVersion: row.protocolVersion,
    serverInfo: row.serverInfo ?? null,
    tools: row.tools ? row.tools.map(({ name, title, description }) => ({ name, ...(title ? { title } : {}), ...(description ? { description } : {}) })) : null,
    missingMethods: offered ? row.methods.filter((m) => !offered.has(m)) : [],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function selectServices(db: Db) {
  return db
    .select({ service: mcpServices, organizationName: organizations.name })
    .from(mcpServices)
    .leftJoin(organizations, eq(organizations.id, mcpServices.organizationId));
}

export function statsOf(services: Pick<McpServiceDto, "isActive" | "healthStatus">[]): McpServiceStats {
  return {
    totalServices: services.length,
    activeServices: services.filter((s) => s.isActive).length,
    healthyServices: services.filter((s) => s.isActive && s.healthStatus === "healthy").length,
  };
}

/** Services in the caller's scope, newest first, with the spec's stats. */
export async function listServices(db: Db, ctx: RequestContext): Promise<{ services: McpServiceDto[]; stats: McpServiceStats }> {
  const rows = await selectServices(db)
    .where(scopedTo(mcpServices.organizationId, consoleScope(ctx)))
    .orderBy(desc(mcpServices.createdAt), desc(mcpServices.id));
  const services = rows.map((r) => toServiceDto({ ...r.service, organizationName: r.organizationName }));
  return { services, stats: statsOf(services) };
}

export async function getService(db: Db, ctx: RequestContext, id: string): Promise<McpServiceDto> {
  const [row] = await selectServices(db)
    .where(and(scopedTo(mcpServices.organizationId, consoleScope(ctx)), eq(mcpServices.id, id)))
    .limit(1);
  if (!row) throw notFound("MCP service");
  return toServiceDto({ ...row.service, organizationName: row.organizationName });
}

/** Refuses an endpoint the server must not call (SSRF guard), naming the field. */
export async function assertSafeEndpoint(endpoint: string, field = "endpoint"): Promise<void> {
  try {
    await assertSafeUrl(endpoint);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw badRequest(`Invalid request: ${field}: ${error.message}`, { [field]: error.message });
    throw error;
  }
}

/** Puts a health check of the service on the queue now. */
async function checkSoon(db: Db, serviceId: string) {
  await enqueue(db, mcpCheckServiceJob, { serviceId }, { singletonKey: `${serviceId}:now:${Date.now()}` });
}

export async function registerService(db: Db, ctx: RequestContext, input: RegisterServiceInput): Promise<McpServiceDto> {
  const organizationId = await targetOrganization(db, ctx, input.organizationId);
  await assertSafeEndpoint(input.endpoint);
  const id = crypto.randomUUID();
  await db.insert(mcpServices).values({
    id,
    organizationId,
    name: input.name,
    version: input.version,
    description: input.description,
    endpoint: input.endpoint,
    methods: input.methods,
    metadata: input.metadata,
    createdBy: ctx.userId,
  });
  await checkSoon(db, id);
  return getService(db, ctx, id);
}

/** Activates or deactivates a service; an activated one is checked at once. */
export async function setServiceActive(db: Db, ctx: RequestContext, id: string, isActive: boolean): Promise<McpServiceDto> {
  const updated = await db
    .update(mcpServices)
    .set({ isActive, updatedAt: new Date() })
    .where(and(scopedTo(mcpServices.organizationId, consoleScope(ctx)), eq(mcpServices.id, id)))
    .returning({ id: mcpServices.id });
  if (updated.length === 0) throw notFound("MCP service");
  if (isActive) await checkSoon(db, id);
  return getService(db, ctx, id);
}

export async function deleteService(db: Db, ctx: RequestContext, id: string): Promise<void> {
  const deleted = await db
    .delete(mcpServices)
    .where(and(scopedTo(mcpServices.organizationId, consoleScope(ctx)), eq(mcpServices.id, id)))
    .returning({ id: mcpServices.id });
  if (deleted.length === 0) throw notFound("MCP service");
}

/** Active, healthy services of an organization with the tools they offered: what the assistant may use. */
export async function usableServices(db: Db, organizationId: string) {
  return db
    .select({ id: mcpServices.id, name: mcpServices.name, endpoint: mcpServices.endpoint, tools: mcpServices.tools })
    .from(mcpServices)
    .where(
      and(
        eq(mcpServices.organizationId, organizationId),
        eq(mcpServices.isActive, true),
        eq(mcpServices.healthStatus, "healthy"),
        sql`${mcpServices.tools} is not null`,
      ),
    )
    .orderBy(mcpServices.createdAt, mcpServices.id);
}

/** Ids of every active service (all organizations): what the health sweep checks. */
export async function activeServiceIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: mcpServices.id }).from(mcpServices).where(eq(mcpServices.isActive, true));
  return rows.map((r) => r.id);
}

