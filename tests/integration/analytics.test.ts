import crypto from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { GET as analyticsRoute } from "@/app/api/analytics/route";
import { GET as exportRoute } from "@/app/api/analytics/export/route";
import { GET as reportsList, POST as createReportRoute } from "@/app/api/analytics/reports/route";
import { DELETE as deleteReportRoute, GET as runReportRoute } from "@/app/api/analytics/reports/[id]/route";
import { GET as reportExportRoute } from "@/app/api/analytics/reports/[id]/export/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { analyticsDays, analyticsDirtyDays, analyticsDirtyHours, analyticsHours, assistantReplies, calls, healthChecks, messages, payments, phoneNumbers, users, voiceAssistants } from "@/db/schema";
import { getAnalytics } from "@/lib/reports/analytics/service";
import { analyticsRollupJob, analyticsRollupOrganizationJob, HOUR_ROLLUP_KEEP_HOURS, refreshDay, refreshDirtyDays, refreshDirtyHours, refreshHour, rollupWindow } from "@/lib/reports/analytics/rollup";
import { enqueue } from "@/lib/platform/jobs/queue";
import { runJobsUntil } from "../helpers/jobs";
import type { AnalyticsFilters, AnalyticsRange } from "@/lib/reports/analytics/schema";
import { spendCredits } from "@/lib/workspace/billing/ledger";
import { platformUptime } from "@/lib/reports/analytics/health";
import { regionOf } from "@/lib/reports/analytics/regions";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call, uniqueSuffix } from "../helpers/http";

// The first test would otherwise pay for opening and migrating the database.
beforeAll(() => getDb(), 120_000);

afterAll(() => closeDb());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type CallSeed = Partial<typeof calls.$inferInsert> & { ago: number };

/**
 * A small organization with known answers over the last 7 days (and 2 calls in the 7 days before):
 * 5 calls — 3 served (answered, transferred, voicemail), 2 not (failed, missed); failures: one
 * timeout, one processing; sentiment 5, 4, 2; intents hours ×2, appointment; regions West ×2,
 * Northeast, Midwest, International.
 */
async function seedOrganization() {
  const account = await registerTestUser();
  const db = await getDb();
  const org = account.organizationId;
  const now = Date.now();
  const numberId = crypto.randomUUID();
  await db.insert(phoneNumbers).values({ id: numberId, organizationId: org, phoneNumber: `+1555${uniqueSuffix().slice(-7)}`, friendlyName: "Main" });
  const seeds: CallSeed[] = [
    { ago: 1 * DAY, direction: "inbound", fromNumber: "+14155550101", status: "completed", outcome: "answered_by_assistant", durationSeconds: 120, sentimentScore: 5, intent: "hours" },
    { ago: 2 * DAY, direction: "inbound", fromNumber: "+12125550102", status: "completed", outcome: "transferred", durationSeconds: 60, sentimentScore: 4, intent: "hours" },
    { ago: 3 * DAY, direction: "inbound", fromNumber: "+13125550103", status: "failed", outcome: "failed", failureClass: "timeout", durationSeconds: 0 },
    { ago: 2 * DAY, direction: "outbound", toNumber: "+442071234567", status: "missed", outcome: "missed", durationSeconds: 0, phoneNumberId: null },
    { ago: 1 * DAY, direction: "inbound", fromNumber: "+14155550104", status: "voicemail", outcome: "voicemail", failureClass: "processing", durationSeconds: 30, sentimentScore: 2, intent: "appointment" },
    { ago: 10 * DAY, direction: "inbound", fromNumber: "+14155550105", status: "completed", outcome: "answered_by_assistant", durationSeconds: 40 },
    { ago: 12 * DAY, direction: "inbound", fromNumber: "+14155550106", status: "completed", outcome: "answered_by_assistant", durationSeconds: 40 },
  ];
  const ids: string[] = [];
  for (const { ago, ...seed } of seeds) {
    const id = crypto.randomUUID();
    ids.push(id);
    await db.insert(calls).values({
      id,
      organizationId: org,
      phoneNumberId: numberId,
      fromNumber: "+15550000000",
      toNumber: "+15550000001",
      direction: "inbound",
      status: "completed",
      startedAt: new Date(now - ago),
      ...seed,
    } as typeof calls.$inferInsert);
  }
  for (const ago of [1 * DAY, 2 * DAY, 5 * DAY]) {
    await db.insert(messages).values({ id: crypto.randomUUID(), organizationId: org, phoneNumberId: numberId, direction: "inbound", fromNumber: "+14155550101", toNumber: "+15550000001", body: "hi", status: "received", createdAt: new Date(now - ago) });
  }
  for (const totalMs of [500, 1500, 4000, 800]) {
    await db.insert(assistantReplies).values({ id: crypto.randomUUID(), organizationId: org, callId: ids[0], source: "call", inputText: "q", replyText: "a", llmProvider: "local", llmTotalMs: totalMs, totalMs, createdAt: new Date(now - DAY) });
  }
  const pay = (cents: number, ago: number) => ({
    id: crypto.randomUUID(),
    organizationId: org,
    provider: "simulated" as const,
    kind: "credit_pack" as const,
    status: "paid" as const,
    amountCents: cents,
    description: "test",
    invoiceNumber: `T-${uniqueSuffix()}`,
    createdAt: new Date(now - ago),
    paidAt: new Date(now - ago),
  });
  await db.insert(payments).values([pay(4900, DAY), pay(2500, 9 * DAY)]);
  await spendCredits(db, org, 3, { reason: "test voice", category: "voice_processing" });
  await spendCredits(db, org, 2, { reason: "test sms", category: "sms" });
  return { account, numberId };
}

