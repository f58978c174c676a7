/**
 * The MCP console's routes (advanced §2 MCP Management, §3, §5, §7) against a real database, with a
 * real MCP server built with the SDK (tests/fakes/mcp-service.ts) as the registered service: its
 * health is measured by the jobs, healthy while it runs and unhealthy once it is stopped.
 */
import { eq } from "drizzle-orm";
import { GET as connectionsRoute } from "@/app/api/mcp/connections/route";
import { GET as healthRoute } from "@/app/api/mcp/health/route";
import { POST as checkRoute } from "@/app/api/mcp/services/[id]/check/route";
import { DELETE as deleteRoute, GET as getRoute } from "@/app/api/mcp/services/[id]/route";
import { PUT as statusRoute } from "@/app/api/mcp/services/[id]/status/route";
import { POST as registerRoute } from "@/app/api/mcp/services/register/route";
import { GET as servicesRoute } from "@/app/api/mcp/services/route";
import { mcpServices, users } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { getJobQueue } from "@/lib/platform/jobs/queue";
import { mcpCheckServiceJob, mcpHealthSweepJob } from "@/lib/agents/mcp/health";
import { startMcpServiceFake, FAKE_SERVICE_INFO, type McpServiceFake } from "../fakes/mcp-service";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";
import { runJobsUntil } from "../helpers/jobs";

const originalAllowPrivate = env.ALLOW_PRIVATE_ENDPOINTS;
function allowPrivate(value: boolean) {
  (env as { ALLOW_PRIVATE_ENDPOINTS: boolean }).ALLOW_PRIVATE_ENDPOINTS = value;
}

let fake: McpServiceFake;
beforeAll(async () => {
  fake = await startMcpServiceFake();
});
afterAll(async () => {
  allowPrivate(originalAllowPrivate);
  await fake.stop();
  await closeDb();
});
beforeEach(() => allowPrivate(true));

async function withRole(role: "admin" | "master_admin" | "business" | "individual"): Promise<TestAccount> {
  const account = await registerTestUser();
  const db = await getDb();
  await db.update(users).set({ role }).where(eq(users.id, account.id));
  return { ...account, role };
}

async function serviceRow(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(mcpServices).where(eq(mcpServices.id, id));
  return row;
}

/** Runs the health checks until this service has been checked (after `after`, when given). */
async function runChecksFor(id: string, after?: Date | null) {
  await runJobsUntil([mcpCheckServiceJob], async () => {
    const checked = (await serviceRow(id))?.lastCheckedAt;
    return Boolean(checked && (!after || checked > after));
  });
}

function validBody(overrides: Record<string, unknown> = {}) {
  return {
    name: "Harbor inventory",
    version: "2.1.0",
    description: "Stock levels and reservations",
    endpoint: fake.url,
    methods: "check_stock, reserve_item",
    organizationId: 0,
    metadata: { team: "front desk" },
    ...overrides,
  };
}

async function register(account: TestAccount, overrides: Record<string, unknown> = {}) {
  const res = await call(registerRoute, "POST", "/api/mcp/services/register", { sessionId: account.sessionId, body: validBody(overrides) });
  expect(res.status).toBe(201);
  return res.body;
}

describe("who may use the MCP console", () => {
  it("401 without a session, 403 for individual and business users, 200 for admins", async () => {
    expect((await call(servicesRoute, "GET", "/api/mcp/services")).status).toBe(401);
    expect((await call(healthRoute, "GET", "/api/mcp/health")).status).toBe(401);
    for (const role of ["individual", "business"] as const) {
      const user = await withRole(role);
      expect((await call(servicesRoute, "GET", "/api/mcp/services", { sessionId: user.sessionId })).status).toBe(403);
      expect((await call(registerRoute, "POST", "/api/mcp/services/register", { sessionId: user.sessionId, body: validBody() })).status).toBe(403);
    }
    const admin = await withRole("admin");
    const list = await call(servicesRoute, "GET", "/api/mcp/services", { sessionId: admin.sessionId });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ services: [], stats: { totalServices: 0, activeServices: 0, healthyServices: 0 } });
  });
});

