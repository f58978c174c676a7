import "server-only";
import { getDb } from "@/lib/database";
import { getJobQueue } from "./queue";
import { jobDefinitions } from "./registry";
import { enqueueDueSchedules, type ScheduleMemo } from "./scheduler";
import type { FetchedJob, JobDefinition } from "./types";
import { errorForLog } from "@/lib/database-errors";

/**
 * Runs jobs: the in-process runner (started by instrumentation.ts in every long-lived server unless
 * JOBS_IN_PROCESS=false), `npm run worker`, and the cron route all call runDueJobs, which puts due
 * recurring jobs on the queue and then runs what is due until nothing is left or the budget is spent.
 */
export type RunSummary = { ran: number; failed: number; scheduled: string[] };

async function runOne(job: FetchedJob, byName: Map<string, JobDefinition<unknown>>): Promise<boolean> {
  const queue = await getJobQueue();
  const definition = byName.get(job.name);
  try {
    if (!definition) throw new Error(`No handler for job "${job.name}"`);
    await definition.handler(job.data, { db: await getDb(), job });
    await queue.complete(job);
    return true;
  } catch (error) {
    console.error(`[jobs] ${job.name} ${job.id} (attempt ${job.attempt}) failed:`, errorForLog(error));
    await queue.fail(job, error).catch((e) => console.error("[jobs] could not record the failure", errorForLog(e)));
    return false;
  }
}

export type RunOptions = {
  /** The jobs this run knows (default: every registered job). */
  definitions?: JobDefinition<unknown>[];
  batch?: number;
  budgetMs?: number;
  schedules?: boolean;
  /** A long-lived runner's memory of the recurring jobs' next slots (see ScheduleMemo). */
  scheduleMemo?: ScheduleMemo;
};

export async function runDueJobs(options: RunOptions = {}): Promise<RunSummary> {
  const started = Date.now();
  const budgetMs = options.budgetMs ?? 10_000;
  const definitions = options.definitions ?? jobDefinitions;
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const names = [...byName.keys()];
  const queue = await getJobQueue();
  const scheduled = options.schedules === false ? [] : await enqueueDueSchedules(await getDb(), definitions, new Date(), options.scheduleMemo);
  const summary: RunSummary = { ran: 0, failed: 0, scheduled };
  while (Date.now() - started < budgetMs) {
    const batch = await queue.fetch(names, options.batch ?? 10);
    if (batch.length === 0) break;
    const results = await Promise.all(batch.map((job) => runOne(job, byName)));
    summary.ran += results.filter(Boolean).length;
    summary.failed += results.filter((ok) => !ok).length;
  }
  return summary;
}

const globalForRunner = globalThis as unknown as { __switchboardJobRunner?: { stop: () => Promise<void> } };

/** Polls for due jobs every `pollMs` until stopped. One per process; a second start is a no-op. */
export function startJobRunner(pollMs: number, options: Pick<RunOptions, "definitions"> = {}): { stop: () => Promise<void> } {
  if (globalForRunner.__switchboardJobRunner) return globalForRunner.__switchboardJobRunner;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const scheduleMemo: ScheduleMemo = new Map();
  const tick = () => {
    if (stopped) return;
    running = runDueJobs({ ...options, scheduleMemo, budgetMs: Math.max(pollMs * 5, 5_000) })
      .catch((error) => console.error("[jobs] runner tick failed:", errorForLog(error)))
      .finally(() => {
        if (!stopped) {
          timer = setTimeout(tick, pollMs);
          timer.unref?.();
        }
      });
  };
  timer = setTimeout(tick, Math.min(pollMs, 1000));
  timer.unref?.();
  const runner = {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      if (globalForRunner.__switchboardJobRunner === runner) globalForRunner.__switchboardJobRunner = undefined;
    },
  };
  globalForRunner.__switchboardJobRunner = runner;
  return runner;
}

export async function stopJobRunner(): Promise<void> {
  await globalForRunner.__switchboardJobRunner?.stop();
}
