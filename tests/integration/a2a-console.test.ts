/**
 * The A2A console's routes (advanced §2 A2A Management, §3, §5, §7) against a real database, with a
 * real A2A agent built with the SDK (tests/fakes/a2a-agent.ts): online once the card job has read
 * its card, offline when stopped; messages queued, delivered by the job as SendMessage through the
 * SDK client, retried, and answered.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { POST as checkRoute } from "@/app/api/a2a/agents/[id]/check/route";
import { POST as messageRoute } from "@/app/api/a2a/agents/[id]/message/route";
import { DELETE as deleteRoute, GET as getRoute } from "@/app/api/a2a/agents/[id]/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/a2a/agents/route";
import { GET as endpointRoute } from "@/app/api/a2a/endpoint/route";
import { GET as messagesRoute } from "@/app/api/a2a/messages/route";
import { GET as statsRoute } from "@/app/api/a2a/stats/route";
import { a2aAgents, a2aMessages, users } from "@/db/schema";
import { a2aDeliverJob } from "@/lib/agents/a2a/messages";
import { a2aCardSweepJob, a2aCheckAgentJob } from "@/lib/agents/a2a/service";
import { closeDb, getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { getJobQueue } from "@/lib/platform/jobs/queue";
import { FAKE_AGENT_NAME, startA2aAgentFake, type A2aAgentFake } from "../fakes/a2a-agent";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";
import { runJobsUntil } from "../helpers/jobs";

const originalAllowPrivate = env.ALLOW_PRIVATE_ENDPOINTS;
function allowPrivate(value: boolean) {
  (env as { ALLOW_PRIVATE_ENDPOINTS: boolean }).ALLOW_PRIVATE_ENDPOINTS = value;
}

let agent: A2aAgentFake;
beforeAll(async () => {
  agent = await startA2aAgentFake();
});
afterAll(async () => {
  allowPrivate(originalAllowPrivate);
  await agent.stop();
  await closeDb();
});
beforeEach(() => {
  allowPrivate(true);
  agent.answerAs = "task";
});

async function withRole(role: "admin" | "master_admin" | "business" | "individual"): Promise<TestAccount> {
  const account = await registerTestUser();
  const db = await getDb();
  await db.update(users).set({ role }).where(eq(users.id, account.id));
  return { ...account, role };
}

async function agentRow(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(a2aAgents).where(eq(a2aAgents.id, id));
  return row;
}

/** Runs the card checks until this agent has been checked (after `after`, when given). */
async function runChecksFor(id: string, after?: Date | null) {
  await runJobsUntil([a2aCheckAgentJob], async () => {
    const checked = (await agentRow(id))?.lastCheckedAt;
    return Boolean(checked && (!after || checked > after));
  });
}

/** Runs deliveries until this message has left the queue. */
async function runDeliveryOf(id: string) {
  await runJobsUntil([a2aDeliverJob], async () => (await messageRow(id))?.status !== "queued");
}