describe("GET /api/analytics", () => {
  let seeded: { account: TestAccount; numberId: string };
  beforeAll(async () => {
    seeded = await seedOrganization();
  });

  it("computes the organization's figures exactly over 7 days", async () => {
    const res = await call(analyticsRoute, "GET", "/api/analytics", { sessionId: seeded.account.sessionId });
    expect(res.status).toBe(200);
    const a = res.body;
    expect(a.range).toBe("7d");
    expect(a.scope).toBe("organization");
    expect(a.overview).toEqual({
      totalCalls: 5,
      totalMessages: 3,
      totalUsers: 1,
      totalRevenue: 49,
      avgCallDuration: 70, // (120 + 60 + 30) / 3
      successRate: 60, // 3 served of 5 finished
      responseTime: 1.7, // (500 + 1500 + 4000 + 800) / 4 ms
      creditsUsed: 5,
    });
    expect(a.trends.calls).toEqual({ current: 5, previous: 2, growth: 150 });
    expect(a.trends.messages).toEqual({ current: 3, previous: 0, growth: null });
    expect(a.trends.revenue).toEqual({ current: 49, previous: 25, growth: 96 });
    expect(a.trends.users).toEqual({ current: 1, previous: 0, growth: null });
    expect(a.performance.errorRate).toBe(40);
    expect(a.performance.errors).toEqual({ timeout: 20, authentication: 0, processing: 20 });
    expect(a.performance.avgSentiment).toBe(3.7); // (5 + 4 + 2) / 3
    expect(a.performance.sentiment).toEqual([
      { label: "Very Positive", count: 1, percent: 33.3 },
      { label: "Positive", count: 1, percent: 33.3 },
      { label: "Neutral", count: 0, percent: 0 },
      { label: "Negative", count: 1, percent: 33.3 },
    ]);
    expect(a.performance.topIntents).toEqual([
      { intent: "hours", count: 2, percent: 66.7 },
      { intent: "appointment", count: 1, percent: 33.3 },
    ]);
    expect(a.performance.responseTimes).toEqual([
      { bucket: "under_1s", count: 2, percent: 50 },
      { bucket: "1_3s", count: 1, percent: 25 },
      { bucket: "over_3s", count: 1, percent: 25 },
    ]);
    expect(a.usage.byRegion).toEqual([
      { region: "West", calls: 2, percent: 40 },
      { region: "Northeast", calls: 1, percent: 20 },
      { region: "Midwest", calls: 1, percent: 20 },
      { region: "International", calls: 1, percent: 20 },
    ]);
    expect(a.usage.byHour).toHaveLength(24);
    expect(a.usage.byHour.reduce((s: number, h: { calls: number }) => s + h.calls, 0)).toBe(5);
    expect(a.usage.byDay.reduce((s: number, d: { calls: number; messages: number }) => s + d.calls + d.messages, 0)).toBe(8);
    expect(a.insight).toBe("Calls rose 150% against the previous 7 days (2 → 5).");
  });

  it("applies the filters and refuses another organization's number (400 naming the field)", async () => {
    const outbound = await call(analyticsRoute, "GET", "/api/analytics?direction=outbound", { sessionId: seeded.account.sessionId });
    expect(outbound.body.overview.totalCalls).toBe(1);
    expect(outbound.body.overview.successRate).toBe(0);
    const byNumber = await call(analyticsRoute, "GET", `/api/analytics?phoneNumberId=${seeded.numberId}&range=30d`, { sessionId: seeded.account.sessionId });
    expect(byNumber.body.overview.totalCalls).toBe(6); // the outbound call has no number; 30 days reach the two older calls
    expect(byNumber.body.overview.totalMessages).toBe(3);
    const other = await registerTestUser();
    const denied = await call(analyticsRoute, "GET", `/api/analytics?phoneNumberId=${seeded.numberId}`, { sessionId: other.sessionId });
    expect(denied.status).toBe(400);
    expect(denied.body.errors.phoneNumberId).toBeDefined();
    const bad = await call(analyticsRoute, "GET", "/api/analytics?range=1y", { sessionId: seeded.account.sessionId });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.range).toBe("range must be 24h, 7d, 30d or 90d");
  });

  it("another organization sees none of it; the platform scope is for admins only", async () => {
    const other = await registerTestUser();
    const own = await call(analyticsRoute, "GET", "/api/analytics", { sessionId: other.sessionId });
    expect(own.body.overview.totalCalls).toBe(0);
    expect(own.body.overview.successRate).toBeNull();
    expect((await call(analyticsRoute, "GET", "/api/analytics")).status).toBe(401);
    expect((await call(analyticsRoute, "GET", "/api/analytics?scope=platform", { sessionId: other.sessionId })).status).toBe(403);
    expect((await call(exportRoute, "GET", "/api/analytics/export?scope=platform", { sessionId: other.sessionId })).status).toBe(403);
    const db = await getDb();
    await db.update(users).set({ role: "business" }).where(eq(users.id, other.id));
    expect((await call(analyticsRoute, "GET", "/api/analytics?scope=platform", { sessionId: other.sessionId })).status).toBe(403);
    await db.update(users).set({ role: "admin" }).where(eq(users.id, other.id));
    const platform = await call(analyticsRoute, "GET", "/api/analytics?scope=platform", { sessionId: other.sessionId });
    expect(platform.status).toBe(200);
    expect(platform.body.scope).toBe("platform");
    expect(platform.body.overview.totalCalls).toBeGreaterThanOrEqual(5);
  });

  it("exports the range as CSV whose rows match the API", async () => {
    const s = { sessionId: seeded.account.sessionId };
    const api = (await call(analyticsRoute, "GET", "/api/analytics?range=30d", s)).body;
    const res = await call(exportRoute, "GET", "/api/analytics/export?range=30d", s);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const lines = res.text.trim().split("\r\n");
    expect(lines).toContain(`totalCalls,${api.overview.totalCalls}`);
    expect(lines).toContain(`successRate,${api.overview.successRate}`);
    const dayRows = lines.slice(lines.indexOf("day,calls,messages") + 1);
    expect(dayRows).toEqual(api.usage.byDay.map((d: { day: string; calls: number; messages: number }) => `${d.day},${d.calls},${d.messages}`));
  });

  it("saves a custom report, runs it and exports it again; another organization cannot", async () => {
    const s = { sessionId: seeded.account.sessionId };
    const bad = await call(createReportRoute, "POST", "/api/analytics/reports", { ...s, body: { name: "", metrics: [] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.name).toBe("name is required");
    const created = await call(createReportRoute, "POST", "/api/analytics/reports", {
      ...s,
      body: { name: "Inbound week", metrics: ["totalCalls", "successRate", "errorRate"], range: "7d", filters: { direction: "inbound" } },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await call(reportsList, "GET", "/api/analytics/reports", s)).body.reports.map((r: { id: string }) => r.id)).toEqual([id]);
    const run = await call(runReportRoute, "GET", `/api/analytics/reports/${id}`, { ...s, params: { id } });
    // inbound only: 4 calls, 3 served of 4 finished, failures 2 of 4
    expect(run.body.values).toEqual([
      { metric: "totalCalls", value: 4 },
      { metric: "successRate", value: 75 },
      { metric: "errorRate", value: 50 },
    ]);
    const csv = await call(reportExportRoute, "GET", `/api/analytics/reports/${id}/export`, { ...s, params: { id } });
    expect(csv.text).toContain("totalCalls,4\r\nsuccessRate,75\r\nerrorRate,50\r\n");
    const other = await registerTestUser();
    expect((await call(runReportRoute, "GET", `/api/analytics/reports/${id}`, { sessionId: other.sessionId, params: { id } })).status).toBe(404);
    expect((await call(deleteReportRoute, "DELETE", `/api/analytics/reports/${id}`, { sessionId: other.sessionId, params: { id } })).status).toBe(404);
    expect((await call(deleteReportRoute, "DELETE", `/api/analytics/reports/${id}`, { ...s, params: { id } })).status).toBe(200);
  });
});

describe("daily rollups (analytics.rollup job)", () => {
  it("gives the same figures as the live scan for every range and filter, and is never stale", async () => {
    const { account, numberId } = await seedOrganization();
    const db = await getDb();
    const org = account.organizationId;
    const scope = { organizationId: org };
    const [assistant] = await db.select({ id: voiceAssistants.id }).from(voiceAssistants).where(eq(voiceAssistants.organizationId, org));
    await db.update(calls).set({ assistantId: assistant.id }).where(and(eq(calls.organizationId, org), eq(calls.intent, "hours")));
    await db.update(phoneNumbers).set({ assistantId: assistant.id }).where(eq(phoneNumbers.id, numberId));
    const now = new Date();
    const cases: [AnalyticsRange, AnalyticsFilters][] = [
      ["24h", {}],
      ["7d", {}],
      ["30d", {}],
      ["90d", {}],
      ["30d", { phoneNumberId: numberId }],
      ["30d", { direction: "outbound" }],
      ["30d", { assistantId: assistant.id }],
    ];
    const live = await Promise.all(cases.map(([range, filters]) => getAnalytics(db, scope, range, filters, now)));
    const days = async () => (await db.select().from(analyticsDirtyDays).where(eq(analyticsDirtyDays.organizationId, org))).length;
    expect(await days()).toBeGreaterThan(0); // written rows mark their days

    expect(await refreshDirtyDays(db, { organizationId: org })).toBeGreaterThan(0);
    expect(await days()).toBe(0);
    expect((await db.select().from(analyticsDays).where(eq(analyticsDays.organizationId, org))).length).toBeGreaterThan(0);
    const rolled = await Promise.all(cases.map(([range, filters]) => getAnalytics(db, scope, range, filters, now)));
    expect(rolled).toEqual(live);
    // With the hours rolled up too, the ranges' recent edges (today, the last 66 hours) come from analytics_hour.
    await refreshDirtyHours(db, { organizationId: org });
    expect(await Promise.all(cases.map(([range, filters]) => getAnalytics(db, scope, range, filters, now)))).toEqual(live);
    expect(rolled[1].overview.totalCalls).toBe(5);
    expect(rolled[6].overview.totalCalls).toBe(2); // the two "hours" calls are this assistant's

    // A change after the rollup counts at once (its day is read live until the job runs again).
    await db.update(calls).set({ sentimentScore: 5 }).where(and(eq(calls.organizationId, org), eq(calls.outcome, "voicemail")));
    const changed = await getAnalytics(db, scope, "7d", {}, now);
    expect(changed.performance.sentiment[0]).toEqual({ label: "Very Positive", count: 2, percent: 66.7 });
    expect(await days()).toBe(1);
    await refreshDirtyDays(db, { organizationId: org });
    expect(await getAnalytics(db, scope, "7d", {}, now)).toEqual(changed);

    // Deleting a call is counted too.
    await db.delete(calls).where(and(eq(calls.organizationId, org), eq(calls.outcome, "missed")));
    expect((await getAnalytics(db, scope, "7d", {}, now)).overview.totalCalls).toBe(4);
    await refreshDirtyDays(db, { organizationId: org });
    expect((await getAnalytics(db, scope, "7d", {}, now)).overview.totalCalls).toBe(4);
  });

  it("the minute job hands each organization with dirty days a job of its own, and the figures stay exact", async () => {
    const [a, b] = [await seedOrganization(), await seedOrganization()];
    const db = await getDb();
    const now = new Date();
    const orgs = [a.account.organizationId, b.account.organizationId];
    const live = await Promise.all(orgs.map((organizationId) => getAnalytics(db, { organizationId }, "30d", {}, now)));
    const dirty = async () => (await db.select().from(analyticsDirtyDays).where(inArray(analyticsDirtyDays.organizationId, orgs))).length;
    expect(await dirty()).toBeGreaterThan(0);
    await enqueue(null, analyticsRollupJob, {});
    await runJobsUntil([analyticsRollupJob, analyticsRollupOrganizationJob], async () => (await dirty()) === 0);
    for (const organizationId of orgs) {
      expect((await db.select().from(analyticsDays).where(eq(analyticsDays.organizationId, organizationId))).length).toBeGreaterThan(0);
    }
    expect(await Promise.all(orgs.map((organizationId) => getAnalytics(db, { organizationId }, "30d", {}, now)))).toEqual(live);
  });

  it("the 24h range reads whole hours from the hourly rollup, with the same figures as a direct count", async () => {
    const { account, numberId } = await seedOrganization();
    const db = await getDb();
    const org = account.organizationId;
    const scope = { organizationId: org };
    const base = Date.now();
    // Two calls an hour over the last 30 hours, with varied outcomes, areas, intents and sentiment.
    const rows = Array.from({ length: 60 }, (_, i) => ({
      id: crypto.randomUUID(),
      organizationId: org,
      phoneNumberId: i % 3 === 0 ? null : numberId,
      direction: (i % 4 === 0 ? "outbound" : "inbound") as "inbound" | "outbound",
      fromNumber: i % 5 === 0 ? "+442071234567" : `+1${["415", "212", "312"][i % 3]}555${String(1000 + i)}`,
      toNumber: "+15550000001",
      status: (i % 7 === 0 ? "missed" : "completed") as "missed" | "completed",
      outcome: (i % 7 === 0 ? "missed" : "answered_by_assistant") as "missed" | "answered_by_assistant",
      durationSeconds: i % 7 === 0 ? 0 : 30 + i,
      sentimentScore: i % 2 === 0 ? 1 + (i % 5) : null,
      intent: ["hours", "appointment", null][i % 3],
      startedAt: new Date(base - (i * HOUR) / 2 - 60_000),
    }));
    await db.insert(calls).values(rows);
    await db.insert(messages).values(
      Array.from({ length: 10 }, (_, i) => ({
        id: crypto.randomUUID(), organizationId: org, phoneNumberId: numberId, direction: "inbound" as const, fromNumber: "+14155550101",
        toNumber: "+15550000001", body: "hi", status: "received" as const, createdAt: new Date(base - i * 3 * HOUR - 120_000),
      })),
    );
    const now = new Date();
    const cases: AnalyticsFilters[] = [{}, { phoneNumberId: numberId }, { direction: "outbound" }];
    const live = await Promise.all(cases.map((filters) => getAnalytics(db, scope, "24h", filters, now)));
    const hours = async () => (await db.select().from(analyticsDirtyHours).where(eq(analyticsDirtyHours.organizationId, org))).length;
    expect(await hours()).toBeGreaterThan(24); // written rows mark their hours (30 hours of calls)

    expect(await refreshDirtyHours(db, { organizationId: org })).toBeGreaterThan(24);
    expect(await hours()).toBe(0);
    expect((await db.select().from(analyticsHours).where(eq(analyticsHours.organizationId, org))).length).toBeGreaterThan(0);
    const rolled = await Promise.all(cases.map((filters) => getAnalytics(db, scope, "24h", filters, now)));
    expect(rolled).toEqual(live);

    // Exact: the same numbers as counting the rows directly.
    const from = new Date(now.getTime() - 24 * HOUR);
    const inRange = rows.filter((r) => r.startedAt >= from && r.startedAt < now);
    const previous = rows.filter((r) => r.startedAt >= new Date(from.getTime() - 24 * HOUR) && r.startedAt < from).length;
    expect(rolled[0].overview.totalCalls).toBe(inRange.length);
    expect(rolled[0].trends.calls.previous).toBe(previous + 2); // and the seed's two calls of a day ago
    expect(rolled[0].overview.totalMessages).toBe(8); // 0, 3, …, 21 hours ago
    expect(rolled[2].overview.totalCalls).toBe(inRange.filter((r) => r.direction === "outbound").length);
    const scored = inRange.filter((r) => r.sentimentScore !== null);
    expect(rolled[0].performance.analysedCalls).toBe(scored.length);
    expect(rolled[0].usage.byHour.reduce((n, h) => n + h.calls, 0)).toBe(inRange.length);

    // A change after the rollup counts at once (its hour is read live until the job runs again).
    await db.update(calls).set({ intent: "billing" }).where(eq(calls.id, rows[3].id));
    const changed = await getAnalytics(db, scope, "24h", {}, now);
    expect(changed.performance.topIntents.find((t) => t.intent === "billing")?.count).toBe(1);
    expect(await hours()).toBe(1);
    const [dirty] = await db.select().from(analyticsDirtyHours).where(eq(analyticsDirtyHours.organizationId, org));
    expect(await refreshHour(db, org, new Date(dirty.hour).toISOString())).toBe(true);
    expect(await refreshHour(db, org, new Date(dirty.hour).toISOString())).toBe(false);
    expect(await getAnalytics(db, scope, "24h", {}, now)).toEqual(changed);
  });

  it("the 30d range reads its partial first days by the hour: exact, and only partial hours scanned live", async () => {
    const { account } = await seedOrganization();
    const db = await getDb();
    const org = account.organizationId;
    const now = new Date();
    const from = new Date(now.getTime() - 30 * DAY);
    const previousFrom = new Date(from.getTime() - 30 * DAY);
    // Calls every 20 minutes around both windows' first edges (a day either side of 30 and 60 days ago).
    const rows = [from, previousFrom].flatMap((edge, e) =>
      Array.from({ length: 144 }, (_, i) => ({
        id: crypto.randomUUID(),
        organizationId: org,
        direction: "inbound" as const,
        fromNumber: `+1${["415", "212"][i % 2]}555${String(1000 + i)}`,
        toNumber: "+15550000001",
        status: "completed" as const,
        outcome: "answered_by_assistant" as const,
        durationSeconds: 10 + i,
        intent: ["hours", "pricing"][(i + e) % 2],
        startedAt: new Date(edge.getTime() - DAY + i * 20 * 60_000 + 7_000),
      })),
    );
    await db.insert(calls).values(rows);
    const live = await getAnalytics(db, { organizationId: org }, "30d", {}, now);
    await refreshDirtyDays(db, { organizationId: org, limit: 1000 });
    await refreshDirtyHours(db, { organizationId: org, limit: 1000 });
    const rolled = await getAnalytics(db, { organizationId: org }, "30d", {}, now);
    expect(rolled).toEqual(live);
    const direct = (a: Date, b: Date) => rows.filter((r) => r.startedAt >= a && r.startedAt < b).length;
    // The seed's own 7 calls (the last 14 days) lie inside the 30 days too.
    expect(rolled.overview.totalCalls).toBe(direct(from, now) + 7);
    expect(rolled.trends.calls.previous).toBe(direct(previousFrom, from));
    // What is still scanned live: at most the partial hour at each end of each window.
    for (const [a, b] of [[from, now], [previousFrom, from]]) {
      const window = await rollupWindow(db, org, a, b);
      const liveMs = window.live.reduce((ms, [x, y]) => ms + (y.getTime() - x.getTime()), 0);
      expect(liveMs).toBeLessThanOrEqual(2 * HOUR);
    }
  });

  it("keeps hourly rollups as long as the triggers mark hours dirty", async () => {
    const db = await getDb();
    const result = await db.execute(sql`select extract(epoch from analytics_hour_keep())::int as seconds`);
    expect(Number((result as unknown as { rows: { seconds: number }[] }).rows[0].seconds)).toBe(HOUR_ROLLUP_KEEP_HOURS * 3600);
    expect(HOUR_ROLLUP_KEEP_HOURS).toBeGreaterThanOrEqual(2 * 90 * 24 + 24); // the 90d range's previous window and its first day
  });

  it("a second refresh of a day already refreshed does nothing", async () => {
    const { account } = await seedOrganization();
    const db = await getDb();
    const [dirty] = await db.select().from(analyticsDirtyDays).where(eq(analyticsDirtyDays.organizationId, account.organizationId)).limit(1);
    expect(await refreshDay(db, account.organizationId, dirty.day)).toBe(true);
    expect(await refreshDay(db, account.organizationId, dirty.day)).toBe(false);
  });
});

describe("uptime and regions", () => {
  it("uptime is the share of probe runs whose database and language model answered, over the window", async () => {
    const db = await getDb();
    const now = new Date("2091-03-01T00:00:00Z");
    const run = (minutesAgo: number, llm: "operational" | "degraded" | "offline", tts: "operational" | "offline" = "operational") => {
      const runId = crypto.randomUUID();
      const checkedAt = new Date(now.getTime() - minutesAgo * 60_000);
      return (["database", "llm", "tts"] as const).map((component) => ({
        id: crypto.randomUUID(),
        runId,
        component,
        status: component === "llm" ? llm : component === "tts" ? tts : ("operational" as const),
        latencyMs: 5,
        checkedAt,
      }));
    };
    expect((await platformUptime(db, now)).percent).toBeNull();
    // 4 runs in the window: up, up (degraded counts as answering), up (speech down does not count), down.
    await db.insert(healthChecks).values([...run(1, "operational"), ...run(2, "degraded"), ...run(3, "operational", "offline"), ...run(4, "offline"), ...run(60 * 24 * 31, "offline")]);
    expect(await platformUptime(db, now)).toMatchObject({ percent: 75, runs: 4, upRuns: 3, windowDays: 30 });
  });

  it("maps numbers to regions by country and area code", () => {
    expect(regionOf("+14155550100")).toBe("West");
    expect(regionOf("+12125550100")).toBe("Northeast");
    expect(regionOf("+14165550100")).toBe("Canada");
    expect(regionOf("+18005550100")).toBe("Toll-free");
    expect(regionOf("+442071234567")).toBe("International");
    expect(regionOf("agent:booking")).toBe("Unknown");
  });
});
