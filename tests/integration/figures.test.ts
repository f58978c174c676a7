import crypto from "node:crypto";
import { GET as analyticsRoute } from "@/app/api/analytics/route";
import { GET as billingOverview } from "@/app/api/billing/overview/route";
import { GET as crmAnalytics } from "@/app/api/crm-voice/analytics/route";
import { GET as crmHealth } from "@/app/api/crm-voice/health/route";
import { GET as dashboardFigures } from "@/app/api/dashboard/figures/route";
import { GET as systemStats } from "@/app/api/admin/system-stats/route";
import { GET as statusRoute } from "@/app/api/status/route";
import { healthChecks } from "@/db/schema";
import { changeCredits, spendCredits } from "@/lib/workspace/billing/ledger";
import { closeDb, getDb } from "@/lib/platform/database";
import { closeSpeechPools } from "@/lib/platform/providers/speech-pool";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";
import { insertScoredCalls, registerTestAdmin } from "../helpers/reports";

/**
 * Issue 30 point 4: one definition of each figure (lib/reports/figures), and every screen that shows it
 * reads it the same way — the dashboard, Analytics, CRM Voice, Billing, the admin screens and the
 * footer's status line.
 */

beforeAll(() => getDb(), 120_000);

afterAll(async () => {
  await closeSpeechPools();
  await closeDb();
});

/** One recorded health-check run: every part answered but speech recognition, which is not installed. */
async function recordRun(at: Date, sttDetail: string | null) {
  const db = await getDb();
  const runId = crypto.randomUUID();
  const row = (component: "database" | "llm" | "tts" | "stt", status: "operational" | "offline", detail: string) => ({ id: crypto.randomUUID(), runId, component, status, latencyMs: 5, detail, checkedAt: at });
  await db.insert(healthChecks).values([
    row("database", "operational", "Query answered"),
    row("llm", "operational", "local replied"),
    row("tts", "operational", "offline synthesized 100 bytes"),
    sttDetail ? row("stt", "offline", sttDetail) : row("stt", "operational", "pocketsphinx transcribed 4 words"),
  ]);
}

describe("one figure, every screen (lib/reports/figures)", () => {
  it("the same calls give the same sentiment on the dashboard, Analytics and CRM Voice", async () => {
    const account = await registerTestAdmin();
    const s = { sessionId: account.sessionId };
    await insertScoredCalls(account.organizationId, [5, 4, 4, 2, null]); // null: not analysed, in no sentiment figure

    const dashboard = (await call(dashboardFigures, "GET", "/api/dashboard/figures", s)).body;
    const analytics = (await call(analyticsRoute, "GET", "/api/analytics?range=30d", s)).body;
    const crm = (await call(crmAnalytics, "GET", "/api/crm-voice/analytics", s)).body;

    // 3 of 4 analysed calls scored 4 or 5; mean (5+4+4+2)/4 = 3.75 → 3.8.
    expect(dashboard.sentiment).toEqual({ analysedCalls: 4, average: 3.8, positivePercent: 75 });
    expect({ analysedCalls: analytics.performance.analysedCalls, average: analytics.performance.avgSentiment, positivePercent: analytics.performance.positivePercent }).toEqual(dashboard.sentiment);
    expect({ analysedCalls: crm.analysedCalls, average: crm.averageSentiment, positivePercent: crm.positivePercent }).toEqual(dashboard.sentiment);
  });

  it("credits used are spent less given back, the same on the dashboard, Analytics and Billing", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    const s = { sessionId: account.sessionId };
    await spendCredits(db, account.organizationId, 6, { reason: "call turn", category: "voice_processing" });
    await spendCredits(db, account.organizationId, 4, { reason: "text reply", category: "sms" });
    await changeCredits(db, account.organizationId, "refund", 4, { reason: "Credit back: spam text", reference: `sms-credit-back:${crypto.randomUUID()}` });

    const dashboard = (await call(dashboardFigures, "GET", "/api/dashboard/figures", s)).body;
    const analytics = (await call(analyticsRoute, "GET", "/api/analytics?range=30d", s)).body;
    const billing = (await call(billingOverview, "GET", "/api/billing/overview", s)).body;
    expect(dashboard.creditsUsed).toBe(6);
    expect(analytics.overview.creditsUsed).toBe(6);
    expect(billing.usedThisPeriod).toBe(6);
    // Billing's split by kind still adds up to the figure: the credit-back is a row of its own.
    const split = billing.usageByKind as { kind: string; credits: number }[];
    expect(split.reduce((sum, row) => sum + row.credits, 0)).toBe(6);
    expect(split.find((row) => row.kind === "credited_back")?.credits).toBe(-4);
  });

  it("a missing transcription engine is Degraded and named everywhere, never Offline beside 100 % uptime", async () => {
    const account = await registerTestAdmin();
    const s = { sessionId: account.sessionId };
    const now = Date.now();
    await recordRun(new Date(now - 120_000), "No speech recognition installed or configured");
    await recordRun(new Date(now - 1000), "No speech recognition installed or configured");

    const status = (await call(statusRoute, "GET", "/api/status", s)).body;
    expect(status.status).toBe("degraded");
    expect(status.headline).toBe("Degraded: voicemail transcription not installed");
    expect(status.problems[0]).toMatchObject({ component: "stt", name: "voicemail transcription", problem: "not installed" });
    expect(status.problems[0].howTo).toMatch(/PocketSphinx/);
    // Uptime counts the database and the language model only: both answered in every run.
    expect(status.uptime.percent).toBe(100);

    const analytics = (await call(analyticsRoute, "GET", "/api/analytics?range=30d", s)).body;
    expect(analytics.systemStatus.status).toBe("degraded");
    expect(analytics.systemStatus.headline).toBe(status.headline);
    expect(analytics.performance.uptime.percent).toBe(status.uptime.percent);

    const crm = (await call(crmHealth, "GET", "/api/crm-voice/health", s)).body;
    expect(crm.status).toBe("degraded");
    expect(crm.headline).toBe(status.headline);
    expect(crm.services.deepgram.status).toBe("degraded");
    expect(crm.services.crmDatabase.status).toBe("healthy");

    const system = (await call(systemStats, "GET", "/api/admin/system-stats", s)).body;
    expect(system.systemHealth.headline).toBe(status.headline);
    expect(system.systemHealth.uptime.percent).toBe(status.uptime.percent);
    expect(system.uptime.percent).toBe(status.uptime.percent);

    // The footer of a signed-out page: the state, not what is installed on the server.
    const anonymous = await call(statusRoute, "GET", "/api/status");
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ status: "degraded", checkedAt: status.checkedAt });

    // Once transcription is installed, every screen says all is well.
    await recordRun(new Date(), null);
    const healthy = (await call(statusRoute, "GET", "/api/status", s)).body;
    expect(healthy.status).toBe("operational");
    expect(healthy.problems).toEqual([]);
    expect((await call(crmHealth, "GET", "/api/crm-voice/health", s)).body.status).toBe("healthy");
  });

  it("the dashboard's figures need a session and are the caller's organization's own", async () => {
    expect((await call(dashboardFigures, "GET", "/api/dashboard/figures")).status).toBe(401);
    const other = await registerTestUser();
    const body = (await call(dashboardFigures, "GET", "/api/dashboard/figures", { sessionId: other.sessionId })).body;
    expect(body.sentiment.analysedCalls).toBe(0);
    expect(body.creditsUsed).toBe(0);
  });
});
