import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { GET as list } from "@/app/api/integrations/route";
import { POST as connect } from "@/app/api/integrations/[slug]/connect/route";
import { POST as disconnect } from "@/app/api/integrations/[slug]/disconnect/route";
import { GET as deliveries } from "@/app/api/integrations/[slug]/deliveries/route";
import { POST as sendTest } from "@/app/api/integrations/[slug]/test/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { integrationConnections, webhookDeliveries } from "@/db/schema";
import { encryptSecret } from "@/lib/platform/crypto/secret-box";
import { env } from "@/lib/platform/env";
import { deliverWebhookJob, emitEvent, MAX_ATTEMPTS, notifyMissedCall, processDueDeliveries, RETRY_BACKOFF_MS, verifySignature } from "@/lib/channels/integrations/webhooks";
import { getJobQueue } from "@/lib/platform/jobs/queue";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";

type Received = { headers: http.IncomingHttpHeaders; body: string; path: string };

/** A local receiver on 127.0.0.1 whose answer status the test sets. */
class Receiver {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), path: req.url ?? "" });
      res.writeHead(this.status, { "content-type": "text/plain" }).end(this.status === 200 ? "ok" : "receiver is down");
    });
  });
  received: Received[] = [];
  status = 200;
  url = "";
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const receiver = new Receiver();
let a: TestAccount;
let b: TestAccount;
const originalAllowPrivate = env.ALLOW_PRIVATE_ENDPOINTS;

function allowPrivate(value: boolean) {
  (env as { ALLOW_PRIVATE_ENDPOINTS: boolean }).ALLOW_PRIVATE_ENDPOINTS = value;
}

beforeAll(async () => {
  await receiver.start();
  [a, b] = await Promise.all([registerTestUser(), registerTestUser()]);
});

afterAll(async () => {
  allowPrivate(originalAllowPrivate);
  await receiver.stop();
  await closeDb();
});

const post = (handler: typeof connect, slug: string, action: string, account?: TestAccount, body?: unknown) =>
  call(handler, "POST", `/api/integrations/${slug}/${action}`, { sessionId: account?.sessionId, params: { slug }, body });

describe("GET /api/integrations", () => {
  it("answers the catalogue signed out, nothing connected", async () => {
    const res = await call(list, "GET", "/api/integrations");
    expect(res.status).toBe(200);
    const bySlug = Object.fromEntries(res.body.map((i: { slug: string }) => [i.slug, i]));
    expect(Object.keys(bySlug).sort()).toEqual(
      ["airtable", "asana", "gmail", "google-calendar", "hubspot", "notion", "slack", "webhooks", "zapier"].sort(),
    );
    expect(bySlug.slack).toMatchObject({ name: "Slack", category: "Communication", featured: true, kind: "slack", connected: false });
    expect(bySlug.notion).toMatchObject({ category: "Productivity", featured: true, kind: "oauth" });
    expect(bySlug.gmail).toMatchObject({ kind: "oauth" });
    expect(bySlug.hubspot).toMatchObject({ category: "CRM", featured: true, kind: "oauth", missingSettings: [] });
    expect(bySlug["google-calendar"]).toMatchObject({ name: "Google Calendar", category: "Scheduling", featured: false, connected: false });
    expect(bySlug.zapier).toMatchObject({ category: "Automation", featured: true, kind: "webhook" });
    expect(bySlug.airtable).toMatchObject({ category: "Database" });
    expect(bySlug.gmail).toMatchObject({ category: "Email" });
    expect(bySlug.asana).toMatchObject({ name: "Asana", category: "Project Management" });
    expect(bySlug.webhooks).toMatchObject({ name: "Webhooks", category: "Automation", kind: "webhook" });
    for (const item of res.body) {
      expect(item.connected).toBe(false);
      expect(typeof item.description).toBe("string");
      expect(item.config).toEqual({});
    }
  });
});

