import "server-only";
import crypto from "node:crypto";
import { and, desc, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { healthChecks, type HealthComponent, type HealthStatus } from "@/db/schema";
import { resolveVoice } from "@/lib/agents/assistants/voices";
import { defineJob } from "@/lib/platform/jobs/types";
import { selectLlm } from "@/lib/workspace/provider-selection/llm";
import { selectStt } from "@/lib/workspace/provider-selection/stt";
import { selectTts } from "@/lib/workspace/provider-selection/tts";
import { uptimePercent } from "@/lib/reports/figures";

/**
 * Health of the platform (docs/analytics.md#health): a job probes the database, the language model,
 * speech synthesis and speech recognition every minute and keeps each result in health_check.
 * Platform uptime is the share of probe runs in a window whose database and language model answered.
 */

export const probedComponents = ["database", "llm", "tts", "stt"] as const satisfies readonly HealthComponent[];
export type ProbedComponent = (typeof probedComponents)[number];

/** A probe that answers but takes longer than this is Degraded. */
export const DEGRADED_AFTER_MS: Record<ProbedComponent, number> = { database: 500, llm: 5_000, tts: 5_000, stt: 10_000 };
/** A probe that has not answered after this is Offline. */
const PROBE_TIMEOUT_MS = 15_000;
/** Probe results are kept this long, then the job removes them. */
export const HEALTH_RETENTION_DAYS = 90;
/** The window platform uptime is measured over. */
export const UPTIME_WINDOW_DAYS = 30;

export type ProbeResult = { component: ProbedComponent; status: HealthStatus; latencyMs: number | null; detail: string };

async function timed(component: ProbedComponent, run: (signal: AbortSignal) => Promise<string>): Promise<ProbeResult> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  try {
    const detail = await run(controller.signal);
    const latencyMs = Math.round(performance.now() - started);
    return { component, status: latencyMs > DEGRADED_AFTER_MS[component] ? "degraded" : "operational", latencyMs, detail };
  } catch (error) {
    const message = controller.signal.aborted ? `No answer within ${PROBE_TIMEOUT_MS / 1000} s` : error instanceof Error ? error.message : String(error);
    return { component, status: "offline", latencyMs: Math.round(performance.now() - started), detail: message.slice(0, 300) };
  } finally {
    clearTimeout(timer);
  }
}

const PROBE_SENTENCE = "What are your opening hours?";

/** Runs every probe once, for real: a query, a model reply, a synthesized clip and its transcription. */
export async function probeAll(db: Db): Promise<ProbeResult[]> {
  const database = timed("database", async () => {
    await db.execute(sql`select 1`);
    return "Query answered";
  });
  const llm = timed("llm", async (signal) => {
    const provider = await selectLlm(db, null);
    const reply = await provider.generateReply(
      { assistant: { name: "Health check", personality: "concise", instructions: "" }, profile: { name: "Health check" }, history: [], text: PROBE_SENTENCE },
      { signal },
    );
    if (!reply.text.trim()) throw new Error("The model answered with an empty reply");
    return `${provider.name} replied`;
  });
  // Speech recognition transcribes the clip speech synthesis made, so both are exercised for real.
  const speech = (async () => {
    let clip: { audio: Buffer; contentType: string } | null = null;
    const tts = await timed("tts", async (signal) => {
      const provider = await selectTts(db, null);
      clip = await provider.synthesize(PROBE_SENTENCE, resolveVoice(null), { signal });
      if (clip.audio.length === 0) throw new Error("The synthesizer returned no audio");
      return `${provider.name} synthesized ${clip.audio.length} bytes`;
    });
    const provider = await selectStt(db, null);
    if (!provider) {
      return [tts, { component: "stt", status: "offline", latencyMs: null, detail: "No speech recognition installed or configured" } satisfies ProbeResult];
    }
    if (!clip) return [tts, { component: "stt", status: "unknown", latencyMs: null, detail: "Not probed: speech synthesis made no clip to transcribe" } satisfies ProbeResult];
    const audio: { audio: Buffer; contentType: string } = clip;
    const stt = await timed("stt", async (signal) => {
      const result = await provider.transcribe({ audio: audio.audio, contentType: audio.contentType }, { signal });
      return `${provider.name} transcribed ${result.transcript.split(/\s+/).filter(Boolean).length} words`;
    });
    return [tts, stt];
  })();
  const [d, l, s] = await Promise.all([database, llm, speech]);
  return [d, l, ...s];
}

