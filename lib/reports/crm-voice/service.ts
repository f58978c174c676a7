import "server-only";
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { logisticsRequests } from "@/db/schema";
import { latestHealth, recordHealthRun, type LatestHealth } from "@/lib/reports/analytics/health";
import { rollupTotals, rollupWindow } from "@/lib/reports/analytics/rollup";
import { actionLabel } from "@/lib/reports/analytics/text";
import { spendCredits } from "@/lib/workspace/billing/ledger";
import { categoryOf, creditPrices } from "@/lib/workspace/billing/prices";
import type { RequestContext } from "@/lib/identity/http/route";
import { selectLlm } from "@/lib/workspace/provider-selection/llm";
import { assistantContext, personaForModel } from "@/lib/phone/voice/context";
import { runVoiceTest } from "@/lib/phone/voice/service";
import { DEFAULT_TEST_CONTENT, type CrmTestInput } from "./schema";
import { captureLogisticsRequest, toRequest, type LogisticsRequest } from "./logistics";
import { CORE_COMPONENTS, healthFigure, sentimentFigure, type HealthProblem } from "@/lib/reports/figures";

export { captureLogisticsRequest, setLogisticsStatus, type LogisticsRequest } from "./logistics";

/**
 * CRM Voice Management (docs/analytics.md#crm-voice): the organization's communications, sentiment,
 * reply times, what the assistant did and the logistics requests it captured, over the last 30 days;
 * the health of the services the assistant depends on; and tests that run the real pipeline.
 */

export const CRM_WINDOW_DAYS = 30;

export type CrmAnalytics = {
  windowDays: number;
  since: string;
  totalCommunications: number;
  voiceCalls: number;
  textMessages: number;
  /**
   * E-mails the product wrote for the organization (owner notices, daily recaps, booking mails):
   * sent through SMTP or kept in the Outbox; refused ones are not counted. It receives none.
   */
  emails: number;
  sentimentBreakdown: { positive: number; neutral: number; negative: number };
  /** lib/reports/figures: mean 1–5 score and how many calls were analysed (the same definition as Analytics). */
  averageSentiment: number | null;
  analysedCalls: number;
  /** Spec rule: positive / max(total, 1) × 100, rounded. */
  positivePercent: number;
  /** Seconds as strings ("1.7s"); "—" when there was no reply on that channel. */
  responseTime: { average: string; voice: string; text: string };
  topActions: { action: string; type: string; count: number }[];
  logisticsRequests: { total: number; pending: number; completed: number };
  recentRequests: LogisticsRequest[];
};

function secondsText(ms: number | null): string {
  return ms === null ? "—" : `${Math.round(ms / 100) / 10}s`;
}

export async function getCrmAnalytics(db: Db, organizationId: string, now = new Date()): Promise<CrmAnalytics> {
  const since = new Date(now.getTime() - CRM_WINDOW_DAYS * 86_400_000);
  // Calls, texts, replies, actions and e-mails from the daily rollup (whole clean days) plus a live
  // scan of the edges and dirty days, so the screen costs the same at 1,000 calls as at 1,000,000 (issue 29).
  const window = await rollupWindow(db, organizationId, since, now);
  const [callRows, messageRows, replyRows, actionRows, emailRows, [l], recent] = await Promise.all([
    rollupTotals(db, "call", organizationId, window, "hour"),
    rollupTotals(db, "message", organizationId, window, "hour"),
    rollupTotals(db, "reply", organizationId, window, "all"),
    rollupTotals(db, "action", organizationId, window, "all"),
    rollupTotals(db, "email", organizationId, window, "all"),
    db
      .select({
        total: sql<number>`count(*)::int`,
        pending: sql<number>`count(*) filter (where ${logisticsRequests.status} = 'pending')::int`,
        completed: sql<number>`count(*) filter (where ${logisticsRequests.status} = 'completed')::int`,
      })
      .from(logisticsRequests)
      .where(eq(logisticsRequests.organizationId, organizationId)),
    db
      .select()
      .from(logisticsRequests)
      .where(eq(logisticsRequests.organizationId, organizationId))
      .orderBy(sql`${logisticsRequests.status} = 'completed'`, desc(logisticsRequests.createdAt))
      .limit(50),
  ]);
  const avg = (rows: typeof replyRows) => {
    const n = rows.reduce((s, r) => s + r.n, 0);
    return n ? rows.reduce((s, r) => s + r.ms_sum, 0) / n : null;
  };
  const sum = (rows: typeof callRows, metric: "n" | "s5" | "s4" | "s3" | "s12" | "score_sum") => rows.reduce((total, r) => total + r[metric], 0);
  const c = { n: sum(callRows, "n") };
  const m = { n: sum(messageRows, "n") };
  const e = { n: sum(emailRows, "n") };
  // The score buckets of lib/reports/figures (the same as Analytics): 4–5 positive, 3 neutral, 1–2 negative.
  const sentiment = sentimentFigure({ veryPositive: sum(callRows, "s5"), positive: sum(callRows, "s4"), neutral: sum(callRows, "s3"), negative: sum(callRows, "s12"), scoreSum: sum(callRows, "score_sum") });
  const positive = sum(callRows, "s5") + sum(callRows, "s4");
  const neutral = sum(callRows, "s3");
  const negative = sum(callRows, "s12");
  return {
    windowDays: CRM_WINDOW_DAYS,
    since: since.toISOString(),
    totalCommunications: c.n + m.n + e.n,
    voiceCalls: c.n,
    textMessages: m.n,
    emails: e.n,
    sentimentBreakdown: { positive, neutral, negative },
    positivePercent: sentiment.positivePercent ?? 0,
    averageSentiment: sentiment.average,
    analysedCalls: sentiment.analysedCalls,
    responseTime: {
      average: secondsText(avg(replyRows)),
      voice: secondsText(avg(replyRows.filter((r) => r.key === "call"))),
      text: secondsText(avg(replyRows.filter((r) => r.key === "sms"))),
    },
    topActions: actionRows
      .filter((r) => r.key !== null)
      .map((r) => ({ action: actionLabel(r.key!), type: r.key!, count: r.n }))
      .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type))
      .slice(0, 8),
    logisticsRequests: { total: Number(l.total), pending: Number(l.pending), completed: Number(l.completed) },
    recentRequests: recent.map(toRequest),
  };
}