describe("connect and disconnect", () => {
  it("answers 401 without a session on every write and on the delivery log", async () => {
    expect((await post(connect, "hubspot", "connect")).status).toBe(401);
    expect((await post(disconnect, "hubspot", "disconnect")).status).toBe(401);
    expect((await post(sendTest, "webhooks", "test")).status).toBe(401);
    const res = await call(deliveries, "GET", "/api/integrations/webhooks/deliveries", { params: { slug: "webhooks" } });
    expect(res.status).toBe(401);
  });

  it("answers 404 for an integration that is not in the catalogue", async () => {
    const res = await post(connect, "myspace", "connect", a, {});
    expect(res.status).toBe(404);
  });

  it("an OAuth card on a server without its client answers 409 naming the settings, and is not connectable", async () => {
    const res = await post(connect, "hubspot", "connect", a, {});
    expect(res.status).toBe(409);
    expect(res.body.message).toContain("HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET");

    const mine = await call(list, "GET", "/api/integrations", { sessionId: a.sessionId });
    expect(mine.body.find((i: { slug: string }) => i.slug === "hubspot")).toMatchObject({
      connected: false,
      available: false,
      oauth: true,
      missingSettings: ["HUBSPOT_CLIENT_ID", "HUBSPOT_CLIENT_SECRET"],
    });
    // Slack still connects with an incoming-webhook URL; Google Calendar waits for its client like HubSpot.
    expect(mine.body.find((i: { slug: string }) => i.slug === "slack")).toMatchObject({ available: true, oauth: false });
    expect(mine.body.find((i: { slug: string }) => i.slug === "google-calendar")).toMatchObject({ available: false, missingSettings: ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"] });
    const signedOut = await call(list, "GET", "/api/integrations");
    expect(signedOut.body.every((i: { connected: boolean; missingSettings: string[] }) => !i.connected && i.missingSettings.length === 0)).toBe(true);

    const off = await post(disconnect, "hubspot", "disconnect", a);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ slug: "hubspot", connected: false });
  });

  it.each([
    [{}, "url"],
    [{ url: "" }, "url"],
    [{ url: "not a url" }, "url"],
    [{ url: "ftp://example.com/hook" }, "url"],
    [{ url: "file:///etc/passwd" }, "url"],
  ])("answers 400 naming the field for a bad webhook body %j", async (body, field) => {
    const res = await post(connect, "webhooks", "connect", a, body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty(field);
  });

  it.each(["http://127.0.0.1:9/hook", "http://10.0.0.8/hook", "http://169.254.169.254/latest/meta-data/", "http://[::ffff:127.0.0.1]/hook", "http://[::1]/hook", "http://localhost:3000/hook"])(
    "refuses the private address %s when ALLOW_PRIVATE_ENDPOINTS is false",
    async (url) => {
      allowPrivate(false);
      const res = await post(connect, "zapier", "connect", a, { url });
      expect(res.status).toBe(400);
      expect(res.body.errors.url).toMatch(/private, loopback or link-local/);
    },
  );

  it("accepts only Slack incoming-webhook URLs for Slack, and stores them encrypted", async () => {
    for (const webhookUrl of ["https://example.com/services/x", "http://hooks.slack.com/services/T/B/x", "hooks.slack.com/services/x"]) {
      const bad = await post(connect, "slack", "connect", a, { webhookUrl });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toHaveProperty("webhookUrl");
    }
    const slackUrl = "https://hooks.slack.com/services/T000/B000/abcdefghijklmnop";
    const res = await post(connect, "slack", "connect", a, { webhookUrl: slackUrl });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: "slack", connected: true, config: { host: "hooks.slack.com" } });
    expect(res.text).not.toContain("abcdefghijklmnop");
    const db = await getDb();
    const [row] = await db
      .select()
      .from(integrationConnections)
      .where(and(eq(integrationConnections.organizationId, a.organizationId), eq(integrationConnections.integration, "slack")));
    expect(row.secretCiphertext).toMatch(/^v1\./);
    expect(row.secretCiphertext).not.toContain("abcdefghijklmnop");
    expect(JSON.stringify(row.config)).not.toContain("abcdefghijklmnop");
    await post(disconnect, "slack", "disconnect", a);
  });

  it("answers 400 for a test event on an integration without an endpoint, 409 when not connected", async () => {
    expect((await post(sendTest, "hubspot", "test", a)).status).toBe(400);
    expect((await post(sendTest, "zapier", "test", b)).status).toBe(409);
  });
});

