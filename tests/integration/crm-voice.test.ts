import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { GET as crmAnalytics } from "@/app/api/crm-voice/analytics/route";
import { GET as analyticsRoute } from "@/app/api/analytics/route";
import { GET as crmHealth } from "@/app/api/crm-voice/health/route";
import { POST as crmTest } from "@/app/api/crm-voice/test/route";
import { PATCH as updateLogistics } from "@/app/api/crm-voice/logistics/[id]/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { closeSpeechPools } from "@/lib/platform/providers/speech-pool";
import { assistantActions, assistantReplies, calls, emails, healthChecks, messages } from "@/db/schema";
import { logisticsKindOf } from "@/lib/reports/crm-voice/logistics";
import { refreshDirtyDays, refreshDirtyHours } from "@/lib/reports/analytics/rollup";
import { getCrmAnalytics } from "@/lib/reports/crm-voice/service";
import { DEFAULT_TEST_CONTENT } from "@/lib/reports/crm-voice/schema";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";
import { inboundCall, inboundText, insertScoredCalls, registerTestAdmin } from "../helpers/reports";

// The first test would otherwise pay for opening and migrating the database.
beforeAll(() => getDb(), 120_000);

afterAll(async () => {
  await closeSpeechPools();
  await closeDb();
});

describe("CRM voice", () => {
  it("individuals get 403 on every CRM route", async () => {
    const individual = await registerTestUser();
    const s = { sessionId: individual.sessionId };
    expect((await call(crmAnalytics, "GET", "/api/crm-voice/analytics", s)).status).toBe(403);
    expect((await call(crmHealth, "GET", "/api/crm-voice/health", s)).status).toBe(403);
    expect((await call(crmTest, "POST", "/api/crm-voice/test", { ...s, body: { testType: "text" } })).status).toBe(403);
    expect((await call(crmAnalytics, "GET", "/api/crm-voice/analytics")).status).toBe(401);
  });

  it("counts communications, sentiment (spec rounding), reply times per channel and the assistant's actions", async () => {
    const account = await registerTestAdmin();
    const db = await getDb();
    const org = account.organizationId;
    const callIds = await insertScoredCalls(org, [5, 4, 2]);
    await db.insert(messages).values([inboundText(org)]);
    const reply = (source: "call" | "sms", totalMs: number) => ({ id: crypto.randomUUID(), organizationId: org, source, inputText: "q", replyText: "a", llmProvider: "local", llmTotalMs: totalMs, totalMs });
    await db.insert(assistantReplies).values([reply("call", 1000), reply("call", 2000), reply("sms", 600)]);
    await db.insert(assistantActions).values([
      { id: crypto.randomUUID(), organizationId: org, callId: callIds[0], type: "took_message" },
      { id: crypto.randomUUID(), organizationId: org, callId: callIds[1], type: "booking_requested" },
      { id: crypto.randomUUID(), organizationId: org, callId: callIds[2], type: "booking_requested" },
    ]);
    const mail = (status: "sent" | "outbox" | "failed") => ({
      id: crypto.randomUUID(), organizationId: org, toAddress: "owner@example.com", subject: "Daily recap", text: "t", html: "<p>t</p>", kind: "recap", status,
    });
    // Sent and kept in the Outbox count; one SMTP refused does not.
    await db.insert(emails).values([mail("sent"), mail("outbox"), mail("failed")]);
    const res = await call(crmAnalytics, "GET", "/api/crm-voice/analytics", { sessionId: account.sessionId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      totalCommunications: 6,
      voiceCalls: 3,
      textMessages: 1,
      emails: 2,
      sentimentBreakdown: { positive: 2, neutral: 0, negative: 1 },
      positivePercent: 67, // round(2 / 3 × 100)
      averageSentiment: 3.7, // (5 + 4 + 2) / 3
      analysedCalls: 3,
      responseTime: { average: "1.2s", voice: "1.5s", text: "0.6s" },
      topActions: [
        { action: "Booking Requested", type: "booking_requested", count: 2 },
        { action: "Took Message", type: "took_message", count: 1 },
      ],
      logisticsRequests: { total: 0, pending: 0, completed: 0 },
    });
  });

  it("reads the 30 days from the daily rollup with the same figures as a direct count, and is never stale", async () => {
    const account = await registerTestAdmin();
    const db = await getDb();
    const org = account.organizationId;
    const DAY = 86_400_000;
    const now = Date.now();
    const sentiments = ["positive", "neutral", "negative", null] as const;
    const scores = [5, 3, 2, null] as const; // lib/reports/figures: the 1–5 score decides (4–5 positive, 3 neutral, 1–2 negative)
    // A call every 8 hours over 40 days: the first 30 days count, the 10 before do not.
    const rows = Array.from({ length: 120 }, (_, i) => inboundCall(org, { sentiment: sentiments[i % 4], sentimentScore: scores[i % 4], startedAt: new Date(now - (i * DAY) / 3 - 60_000) }));
    await db.insert(calls).values(rows);
    const at = (i: number) => new Date(now - i * DAY - 60_000);
    await db.insert(messages).values(Array.from({ length: 20 }, (_, i) => inboundText(org, { createdAt: at(i * 2) })));
    await db.insert(assistantReplies).values(Array.from({ length: 40 }, (_, i) => ({
      id: crypto.randomUUID(), organizationId: org, source: (i % 2 ? "sms" : "call") as "sms" | "call", inputText: "q", replyText: "a", llmProvider: "local", llmTotalMs: 500 + i * 50, totalMs: 500 + i * 50, createdAt: at(i),
    })));
    await db.insert(assistantActions).values(Array.from({ length: 40 }, (_, i) => ({
      id: crypto.randomUUID(), organizationId: org, callId: rows[i].id, type: i % 3 ? "took_message" : "booking_requested", createdAt: at(i),
    })));
    await db.insert(emails).values(Array.from({ length: 40 }, (_, i) => ({
      id: crypto.randomUUID(), organizationId: org, toAddress: "owner@example.com", subject: "Daily recap", text: "t", html: "<p>t</p>", kind: "recap",
      status: (["sent", "outbox", "failed"] as const)[i % 3], createdAt: at(i),
    })));
    const asOf = new Date();
    const live = await getCrmAnalytics(db, org, asOf);
    expect(await refreshDirtyDays(db, { organizationId: org })).toBeGreaterThan(30);
    expect(await getCrmAnalytics(db, org, asOf)).toEqual(live);
    await refreshDirtyHours(db, { organizationId: org }); // today and the last days' edges then come from analytics_hour
    const rolled = await getCrmAnalytics(db, org, asOf);
    expect(rolled).toEqual(live);

    const since = asOf.getTime() - 30 * DAY;
    const inWindow = rows.filter((r) => r.startedAt.getTime() >= since);
    expect(rolled.voiceCalls).toBe(inWindow.length);
    expect(rolled.sentimentBreakdown).toEqual({
      positive: inWindow.filter((r) => r.sentiment === "positive").length,
      neutral: inWindow.filter((r) => r.sentiment === "neutral").length,
      negative: inWindow.filter((r) => r.sentiment === "negative").length,
    });
    expect(rolled.textMessages).toBe(15); // 0, 2, …, 28 days ago
    expect(rolled.emails).toBe(Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 3 !== 2).length);
    const replyMs = Array.from({ length: 30 }, (_, i) => 500 + i * 50);
    expect(rolled.responseTime.average).toBe(`${Math.round(replyMs.reduce((a, b) => a + b, 0) / replyMs.length / 100) / 10}s`);
    expect(rolled.topActions).toEqual([
      { action: "Took Message", type: "took_message", count: 20 },
      { action: "Booking Requested", type: "booking_requested", count: 10 },
    ]);

    // A change after the rollup counts at once.
    await db.update(emails).set({ status: "sent" }).where(eq(emails.organizationId, org));
    expect((await getCrmAnalytics(db, org, asOf)).emails).toBe(30);
  });


  it("the same calls give the same sentiment on CRM Voice and Analytics (one definition, lib/reports/figures)", async () => {
    const account = await registerTestAdmin();
    // The last call is not analysed: it counts in neither figure.
    await insertScoredCalls(account.organizationId, [5, 5, 4, 3, 1, null]);
    const crm = (await call(crmAnalytics, "GET", "/api/crm-voice/analytics", { sessionId: account.sessionId })).body;
    const analytics = (await call(analyticsRoute, "GET", "/api/analytics?range=30d", { sessionId: account.sessionId })).body;
    expect(crm.positivePercent).toBe(60);
    expect(analytics.performance.positivePercent).toBe(60);
    expect(crm.averageSentiment).toBe(3.6);
    expect(analytics.performance.avgSentiment).toBe(3.6);
    expect(crm.analysedCalls).toBe(5);
    expect(analytics.performance.analysedCalls).toBe(5);
  });
  it("the logistics test captures a request the team can complete; the text test answers; bad input is a 400", async () => {
    const account = await registerTestAdmin();
    const s = { sessionId: account.sessionId };
    const bad = await call(crmTest, "POST", "/api/crm-voice/test", { ...s, body: { testType: "fax" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.testType).toBe("testType must be voice, text or logistics");

    const logistics = await call(crmTest, "POST", "/api/crm-voice/test", { ...s, body: { testType: "logistics", content: "" } });
    expect(logistics.status).toBe(200);
    expect(logistics.body.testType).toBe("logistics");
    expect(logistics.body.content).toBe(DEFAULT_TEST_CONTENT.logistics);
    expect(logistics.body.result.request).toMatchObject({ kind: "pickup", status: "pending", source: "test" });
    await call(crmTest, "POST", "/api/crm-voice/test", { ...s, body: { testType: "logistics", content: "Deliver 3 pallets to the warehouse on Friday" } });

    let analytics = (await call(crmAnalytics, "GET", "/api/crm-voice/analytics", s)).body;
    expect(analytics.logisticsRequests).toEqual({ total: 2, pending: 2, completed: 0 });
    const id = logistics.body.result.request.id;
    const other = await registerTestAdmin();
    expect((await call(updateLogistics, "PATCH", `/api/crm-voice/logistics/${id}`, { sessionId: other.sessionId, params: { id }, body: { status: "completed" } })).status).toBe(404);
    const done = await call(updateLogistics, "PATCH", `/api/crm-voice/logistics/${id}`, { ...s, params: { id }, body: { status: "completed" } });
    expect(done.status).toBe(200);
    expect(done.body.completedAt).not.toBeNull();
    analytics = (await call(crmAnalytics, "GET", "/api/crm-voice/analytics", s)).body;
    expect(analytics.logisticsRequests).toEqual({ total: 2, pending: 1, completed: 1 });
    expect(analytics.recentRequests[0].kind).toBe("delivery"); // pending first

    const text = await call(crmTest, "POST", "/api/crm-voice/test", { ...s, body: { testType: "text", content: "" } });
    expect(text.status).toBe(200);
    expect(text.body.testType).toBe("text");
    expect(text.body.content).toBe(DEFAULT_TEST_CONTENT.text);
    expect(text.body.result.reply.length).toBeGreaterThan(0);
  });

  it("the voice test answers with audio", async () => {
    const account = await registerTestAdmin();
    const res = await call(crmTest, "POST", "/api/crm-voice/test", { sessionId: account.sessionId, body: { testType: "voice", content: "What are your hours?" } });
    expect(res.status).toBe(200);
    expect(res.body.testType).toBe("voice");
    expect(res.body.result.audioUrl).toMatch(/^\/api\//);
    expect(res.body.result.reply.length).toBeGreaterThan(0);
  }, 60_000);

  it("health probes the services for real when nothing recent is recorded, and maps statuses", async () => {
    const account = await registerTestAdmin();
    const db = await getDb();
    await db.delete(healthChecks);
    const res = await call(crmHealth, "GET", "/api/crm-voice/health", { sessionId: account.sessionId });
    expect(res.status).toBe(200);
    expect(res.body.metrics.probedNow).toBe(true);
    expect(res.body.services.crmDatabase.status).toBe("healthy");
    expect(res.body.services.claude.status).toBe("healthy"); // the local responder answers offline
    expect(["healthy", "degraded"]).toContain(res.body.services.elevenlabs.status); // offline synthesis
    expect(res.body.services.crmDatabase.latencyMs).toEqual(expect.any(Number));
    const rows = await db.select().from(healthChecks);
    expect(rows.map((r) => r.component).sort()).toEqual(["database", "llm", "stt", "tts"]);
    // A second poll reads what was recorded instead of probing again.
    const again = await call(crmHealth, "GET", "/api/crm-voice/health", { sessionId: account.sessionId });
    expect(again.body.metrics.probedNow).toBe(false);
  }, 60_000);

  it("tells deliveries, pickups and orders apart", () => {
    expect(logisticsKindOf("Can you deliver it to my office?")).toBe("delivery");
    expect(logisticsKindOf("I'll pick up the order at 5")).toBe("pickup");
    expect(logisticsKindOf("I want two large pizzas")).toBe("order");
  });
});