// ---------------------------------------------------------------------------------------------
// Health

/** Recorded results younger than this are shown as they are; older ones trigger a fresh probe. */
export const HEALTH_FRESH_MS = 2 * 60_000;

type ServiceHealth = { status: "healthy" | "degraded" | "unhealthy" | "unknown"; provider: string; latencyMs: number | null; detail: string; checkedAt: string | null };

const statusWord = { operational: "healthy", degraded: "degraded", offline: "unhealthy", unknown: "unknown" } as const;

/** lib/reports/figures: an optional part (voice, transcription) that is missing or failing is Degraded, never Offline. */
function toService(h: LatestHealth[number]): ServiceHealth {
  const core = (CORE_COMPONENTS as readonly string[]).includes(h.component);
  const status = h.status === "offline" && !core ? "degraded" : statusWord[h.status];
  return { status, provider: h.component, latencyMs: h.latencyMs, detail: h.detail, checkedAt: h.checkedAt };
}

export type CrmHealth = {
  status: "healthy" | "degraded" | "unhealthy" | "unknown";
  /** lib/reports/figures healthFigure: "Degraded: voicemail transcription not installed", each part named with how to install. */
  headline: string;
  problems: HealthProblem[];
  services: { claude: ServiceHealth; elevenlabs: ServiceHealth; deepgram: ServiceHealth; crmDatabase: ServiceHealth };
  metrics: { checkedAt: string | null; probedNow: boolean };
};

/** The newest probes of the language model, speech synthesis, speech recognition and the database; probes again when stale. */
export async function getCrmHealth(db: Db, now = new Date()): Promise<CrmHealth> {
  let latest = await latestHealth(db);
  const oldest = Math.min(...latest.map((h) => (h.checkedAt ? Date.parse(h.checkedAt) : 0)));
  const probedNow = now.getTime() - oldest > HEALTH_FRESH_MS;
  if (probedNow) {
    await recordHealthRun(db, now);
    latest = await latestHealth(db);
  }
  const by = Object.fromEntries(latest.map((h) => [h.component, toService(h)])) as Record<string, ServiceHealth>;
  const services = { claude: by.llm, elevenlabs: by.tts, deepgram: by.stt, crmDatabase: by.database };
  const figure = healthFigure(latest);
  return { status: statusWord[figure.status], headline: figure.headline, problems: figure.problems, services, metrics: { checkedAt: latest.map((h) => h.checkedAt).sort().at(-1) ?? null, probedNow } };
}

// ---------------------------------------------------------------------------------------------
// Tests

export type CrmTestResult =
  | { testType: "voice"; content: string; result: { reply: string; intent: string; audioUrl: string; contentType: string; totalMs: number } }
  | { testType: "text"; content: string; result: { reply: string; intent: string; provider: string; totalMs: number } }
  | { testType: "logistics"; content: string; result: { request: LogisticsRequest } };

/** Runs the real thing: a voice turn with audio, a text reply, or a captured logistics request. */
export async function runCrmTest(db: Db, ctx: RequestContext, input: CrmTestInput): Promise<CrmTestResult> {
  const content = input.content.trim() || DEFAULT_TEST_CONTENT[input.testType];
  const startedAt = performance.now();
  if (input.testType === "voice") {
    const turn = await runVoiceTest(db, { organizationId: ctx.organizationId, userId: ctx.userId, text: content, chatSessionId: null, source: "voice_test", startedAt });
    return {
      testType: "voice",
      content,
      result: { reply: turn.aiResponse, intent: turn.intent, audioUrl: turn.audioUrl, contentType: turn.contentType, totalMs: Math.round(turn.timings.totalMs) },
    };
  }
  if (input.testType === "text") {
    const { assistant, business } = await assistantContext(db, ctx.organizationId);
    await spendCredits(db, ctx.organizationId, creditPrices.smsReply, { reason: "CRM text test", category: categoryOf.smsReply, actorUserId: ctx.userId });
    const llm = await selectLlm(db, ctx.organizationId);
    const reply = await llm.generateReply({ assistant: personaForModel(assistant), profile: business, history: [], text: content });
    return { testType: "text", content, result: { reply: reply.text, intent: reply.intent, provider: llm.name, totalMs: Math.round(performance.now() - startedAt) } };
  }
  const request = await captureLogisticsRequest(db, ctx.organizationId, { text: content, source: "test" });
  return { testType: "logistics", content, result: { request } };
}
