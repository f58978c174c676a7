import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { a2aAgents, organizations, type A2aCardSummary } from "@/db/schema";
import { notFound } from "@/lib/platform/http/errors";
import type { RequestContext } from "@/lib/identity/http/route";
import { enqueue } from "@/lib/platform/jobs/queue";
import { defineJob } from "@/lib/platform/jobs/types";
import { assertSafeEndpoint } from "@/lib/agents/mcp/service";
import { consoleScope, scopedTo, targetOrganization } from "@/lib/identity/organizations/console-scope";
import { fetchAgentCard } from "./card";
import type { CreateAgentInput } from "./schema";

/**
 * The A2A agent registry (advanced spec §2 "A2A Management", §3, §4). `isOnline` and `lastSeen`
 * come only from the `a2a.check-agent` job, which fetches the agent's card and validates it: online
 * while the last check found a valid card, `lastSeen` when it last did. An agent without an endpoint
 * cannot be reached and stays offline.
 */
export const CARD_CHECK_EVERY_SECONDS = 60;

export type A2aAgentDto = {
  id: string;
  name: string;
  capabilities: string[];
  endpoint: string | null;
  organizationId: string;
  organizationName: string | null;
  metadata: Record<string, unknown>;
  isOnline: boolean;
  lastSeen: string | null;
  lastCheckedAt: string | null;
  lastError: string | null;
  /** What the card said at the last valid check. */
  card: A2aCardSummary | null;
  createdAt: string;
};

export type A2aStats = { total: number; online: number; offline: number; byOrganization: Record<string, number> };

type Row = typeof a2aAgents.$inferSelect;

