import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mcpServices } from "@/db/schema";
import type { RequestContext } from "@/lib/identity/http/route";
import { enqueue } from "@/lib/platform/jobs/queue";
import { defineJob } from "@/lib/platform/jobs/types";
import { consoleScope, scopedTo } from "@/lib/identity/organizations/console-scope";
import { connectMcp, describeMcpError, listAllTools } from "./client";
import { countConnected } from "./connections";

/**
 * MCP health is measured, never assumed (docs/mcp.md#health): the check connects to the service
 * with the MCP client (Streamable HTTP, protocol negotiated), lists its tools, and records
 * healthy or unhealthy, the latency (connect + tools/list), the error, the negotiated protocol, the
 * server's name and the tools it really offers. Unknown means not checked yet. Inactive services
 * are not checked (and not offered to the assistant).
 */
export const HEALTH_CHECK_EVERY_SECONDS = 60;

export type CheckOutcome = { status: "healthy" | "unhealthy" | "skipped"; latencyMs: number | null; error: string | null };

export async function checkService(db: Db, serviceId: string, now = () => new Date()): Promise<CheckOutcome> {
  const [service] = await db
    .select({ id: mcpServices.id, endpoint: mcpServices.endpoint, isActive: mcpServices.isActive })
    .from(mcpServices)
    .where(eq(mcpServices.id, serviceId))
    .limit(1);
  if (!service || !service.isActive) return { status: "skipped", latencyMs: null, error: null };

  const started = performance.now();
  let session: Awaited<ReturnType<typeof connectMcp>> | null = null;
  try {
    session = await connectMcp(service.endpoint);
    const tools = await listAllTools(session);
    const latencyMs = Math.round(performance.now() - started);
    await db
      .update(mcpServices)
      .set({
        healthStatus: "healthy",
        lastCheckedAt: now(),
        latencyMs,
        lastError: null,
        protocolVersion: session.protocolVersion,
        serverInfo: session.serverInfo,
        tools,
      })
      .where(eq(mcpServices.id, service.id));
    return { status: "healthy", latencyMs, error: null };
  } catch (error) {
    const message = describeMcpError(error);
    await db
      .update(mcpServices)
      .set({ healthStatus: "unhealthy", lastCheckedAt: now(), latencyMs: null, lastError: message })
      .where(eq(mcpServices.id, service.id));
    return { status: "unhealthy", latencyMs: null, error: message };
  } finally {
    await session?.close();
  }
}

/** One service's check (queued when it is registered or activated, and by the sweep). */
export const mcpCheckServiceJob = defineJob<{ serviceId: string }>({
  name: "mcp.check-service",
  retryLimit: 0,
  async handler({ serviceId }, { db }) {
    await checkService(db, serviceId);
  },
});

/** Every minute: queues a check of every active service of every organization. */
export const mcpHealthSweepJob = defineJob({
  name: "mcp.health-sweep",
  everySeconds: HEALTH_CHECK_EVERY_SECONDS,
  retryLimit: 0,
  async handler(_data, { db, job }) {
    const rows = await db.select({ id: mcpServices.id }).from(mcpServices).where(eq(mcpServices.isActive, true));
    for (const { id } of rows) await enqueue(null, mcpCheckServiceJob, { serviceId: id }, { singletonKey: `${id}:sweep:${job.id}` });
  },
});

export type McpHealth = {
  status: "healthy" | "degraded" | "unhealthy";
  timestamp: string;
  mcp: { connections: number; services: number; healthyServices: number };
};

/**
 * GET /api/mcp/health: `services` counts active services, `healthyServices` those healthy at their
 * last check, `connections` the MCP clients connected to Switchboard's server now. The status is
 * healthy when every active service is (or there are none), unhealthy when none is healthy and some
 * failed their check, else degraded (some failing, or not checked yet).
 */
export async function getMcpHealth(db: Db, ctx: RequestContext, now = new Date()): Promise<McpHealth> {
  const [rows, connections] = await Promise.all([
    db
      .select({ isActive: mcpServices.isActive, healthStatus: mcpServices.healthStatus })
      .from(mcpServices)
      .where(scopedTo(mcpServices.organizationId, consoleScope(ctx))),
    countConnected(db, ctx, now),
  ]);
  const active = rows.filter((r) => r.isActive);
  const healthy = active.filter((r) => r.healthStatus === "healthy").length;
  const unhealthy = active.filter((r) => r.healthStatus === "unhealthy").length;
  const status = active.length === healthy ? "healthy" : healthy === 0 && unhealthy > 0 ? "unhealthy" : "degraded";
  return { status, timestamp: now.toISOString(), mcp: { connections, services: active.length, healthyServices: healthy } };
}