/** Probes and records one run; removes results older than the retention. */
export async function recordHealthRun(db: Db, now = new Date()): Promise<ProbeResult[]> {
  const results = await probeAll(db);
  const runId = crypto.randomUUID();
  await db.insert(healthChecks).values(
    results.map((r) => ({ id: crypto.randomUUID(), runId, component: r.component, status: r.status, latencyMs: r.latencyMs, detail: r.detail, checkedAt: now })),
  );
  await db.delete(healthChecks).where(lt(healthChecks.checkedAt, new Date(now.getTime() - HEALTH_RETENTION_DAYS * 86_400_000)));
  return results;
}

export const healthCheckJob = defineJob<Record<string, never>>({
  name: "platform.health-check",
  everySeconds: 60,
  retryLimit: 0,
  handler: async (_data, { db }) => {
    await recordHealthRun(db);
  },
});

export type LatestHealth = { component: ProbedComponent; status: HealthStatus; latencyMs: number | null; detail: string; checkedAt: string | null }[];

/** The newest recorded result per component; a component never probed is Unknown. */
export async function latestHealth(db: Db): Promise<LatestHealth> {
  const rows = await db
    .selectDistinctOn([healthChecks.component], {
      component: healthChecks.component,
      status: healthChecks.status,
      latencyMs: healthChecks.latencyMs,
      detail: healthChecks.detail,
      checkedAt: healthChecks.checkedAt,
    })
    .from(healthChecks)
    .where(inArray(healthChecks.component, [...probedComponents]))
    .orderBy(healthChecks.component, desc(healthChecks.checkedAt));
  const byComponent = new Map(rows.map((r) => [r.component, r]));
  return probedComponents.map((component) => {
    const row = byComponent.get(component);
    return row
      ? { component, status: row.status, latencyMs: row.latencyMs, detail: row.detail, checkedAt: row.checkedAt.toISOString() }
      : { component, status: "unknown" as const, latencyMs: null, detail: "Not probed yet", checkedAt: null };
  });
}

/** The worst of the statuses: Offline over Degraded over Unknown over Operational. */
export function overallStatus(statuses: HealthStatus[]): HealthStatus {
  for (const s of ["offline", "degraded", "unknown"] as const) if (statuses.includes(s)) return s;
  return statuses.length ? "operational" : "unknown";
}

export type Uptime = { percent: number | null; runs: number; upRuns: number; windowDays: number; since: string };

/**
 * Uptime over the window: runs whose database and language-model probes both answered (operational
 * or degraded), divided by all runs recorded in the window. No runs: percent null (nothing measured).
 */
export async function platformUptime(db: Db, now = new Date(), windowDays = UPTIME_WINDOW_DAYS): Promise<Uptime> {
  const since = new Date(now.getTime() - windowDays * 86_400_000);
  const runs = db
    .select({
      runId: healthChecks.runId,
      up: sql<boolean>`bool_and(${healthChecks.status} in ('operational', 'degraded'))`.as("up"),
    })
    .from(healthChecks)
    .where(and(gte(healthChecks.checkedAt, since), lt(healthChecks.checkedAt, now), inArray(healthChecks.component, ["database", "llm"])))
    .groupBy(healthChecks.runId)
    .as("runs");
  const [row] = await db.select({ runs: sql<number>`count(*)::int`, upRuns: sql<number>`count(*) filter (where ${runs.up})::int` }).from(runs);
  const total = Number(row?.runs ?? 0);
  const up = Number(row?.upRuns ?? 0);
  return { percent: uptimePercent(total, up), runs: total, upRuns: up, windowDays, since: since.toISOString() };
}