async function createAgent(account: TestAccount, overrides: Record<string, unknown> = {}) {
  const res = await call(createRoute, "POST", "/api/a2a/agents", {
    sessionId: account.sessionId,
    body: { name: "Echo", capabilities: "echo, translate", endpoint: agent.url, organizationId: 0, metadata: { owner: "tests" }, ...overrides },
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function onlineAgent(account: TestAccount) {
  const created = await createAgent(account);
  await runChecksFor(created.id);
  const res = await call(getRoute, "GET", "/x", { sessionId: account.sessionId, params: { id: created.id } });
  expect(res.body.isOnline).toBe(true);
  return res.body;
}

async function send(account: TestAccount, id: string, body: Record<string, unknown>) {
  return call(messageRoute, "POST", `/api/a2a/agents/${id}/message`, { sessionId: account.sessionId, params: { id }, body });
}

async function messageRow(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(a2aMessages).where(eq(a2aMessages.id, id));
  return row;
}

describe("who may use the A2A console", () => {
  it("401 without a session, 403 for individual and business users, 200 for admins", async () => {
    expect((await call(listRoute, "GET", "/api/a2a/agents")).status).toBe(401);
    expect((await call(statsRoute, "GET", "/api/a2a/stats")).status).toBe(401);
    for (const role of ["individual", "business"] as const) {
      const user = await withRole(role);
      expect((await call(listRoute, "GET", "/api/a2a/agents", { sessionId: user.sessionId })).status).toBe(403);
      expect((await call(statsRoute, "GET", "/api/a2a/stats", { sessionId: user.sessionId })).status).toBe(403);
    }
    const admin = await withRole("admin");
    const list = await call(listRoute, "GET", "/api/a2a/agents", { sessionId: admin.sessionId });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ agents: [] });
  });
});

describe("agents: create, online from the card job, delete", () => {
  it("creates an agent with the spec's fields; it is offline until its card has been read", async () => {
    const admin = await withRole("admin");
    const created = await createAgent(admin);
    expect(created).toMatchObject({
      name: "Echo",
      capabilities: ["echo", "translate"],
      endpoint: agent.url,
      organizationId: admin.organizationId,
      metadata: { owner: "tests" },
      isOnline: false,
      lastSeen: null,
    });
    const pending = await (await getJobQueue()).pending("a2a.check-agent");
    expect(pending.some((j) => (j.data as { agentId: string }).agentId === created.id)).toBe(true);

    await runChecksFor(created.id);
    const online = (await call(getRoute, "GET", "/x", { sessionId: admin.sessionId, params: { id: created.id } })).body;
    expect(online).toMatchObject({ isOnline: true, lastError: null, card: { name: FAKE_AGENT_NAME, version: "3.1.0", protocolVersion: "1.0", url: `${agent.url}/` } });
    expect(online.card.skills).toEqual([{ id: "echo", name: "Echo", description: "Says it back" }]);
    expect(Date.parse(online.lastSeen)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("keeps an agent without an endpoint offline (and never checks it)", async () => {
    const admin = await withRole("admin");
    const created = await createAgent(admin, { endpoint: "" });
    expect(created).toMatchObject({ endpoint: null, isOnline: false });
    const db = await getDb();
    await a2aCardSweepJob.handler({}, { db, job: { id: `sweep-${Date.now()}`, name: "a2a.card-sweep", data: {}, attempt: 1 } });
    const queued = await (await getJobQueue()).pending("a2a.check-agent");
    expect(queued.some((j) => (j.data as { agentId: string }).agentId === created.id)).toBe(false);
    const checked = await call(checkRoute, "POST", "/x", { sessionId: admin.sessionId, params: { id: created.id } });
    expect(checked.body).toMatchObject({ isOnline: false, lastError: "No endpoint: the agent cannot be reached" });
  });

  it("goes offline when the agent stops answering, with the reason, and online again when it is back", async () => {
    const admin = await withRole("admin");
    const created = await onlineAgent(admin);
    await agent.stop();
    try {
      const db = await getDb();
      const before = (await agentRow(created.id)).lastCheckedAt;
      await a2aCardSweepJob.handler({}, { db, job: { id: `sweep-${Date.now()}`, name: "a2a.card-sweep", data: {}, attempt: 1 } });
      await runChecksFor(created.id, before);
      const offline = (await call(getRoute, "GET", "/x", { sessionId: admin.sessionId, params: { id: created.id } })).body;
      expect(offline.isOnline).toBe(false);
      expect(offline.lastError).toMatch(/fetch failed|ECONNREFUSED/);
      expect(offline.lastSeen).toBe(created.lastSeen);
    } finally {
      await agent.start();
    }
    // The fake reopened on a new port: point a new agent at it.
    const again = await onlineAgent(admin);
    expect(again.isOnline).toBe(true);
  });

  it("stays offline when the card is not a valid A2A card", async () => {
    const server = http.createServer((req, res) => {
      if (req.url === "/bad/.well-known/agent-card.json") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name: "x", version: "1", supportedInterfaces: [] }));
      if (req.url === "/grpc/.well-known/agent-card.json") {
        return void res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ name: "x", version: "1", supportedInterfaces: [{ url: "http://127.0.0.1:1/", protocolBinding: "GRPC" }] }));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const admin = await withRole("admin");
      const bad = await createAgent(admin, { endpoint: `${base}/bad` });
      const grpc = await createAgent(admin, { endpoint: `${base}/grpc` });
      const missing = await createAgent(admin, { endpoint: `${base}/nothing` });
      const check = async (id: string) => (await call(checkRoute, "POST", "/x", { sessionId: admin.sessionId, params: { id } })).body;
      expect(await check(bad.id)).toMatchObject({ isOnline: false, lastError: "The agent card is not valid: supportedInterfaces is empty" });
      expect((await check(grpc.id)).lastError).toMatch(/no interface we can use \(GRPC\)/);
      expect((await check(missing.id)).lastError).toMatch(/answered HTTP 404$/);
    } finally {
      server.close();
    }
  });

  it("answers 400 naming the fields, refuses private endpoints unless allowed, and checks organizationId", async () => {
    const admin = await withRole("admin");
    const bad = await call(createRoute, "POST", "/api/a2a/agents", { sessionId: admin.sessionId, body: { name: "", capabilities: " , ", endpoint: "mailto:x", metadata: "x" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      name: "Name is required",
      capabilities: "At least one capability is required",
      endpoint: "Endpoint must be a full URL starting with https:// or http://",
      metadata: "Metadata must be a JSON object",
    });
    allowPrivate(false);
    const privateEndpoint = await call(createRoute, "POST", "/api/a2a/agents", {
      sessionId: admin.sessionId,
      body: { name: "x", capabilities: ["a"], endpoint: "http://169.254.169.254/" },
    });
    expect(privateEndpoint.status).toBe(400);
    expect(privateEndpoint.body.errors.endpoint).toMatch(/link-local/);
    allowPrivate(true);
    const other = await registerTestUser();
    expect((await call(createRoute, "POST", "/api/a2a/agents", { sessionId: admin.sessionId, body: { name: "x", capabilities: "a", organizationId: other.organizationId } })).status).toBe(403);
  });

  it("deletes an agent; another organization's agent answers 404 and stays", async () => {
    const admin = await withRole("admin");
    const stranger = await withRole("admin");
    const created = await createAgent(admin);
    expect((await call(deleteRoute, "DELETE", "/x", { sessionId: stranger.sessionId, params: { id: created.id } })).status).toBe(404);
    expect((await call(getRoute, "GET", "/x", { sessionId: stranger.sessionId, params: { id: created.id } })).status).toBe(404);
    const res = await call(deleteRoute, "DELETE", "/x", { sessionId: admin.sessionId, params: { id: created.id } });
    expect(res.body).toEqual({ success: true });
    expect((await call(getRoute, "GET", "/x", { sessionId: admin.sessionId, params: { id: created.id } })).status).toBe(404);
  });
});

describe("GET /api/a2a/stats", () => {
  it("counts total, online and offline of the caller's agents, and byOrganization across organizations for admins", async () => {
    const admin = await withRole("admin");
    const otherAdmin = await withRole("admin");
    await onlineAgent(admin);
    await createAgent(admin, { endpoint: "" });
    await createAgent(otherAdmin, { endpoint: "" });
    const stats = (await call(statsRoute, "GET", "/api/a2a/stats", { sessionId: admin.sessionId })).body;
    expect(stats).toMatchObject({ total: 2, online: 1, offline: 1 });
    expect(stats.byOrganization[admin.organizationId]).toBe(2);
    expect(stats.byOrganization[otherAdmin.organizationId]).toBe(1);
  });
});

describe("sending messages", () => {
  it("queues a request, delivers it as SendMessage with the SDK client, and stores the agent's task answer", async () => {
    const admin = await withRole("admin");
    const target = await onlineAgent(admin);
    const before = agent.received.length;
    const res = await send(admin, target.id, { targetAgentId: target.id, type: "request", organizationId: 0 });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ targetAgentId: target.id, type: "request", payload: { message: "Hello from another agent" }, status: "queued", answer: null });

    await runDeliveryOf(res.body.id);
    const received = agent.received.slice(before);
    expect(received).toHaveLength(1);
    expect(received[0].parts[0].content).toEqual({ $case: "text", value: "Hello from another agent" });
    expect(received[0].parts[1].content).toEqual({ $case: "data", value: { message: "Hello from another agent" } });
    expect(received[0].messageId).toBe(res.body.id);
    expect(received[0].metadata).toMatchObject({ type: "request", sender: { via: "Switchboard", agentUrl: expect.stringContaining(`/api/a2a/orgs/${admin.organizationId}`) } });

    const row = await messageRow(res.body.id);
    expect(row).toMatchObject({ status: "answered", attempts: 1, lastError: null });
    expect(row.answer).toMatchObject({ kind: "task", state: "completed", text: "Echo: Hello from another agent" });
    expect(row.deliveredAt).toBeInstanceOf(Date);

    const list = await call(messagesRoute, "GET", "/api/a2a/messages", { sessionId: admin.sessionId });
    expect(list.body.messages[0]).toMatchObject({ id: res.body.id, targetAgentName: "Echo", status: "answered", answer: { text: "Echo: Hello from another agent" } });
  });

  it("stores a bare message answer, and delivers a notify without waiting for an answer", async () => {
    const admin = await withRole("admin");
    const target = await onlineAgent(admin);
    agent.answerAs = "message";
    const request = await send(admin, target.id, { type: "request", payload: { question: "Open on Sunday?" } });
    await runDeliveryOf(request.body.id);
    expect((await messageRow(request.body.id)).answer).toMatchObject({ kind: "message", text: "Echo: Open on Sunday?" });
    expect((await messageRow(request.body.id)).status).toBe("answered");

    agent.answerAs = "task";
    const notify = await send(admin, target.id, { type: "notify", payload: { message: "Closing early today" } });
    await runDeliveryOf(notify.body.id);
    const row = await messageRow(notify.body.id);
    expect(row.status).toBe("delivered");
    expect(agent.received.at(-1)!.parts[0].content).toEqual({ $case: "text", value: "Closing early today" });
    expect(agent.received.at(-1)!.metadata).toMatchObject({ type: "notify" });
  });

  it("retries a failed delivery and fails it after the last attempt", async () => {
    const admin = await withRole("admin");
    const target = await onlineAgent(admin);
    const db = await getDb();
    const job = (id: string, attempt: number) => ({ id: `job-${id}-${attempt}`, name: "a2a.deliver", data: {}, attempt });

    const first = await send(admin, target.id, { type: "request" });
    agent.failNext(1);
    await expect(a2aDeliverJob.handler({ messageId: first.body.id }, { db, job: job(first.body.id, 1) })).rejects.toThrow(/attempt 1/);
    expect(await messageRow(first.body.id)).toMatchObject({ status: "queued", attempts: 1, lastError: expect.stringMatching(/503/) });
    await a2aDeliverJob.handler({ messageId: first.body.id }, { db, job: job(first.body.id, 2) });
    expect(await messageRow(first.body.id)).toMatchObject({ status: "answered", attempts: 2, lastError: null });

    const doomed = await send(admin, target.id, { type: "request" });
    agent.failNext(10);
    try {
      for (const attempt of [1, 2, 3]) await expect(a2aDeliverJob.handler({ messageId: doomed.body.id }, { db, job: job(doomed.body.id, attempt) })).rejects.toThrow();
      await a2aDeliverJob.handler({ messageId: doomed.body.id }, { db, job: job(doomed.body.id, 4) });
      expect(await messageRow(doomed.body.id)).toMatchObject({ status: "failed", attempts: 4, lastError: expect.stringMatching(/503/) });
    } finally {
      agent.failNext(0);
    }
    // A delivered message is not sent twice when its job runs again.
    const count = agent.received.length;
    await a2aDeliverJob.handler({ messageId: first.body.id }, { db, job: job(first.body.id, 3) });
    expect(agent.received.length).toBe(count);
  });

  it("refuses an offline target (409), another organization's (404), a mismatched targetAgentId and bad payloads (400)", async () => {
    const admin = await withRole("admin");
    const offline = await createAgent(admin, { endpoint: "" });
    const refused = await send(admin, offline.id, { type: "request" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("Echo is offline: messages can only be sent to online agents");

    const online = await onlineAgent(admin);
    const stranger = await withRole("admin");
    expect((await send(stranger, online.id, { type: "request" })).status).toBe(404);
    const mismatch = await send(admin, online.id, { targetAgentId: offline.id });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual({ targetAgentId: "targetAgentId must be the agent in the URL" });
    const bad = await send(admin, online.id, { type: "shout", payload: [1] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ type: "type must be request or notify", payload: "payload must be a JSON object" });
  });
});

describe("GET /api/a2a/endpoint", () => {
  it("names the organization's own agent URL and card", async () => {
    const admin = await withRole("admin");
    const res = await call(endpointRoute, "GET", "/api/a2a/endpoint", { sessionId: admin.sessionId });
    expect(res.body).toMatchObject({
      url: `${env.PUBLIC_URL}/api/a2a/orgs/${admin.organizationId}`,
      cardUrl: `${env.PUBLIC_URL}/api/a2a/orgs/${admin.organizationId}/.well-known/agent-card.json`,
      protocolVersion: "1.0",
      streaming: true,
    });
    expect(res.body.skills.map((s: { id: string }) => s.id)).toEqual(["ask_question", "leave_message", "book_appointment", "reschedule_appointment", "cancel_appointment"]);
  });
});