describe("outgoing webhooks", () => {
  let signingSecret: string;

  beforeAll(async () => {
    allowPrivate(true);
    const res = await post(connect, "webhooks", "connect", a, { url: `${receiver.url}/hooks/switchboard` });
    expect(res.status).toBe(200);
    signingSecret = res.body.signingSecret;
  });

  afterAll(() => allowPrivate(false));

  it("shows the signing secret once and stores it encrypted", async () => {
    expect(signingSecret).toMatch(/^whsec_/);
    const listed = await call(list, "GET", "/api/integrations", { sessionId: a.sessionId });
    expect(listed.text).not.toContain(signingSecret);
    const item = listed.body.find((i: { slug: string }) => i.slug === "webhooks");
    expect(item).toMatchObject({ connected: true, config: { host: new URL(receiver.url).host } });
    const db = await getDb();
    const [row] = await db
      .select()
      .from(integrationConnections)
      .where(and(eq(integrationConnections.organizationId, a.organizationId), eq(integrationConnections.integration, "webhooks")));
    expect(row.secretCiphertext).not.toContain(signingSecret);
  });

  it("delivers a signed event that verifies with the returned signing secret", async () => {
    receiver.status = 200;
    receiver.received = [];
    const db = await getDb();
    const [delivery] = await emitEvent(db, a.organizationId, "call.completed", { callId: "call_1", durationSeconds: 42 });
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0];
    expect(got.path).toBe("/hooks/switchboard");
    expect(got.headers["x-switchboard-event"]).toBe("call.completed");
    expect(got.headers["x-switchboard-delivery"]).toBe(delivery.id);
    const signature = String(got.headers["x-switchboard-signature"]);
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
    expect(match).not.toBeNull();
    const expected = crypto.createHmac("sha256", signingSecret).update(`${match![1]}.${got.body}`).digest("hex");
    expect(match![2]).toBe(expected);
    expect(Math.abs(Number(match![1]) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifySignature(signingSecret, signature, got.body)).toBe(true);
    expect(verifySignature("whsec_wrong", signature, got.body)).toBe(false);
    const body = JSON.parse(got.body);
    expect(body).toEqual({ id: delivery.id, event: "call.completed", createdAt: expect.any(String), data: { callId: "call_1", durationSeconds: 42 } });
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 200, lastError: null });
  });

  it("sends test.ping from the test route", async () => {
    receiver.status = 200;
    receiver.received = [];
    const res = await post(sendTest, "webhooks", "test", a);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ event: "test.ping", status: "delivered", attempts: 1, lastStatusCode: 200 });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0].headers["x-switchboard-event"]).toBe("test.ping");
  });

  it("retries a failed delivery with backoff and marks it delivered when the receiver recovers", async () => {
    receiver.status = 500;
    receiver.received = [];
    const db = await getDb();
    const before = Date.now();
    const [delivery] = await emitEvent(db, a.organizationId, "voicemail.received", { callId: "call_2" });
    expect(receiver.received).toHaveLength(1);
    expect(delivery.status).toBe("pending");
    expect(delivery.attempts).toBe(1);
    expect(delivery.lastStatusCode).toBe(500);
    expect(delivery.lastError).toContain("500");
    expect(delivery.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + RETRY_BACKOFF_MS[0] - 1000);

    // Not due yet: nothing is sent.
    await processDueDeliveries(db, new Date());
    expect(receiver.received).toHaveLength(1);

    receiver.status = 200;
    await processDueDeliveries(db, new Date(Date.now() + RETRY_BACKOFF_MS[0] + 1000));
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1].headers["x-switchboard-delivery"]).toBe(delivery.id);
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
    expect(row).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200 });
    expect(row.deliveredAt).not.toBeNull();
  });

  it("puts each retry on the job queue for its due time, and the job delivers it", async () => {
    receiver.status = 503;
    receiver.received = [];
    const db = await getDb();
    const [delivery] = await emitEvent(db, a.organizationId, "voicemail.received", { callId: "call_job" });
    expect(delivery.status).toBe("pending");
    const queue = await getJobQueue();
    const job = (await queue.pending(deliverWebhookJob.name)).find((j) => (j.data as { deliveryId: string }).deliveryId === delivery.id);
    expect(job).toBeDefined();
    expect(Math.abs(job!.startAfter.getTime() - delivery.nextAttemptAt.getTime())).toBeLessThan(1000);

    // Not due: the runner leaves it alone.
    await runDueJobs({ definitions: [deliverWebhookJob as never], schedules: false });
    expect(receiver.received).toHaveLength(1);

    // Its time has come (the delivery's own clock moved on): the job's handler sends it.
    receiver.status = 200;
    await db.update(webhookDeliveries).set({ nextAttemptAt: new Date(Date.now() - 1000) }).where(eq(webhookDeliveries.id, delivery.id));
    await deliverWebhookJob.handler({ deliveryId: delivery.id }, { db, job: { id: job!.id, name: deliverWebhookJob.name, data: {}, attempt: 1 } });
    expect(receiver.received).toHaveLength(2);
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
    expect(row.status).toBe("delivered");
  });

  it("gives up as failed after six attempts", async () => {
    receiver.status = 503;
    const db = await getDb();
    const zapier = await post(connect, "zapier", "connect", a, { url: `${receiver.url}/zap` });
    expect(zapier.status).toBe(200);
    const sent = await emitEvent(db, a.organizationId, "message.received", { messageId: "m1" });
    const zap = sent.find((d) => receiver.received.some((r) => r.path === "/zap" && r.headers["x-switchboard-delivery"] === d.id))!;
    expect(zap.attempts).toBe(1);
    let now = Date.now();
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      now += RETRY_BACKOFF_MS[attempt - 2] + 1000;
      await processDueDeliveries(db, new Date(now));
      const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, zap.id));
      expect(row.attempts).toBe(attempt);
      expect(row.status).toBe(attempt === MAX_ATTEMPTS ? "failed" : "pending");
    }
    await processDueDeliveries(db, new Date(now + 24 * 3600_000));
    const [final] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, zap.id));
    expect(final.attempts).toBe(MAX_ATTEMPTS);
    // The other connection (webhooks) got the same event and may also be retrying: stop it.
    await post(disconnect, "zapier", "disconnect", a);
    receiver.status = 200;
    await processDueDeliveries(db, new Date(now + 48 * 3600_000));
  });

  it("lists the delivery log for this organization only", async () => {
    const mine = await call(deliveries, "GET", "/api/integrations/webhooks/deliveries", { sessionId: a.sessionId, params: { slug: "webhooks" } });
    expect(mine.status).toBe(200);
    expect(mine.body.length).toBeGreaterThanOrEqual(3);
    for (const d of mine.body) {
      expect(Object.keys(d).sort()).toEqual(
        ["attempts", "createdAt", "deliveredAt", "event", "id", "lastError", "lastStatusCode", "nextAttemptAt", "status"].sort(),
      );
      expect(["pending", "delivered", "failed"]).toContain(d.status);
      expect(typeof d.attempts).toBe("number");
      if (d.status === "delivered") expect(typeof d.deliveredAt).toBe("string");
    }
    expect(mine.body.map((d: { event: string }) => d.event)).toEqual(expect.arrayContaining(["call.completed", "test.ping", "voicemail.received"]));

    const theirs = await call(deliveries, "GET", "/api/integrations/webhooks/deliveries", { sessionId: b.sessionId, params: { slug: "webhooks" } });
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual([]);
  });

  it("posts missed calls to Slack as {text} with the same bookkeeping", async () => {
    receiver.status = 200;
    receiver.received = [];
    const db = await getDb();
    // Slack URLs must be hooks.slack.com; point a stored connection at the local receiver instead.
    await db.insert(integrationConnections).values({
      id: crypto.randomUUID(),
      organizationId: a.organizationId,
      integration: "slack",
      connected: true,
      config: { host: "hooks.slack.com" },
      secretCiphertext: encryptSecret(JSON.stringify({ url: `${receiver.url}/slack` })),
    }).onConflictDoUpdate({
      target: [integrationConnections.organizationId, integrationConnections.integration],
      set: { connected: true, secretCiphertext: encryptSecret(JSON.stringify({ url: `${receiver.url}/slack` })) },
    });
    const delivery = await notifyMissedCall(db, a.organizationId, {
      id: "call_3",
      fromNumber: "+15035550123",
      toNumber: "+15035550142",
      callerName: "Dana Whitfield",
      startedAt: new Date("2026-11-22T10:04:00Z"),
    });
    expect(delivery).toMatchObject({ event: "call.missed", status: "delivered", attempts: 1 });
    const got = receiver.received.find((r) => r.path === "/slack")!;
    expect(JSON.parse(got.body)).toEqual({ text: expect.stringContaining("Missed call from Dana Whitfield (+15035550123)") });
    expect(got.headers["x-switchboard-signature"]).toBeUndefined();
    const log = await call(deliveries, "GET", "/api/integrations/slack/deliveries", { sessionId: a.sessionId, params: { slug: "slack" } });
    expect(log.body[0]).toMatchObject({ event: "call.missed", status: "delivered" });
    // Another organization without Slack gets no delivery.
    expect(await notifyMissedCall(db, b.organizationId, { id: "x", fromNumber: "+1", toNumber: "+2", startedAt: new Date() })).toBeNull();
  });

  it("stops sending after disconnect", async () => {
    receiver.received = [];
    const off = await post(disconnect, "webhooks", "disconnect", a);
    expect(off.body.connected).toBe(false);
    const db = await getDb();
    const sent = await emitEvent(db, a.organizationId, "call.completed", { callId: "call_4" });
    expect(sent).toEqual([]);
    expect(receiver.received).toHaveLength(0);
    const listed = await call(list, "GET", "/api/integrations", { sessionId: a.sessionId });
    expect(listed.body.find((i: { slug: string }) => i.slug === "webhooks").connected).toBe(false);
  });
});