function toDto(row: Row, organizationName: string | null): A2aAgentDto {
  return {
    id: row.id,
    name: row.name,
    capabilities: row.capabilities,
    endpoint: row.endpoint,
    organizationId: row.organizationId,
    organizationName,
    metadata: row.metadata,
    isOnline: row.isOnline,
    lastSeen: row.lastSeen ? row.lastSeen.toISOString() : null,
    lastCheckedAt: row.lastCheckedAt ? row.lastCheckedAt.toISOString() : null,
    lastError: row.lastError,
    card: row.card ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

function selectAgents(db: Db) {
  return db.select({ agent: a2aAgents, organizationName: organizations.name }).from(a2aAgents).leftJoin(organizations, eq(organizations.id, a2aAgents.organizationId));
}

export async function listAgents(db: Db, ctx: RequestContext): Promise<A2aAgentDto[]> {
  const rows = await selectAgents(db)
    .where(scopedTo(a2aAgents.organizationId, consoleScope(ctx)))
    .orderBy(desc(a2aAgents.createdAt), desc(a2aAgents.id));
  return rows.map((r) => toDto(r.agent, r.organizationName));
}

export async function getAgent(db: Db, ctx: RequestContext, id: string): Promise<A2aAgentDto> {
  const [row] = await selectAgents(db)
    .where(and(scopedTo(a2aAgents.organizationId, consoleScope(ctx)), eq(a2aAgents.id, id)))
    .limit(1);
  if (!row) throw notFound("A2A agent");
  return toDto(row.agent, row.organizationName);
}

async function checkSoon(db: Db, agentId: string) {
  await enqueue(db, a2aCheckAgentJob, { agentId }, { singletonKey: `${agentId}:now:${Date.now()}` });
}

export async function createAgent(db: Db, ctx: RequestContext, input: CreateAgentInput): Promise<A2aAgentDto> {
  const organizationId = await targetOrganization(db, ctx, input.organizationId);
  if (input.endpoint) await assertSafeEndpoint(input.endpoint);
  const id = crypto.randomUUID();
  await db.insert(a2aAgents).values({
    id,
    organizationId,
    name: input.name,
    capabilities: input.capabilities,
    endpoint: input.endpoint ?? null,
    metadata: input.metadata,
    createdBy: ctx.userId,
  });
  if (input.endpoint) await checkSoon(db, id);
  return getAgent(db, ctx, id);
}

export async function deleteAgent(db: Db, ctx: RequestContext, id: string): Promise<void> {
  const deleted = await db
    .delete(a2aAgents)
    .where(and(scopedTo(a2aAgents.organizationId, consoleScope(ctx)), eq(a2aAgents.id, id)))
    .returning({ id: a2aAgents.id });
  if (deleted.length === 0) throw notFound("A2A agent");
}

/**
 * total/online/offline over the agents the caller sees; `byOrganization` counts agents per
 * organization id, across every organization for admin roles (the platform view), else the caller's own.
 */
export async function getStats(db: Db, ctx: RequestContext): Promise<A2aStats> {
  const scope = consoleScope(ctx);
  const acrossOrganizations = ctx.user.permissions.includes("admin.read");
  const [[totals], perOrganization] = await Promise.all([
    db
      .select({ total: sql<number>`count(*)::int`, online: sql<number>`count(*) filter (where ${a2aAgents.isOnline})::int` })
      .from(a2aAgents)
      .where(scopedTo(a2aAgents.organizationId, scope)),
    db
      .select({ organizationId: a2aAgents.organizationId, n: sql<number>`count(*)::int` })
      .from(a2aAgents)
      .where(acrossOrganizations ? sql`true` : eq(a2aAgents.organizationId, ctx.organizationId))
      .groupBy(a2aAgents.organizationId),
  ]);
  return {
    total: totals.total,
    online: totals.online,
    offline: totals.total - totals.online,
    byOrganization: Object.fromEntries(perOrganization.map((r) => [r.organizationId, r.n])),
  };
}

/** Fetches and validates the agent's card; records online/offline. */
export async function checkAgent(db: Db, agentId: string, now = () => new Date()): Promise<{ isOnline: boolean; error: string | null } | null> {
  const [agent] = await db.select({ id: a2aAgents.id, endpoint: a2aAgents.endpoint }).from(a2aAgents).where(eq(a2aAgents.id, agentId)).limit(1);
  if (!agent) return null;
  if (!agent.endpoint) {
    await db.update(a2aAgents).set({ isOnline: false, lastCheckedAt: now(), lastError: "No endpoint: the agent cannot be reached" }).where(eq(a2aAgents.id, agent.id));
    return { isOnline: false, error: "No endpoint" };
  }
  try {
    const card = await fetchAgentCard(agent.endpoint);
    const at = now();
    await db.update(a2aAgents).set({ isOnline: true, lastSeen: at, lastCheckedAt: at, lastError: null, card }).where(eq(a2aAgents.id, agent.id));
    return { isOnline: true, error: null };
  } catch (error) {
    const message = (error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ""}` : String(error)).slice(0, 500);
    await db.update(a2aAgents).set({ isOnline: false, lastCheckedAt: now(), lastError: message }).where(eq(a2aAgents.id, agent.id));
    return { isOnline: false, error: message };
  }
}

export const a2aCheckAgentJob = defineJob<{ agentId: string }>({
  name: "a2a.check-agent",
  retryLimit: 0,
  async handler({ agentId }, { db }) {
    await checkAgent(db, agentId);
  },
});

/** Every minute: a card check for every agent with an endpoint; agents without one are offline. */
export const a2aCardSweepJob = defineJob({
  name: "a2a.card-sweep",
  everySeconds: CARD_CHECK_EVERY_SECONDS,
  retryLimit: 0,
  async handler(_data, { db, job }) {
    await db.update(a2aAgents).set({ isOnline: false }).where(and(isNull(a2aAgents.endpoint), eq(a2aAgents.isOnline, true)));
    const rows = await db.select({ id: a2aAgents.id }).from(a2aAgents).where(isNotNull(a2aAgents.endpoint));
    for (const { id } of rows) await enqueue(null, a2aCheckAgentJob, { agentId: id }, { singletonKey: `${id}:sweep:${job.id}` });
  },
});