describe("POST /api/mcp/services/register", () => {
  it("registers a service for the caller's organization with the spec's fields, methods split on commas", async () => {
    const admin = await withRole("admin");
    const service = await register(admin, { methods: " check_stock,, reserve_item , " });
    expect(service).toMatchObject({
      name: "Harbor inventory",
      version: "2.1.0",
      description: "Stock levels and reservations",
      endpoint: fake.url,
      methods: ["check_stock", "reserve_item"],
      organizationId: admin.organizationId,
      metadata: { team: "front desk" },
      healthStatus: "unknown",
      isActive: true,
      lastCheckedAt: null,
      tools: null,
    });
    expect(typeof service.id).toBe("string");
    // A check is queued at once.
    const pending = await (await getJobQueue()).pending("mcp.check-service");
    expect(pending.some((job) => (job.data as { serviceId: string }).serviceId === service.id)).toBe(true);
  });

  it("answers 400 naming each missing or malformed field", async () => {
    const admin = await withRole("admin");
    const res = await call(registerRoute, "POST", "/api/mcp/services/register", {
      sessionId: admin.sessionId,
      body: { name: " ", version: "", endpoint: "ftp://example.com", methods: " , ", metadata: [1, 2] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject({
      name: "Name is required",
      version: "Version is required",
      description: "Description is required",
      endpoint: "Endpoint must be a full URL starting with https:// or http://",
      methods: "At least one method is required",
      metadata: "Metadata must be a JSON object",
    });
    const db = await getDb();
    expect(await db.select().from(mcpServices).where(eq(mcpServices.organizationId, admin.organizationId))).toHaveLength(0);
  });

  it.each(["http://127.0.0.1:8080/mcp", "http://10.0.0.7/mcp", "http://169.254.169.254/latest", "http://localhost/mcp", "http://[::1]/mcp"])(
    "refuses the private endpoint %s unless ALLOW_PRIVATE_ENDPOINTS=true",
    async (endpoint) => {
      allowPrivate(false);
      const admin = await withRole("admin");
      const res = await call(registerRoute, "POST", "/api/mcp/services/register", { sessionId: admin.sessionId, body: validBody({ endpoint }) });
      expect(res.status).toBe(400);
      expect(res.body.errors.endpoint).toMatch(/private, loopback or link-local address/);
      allowPrivate(true);
      expect((await call(registerRoute, "POST", "/api/mcp/services/register", { sessionId: admin.sessionId, body: validBody({ endpoint }) })).status).toBe(201);
    },
  );

  it("never trusts organizationId: an admin cannot name another organization; a master admin can", async () => {
    const admin = await withRole("admin");
    const other = await registerTestUser();
    const refused = await call(registerRoute, "POST", "/api/mcp/services/register", {
      sessionId: admin.sessionId,
      body: validBody({ organizationId: other.organizationId }),
    });
    expect(refused.status).toBe(403);
    expect((await register(admin, { organizationId: admin.organizationId })).organizationId).toBe(admin.organizationId);

    const master = await withRole("master_admin");
    const forOther = await register(master, { organizationId: other.organizationId });
    expect(forOther.organizationId).toBe(other.organizationId);
    const missing = await call(registerRoute, "POST", "/api/mcp/services/register", {
      sessionId: master.sessionId,
      body: validBody({ organizationId: "no-such-organization" }),
    });
    expect(missing.status).toBe(404);
    // The admin's list holds only their organization's services; the master admin sees both.
    const adminList = await call(servicesRoute, "GET", "/api/mcp/services", { sessionId: admin.sessionId });
    expect(adminList.body.services.every((s: { organizationId: string }) => s.organizationId === admin.organizationId)).toBe(true);
    const masterList = await call(servicesRoute, "GET", "/api/mcp/services", { sessionId: master.sessionId });
    const ids = masterList.body.services.map((s: { id: string }) => s.id);
    expect(ids).toContain(forOther.id);
  });
});

describe("health is measured by the jobs", () => {
  it("connects with the MCP client, lists the real tools: healthy; stopped: unhealthy; back: healthy", async () => {
    const admin = await withRole("admin");
    const service = await register(admin, { methods: ["check_stock", "reserve_item", "cancel_reservation"] });
    await runChecksFor(service.id);

    const healthy = (await call(getRoute, "GET", `/api/mcp/services/${service.id}`, { sessionId: admin.sessionId, params: { id: service.id } })).body;
    expect(healthy).toMatchObject({
      healthStatus: "healthy",
      lastError: null,
      protocolVersion: "2026-07-28",
      serverInfo: FAKE_SERVICE_INFO,
      missingMethods: ["cancel_reservation"],
    });
    expect(healthy.tools.map((t: { name: string }) => t.name)).toEqual(["check_stock", "reserve_item"]);
    expect(healthy.latencyMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(healthy.lastCheckedAt)).toBeGreaterThan(Date.now() - 60_000);

    const stats = (await call(servicesRoute, "GET", "/api/mcp/services", { sessionId: admin.sessionId })).body.stats;
    expect(stats).toEqual({ totalServices: 1, activeServices: 1, healthyServices: 1 });
    const health = await call(healthRoute, "GET", "/api/mcp/health", { sessionId: admin.sessionId });
    expect(health.body).toMatchObject({ status: "healthy", mcp: { connections: 0, services: 1, healthyServices: 1 } });
    expect(Date.parse(health.body.timestamp)).not.toBeNaN();

    await fake.stop();
    try {
      const db = await getDb();
      const before = (await serviceRow(service.id)).lastCheckedAt;
      await mcpHealthSweepJob.handler({}, { db, job: { id: `sweep-${Date.now()}`, name: "mcp.health-sweep", data: {}, attempt: 1 } });
      await runChecksFor(service.id, before);
      const down = (await call(getRoute, "GET", `/api/mcp/services/${service.id}`, { sessionId: admin.sessionId, params: { id: service.id } })).body;
      expect(down.healthStatus).toBe("unhealthy");
      expect(down.lastError).toMatch(/fetch failed|ECONNREFUSED|connect/i);
      expect(down.latencyMs).toBeNull();
      // The tools last seen stay visible next to the declared methods.
      expect(down.tools.map((t: { name: string }) => t.name)).toEqual(["check_stock", "reserve_item"]);
      const degraded = await call(healthRoute, "GET", "/api/mcp/health", { sessionId: admin.sessionId });
      expect(degraded.body).toMatchObject({ status: "unhealthy", mcp: { services: 1, healthyServices: 0 } });
    } finally {
      await fake.start();
    }
    const back = await call(checkRoute, "POST", `/api/mcp/services/${service.id}/check`, { sessionId: admin.sessionId, params: { id: service.id } });
    expect(back.status).toBe(200);
    expect(back.body.healthStatus).toBe("healthy");
  });

  it("marks a service unhealthy when the endpoint is not an MCP server, with the reason", async () => {
    const admin = await withRole("admin");
    const service = await register(admin, { endpoint: fake.url.replace(/\/mcp$/, "/nothing-here").replace(/:\d+/, ":1") });
    const checked = await call(checkRoute, "POST", `/api/mcp/services/${service.id}/check`, { sessionId: admin.sessionId, params: { id: service.id } });
    expect(checked.body.healthStatus).toBe("unhealthy");
    expect(checked.body.lastError).toBeTruthy();
  });

  it("re-checks the SSRF rule at check time: a stored private endpoint is unhealthy once private endpoints are refused", async () => {
    const admin = await withRole("admin");
    const service = await register(admin);
    allowPrivate(false);
    const checked = await call(checkRoute, "POST", `/api/mcp/services/${service.id}/check`, { sessionId: admin.sessionId, params: { id: service.id } });
    expect(checked.body.healthStatus).toBe("unhealthy");
    expect(checked.body.lastError).toMatch(/private, loopback or link-local/);
    expect(fake.calls).toHaveLength(0);
  });
});

describe("PUT /api/mcp/services/{id}/status and DELETE", () => {
  it("deactivates (not checked by the sweep, not counted active) and activates again (checked at once)", async () => {
    const admin = await withRole("admin");
    const service = await register(admin);
    await runChecksFor(service.id);
    const off = await call(statusRoute, "PUT", `/api/mcp/services/${service.id}/status`, { sessionId: admin.sessionId, params: { id: service.id }, body: { isActive: false } });
    expect(off.status).toBe(200);
    expect(off.body.isActive).toBe(false);
    const stats = (await call(servicesRoute, "GET", "/api/mcp/services", { sessionId: admin.sessionId })).body.stats;
    expect(stats).toEqual({ totalServices: 1, activeServices: 0, healthyServices: 0 });

    const db = await getDb();
    const sweepId = `sweep-${Date.now()}`;
    await mcpHealthSweepJob.handler({}, { db, job: { id: sweepId, name: "mcp.health-sweep", data: {}, attempt: 1 } });
    const queued = await (await getJobQueue()).pending("mcp.check-service");
    expect(queued.some((job) => (job.data as { serviceId: string }).serviceId === service.id)).toBe(false);

    const on = await call(statusRoute, "PUT", `/api/mcp/services/${service.id}/status`, { sessionId: admin.sessionId, params: { id: service.id }, body: { isActive: true } });
    expect(on.body.isActive).toBe(true);
    const again = await (await getJobQueue()).pending("mcp.check-service");
    expect(again.some((job) => (job.data as { serviceId: string }).serviceId === service.id)).toBe(true);
  });

  it("answers 400 for a non-boolean isActive and 404 for another organization's service (left untouched)", async () => {
    const admin = await withRole("admin");
    const service = await register(admin);
    const bad = await call(statusRoute, "PUT", `/api/mcp/services/${service.id}/status`, { sessionId: admin.sessionId, params: { id: service.id }, body: { isActive: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.isActive).toBe("isActive must be true or false");

    const stranger = await withRole("admin");
    const params = { id: service.id };
    expect((await call(statusRoute, "PUT", `/api/mcp/services/${service.id}/status`, { sessionId: stranger.sessionId, params, body: { isActive: false } })).status).toBe(404);
    expect((await call(deleteRoute, "DELETE", `/api/mcp/services/${service.id}`, { sessionId: stranger.sessionId, params })).status).toBe(404);
    expect((await call(getRoute, "GET", `/api/mcp/services/${service.id}`, { sessionId: stranger.sessionId, params })).status).toBe(404);
    expect((await call(getRoute, "GET", `/api/mcp/services/${service.id}`, { sessionId: admin.sessionId, params })).body.isActive).toBe(true);
  });

  it("deletes a service", async () => {
    const admin = await withRole("admin");
    const service = await register(admin);
    const params = { id: service.id };
    const res = await call(deleteRoute, "DELETE", `/api/mcp/services/${service.id}`, { sessionId: admin.sessionId, params });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await call(deleteRoute, "DELETE", `/api/mcp/services/${service.id}`, { sessionId: admin.sessionId, params })).status).toBe(404);
    const list = await call(servicesRoute, "GET", "/api/mcp/services", { sessionId: admin.sessionId });
    expect(list.body.services).toEqual([]);
  });
});

describe("GET /api/mcp/connections", () => {
  it("answers {connections: []} before any client has connected", async () => {
    const admin = await withRole("admin");
    const res = await call(connectionsRoute, "GET", "/api/mcp/connections", { sessionId: admin.sessionId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connections: [] });
  });
});
