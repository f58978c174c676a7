import "server-only";
import { getDb } from "@/lib/platform/database";
import { getJobQueue } from "./queue";
import { enqueueDueSchedules, type ScheduleMemo } from "./scheduler";
import { DEFAULT_CONCURRENCY, HEARTBEAT_SECONDS, JOB_LEASE_SECONDS, type FetchedJob, type JobDefinition, type JobQueue } from "./types";
import { errorForLog } from "@/lib/platform/database-errors";

/**
 * Runs jobs: the in-process runner (started by instrumentation.ts in every long-lived server unless
 * JOBS_IN_PROCESS=false), `npm run worker`, and the cron route all call runDueJobs, which puts due
 * recurring jobs on the queue and then runs what is due until nothing is left or the budget is spent.
 *
 * Jobs run side by side, each name within its own concurrency, and a finished job's slot is filled
 * at once: one slow job (a webhook endpoint taking 8 s) holds only its own slot, never a batch. While
 * jobs run, their leases are renewed every HEARTBEAT_SECONDS; a job whose worker died is taken again
 * once its lease (JOB_LEASE_SECONDS) runs out (docs/jobs.md#when-an-instance-dies).
 */
export type RunSummary = { ran: number; failed: number; scheduled: string[] };

/** The jobs a process is running, across ticks of the long-lived runner. */
export type JobPool = {
  running: Map<string, { job: FetchedJob; done: Promise<void> }>;
  heartbeat: NodeJS.Timeout | null;
};

export function createJobPool(): JobPool {
  return { running: new Map(), heartbeat: null };
}

const leaseOf = (byName: Map<string, JobDefinition<unknown>>) => (name: string) => byName.get(name)?.leaseSeconds ?? JOB_LEASE_SECONDS;

async function runOne(queue: JobQueue, job: FetchedJob, definition: JobDefinition<unknown> | undefined): Promise<boolean> {
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
  /** The jobs this run knows: the app passes its whole list (lib/all-jobs.ts), a test its own. */
  definitions: JobDefinition<unknown>[];
  /** Jobs running at once in this process, all names together (default 10). */
  batch?: number;
  budgetMs?: number;
  schedules?: boolean;
  /** A long-lived runner's memory of the recurring jobs' next slots (see ScheduleMemo). */
  scheduleMemo?: ScheduleMemo;
  /**
   * A long-lived runner's pool: jobs still running when the run returns go on running (the next tick
   * sees them); without one, the run waits for every job it started.
   */
  pool?: JobPool;
};

/** How often a run puts jobs of dead workers back on the queue (per process). */
const RECLAIM_EVERY_MS = 5_000;
const globalForReclaim = globalThis as unknown as { __switchboardLastReclaim?: number };

export async function runDueJobs(options: RunOptions): Promise<RunSummary> {
  const started = Date.now();
  const budgetMs = options.budgetMs ?? 10_000;
  const maxRunning = options.batch ?? 10;
  const definitions = options.definitions;
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const leaseSeconds = leaseOf(byName);
  // Renewed well before the shortest lease runs out.
  const heartbeatMs = Math.min(HEARTBEAT_SECONDS, ...definitions.map((d) => (d.leaseSeconds ?? JOB_LEASE_SECONDS) / 3)) * 1000;
  const queue = await getJobQueue();
  const pool = options.pool ?? createJobPool();
  const scheduled = options.schedules === false ? [] : await enqueueDueSchedules(await getDb(), definitions, new Date(), options.scheduleMemo);
  const summary: RunSummary = { ran: 0, failed: 0, scheduled };

  if (Date.now() - (globalForReclaim.__switchboardLastReclaim ?? 0) >= RECLAIM_EVERY_MS) {
    globalForReclaim.__switchboardLastReclaim = Date.now();
    const reclaimed = await queue.reclaimExpired([...byName.keys()]);
    if (reclaimed > 0) console.warn(`[jobs] ${reclaimed} job(s) of a worker that stopped renewing its lease are due again`);
  }

  const start = (job: FetchedJob) => {
    const done = runOne(queue, job, byName.get(job.name)).then((ok) => {
      if (ok) summary.ran += 1;
      else summary.failed += 1;
      pool.running.delete(job.id);
      if (pool.running.size === 0 && pool.heartbeat) {
        clearInterval(pool.heartbeat);
        pool.heartbeat = null;
      }
    });
    pool.running.set(job.id, { job, done });
    if (!pool.heartbeat) {
      pool.heartbeat = setInterval(() => {
        const jobs = [...pool.running.values()].map((r) => r.job);
        queue.heartbeat(jobs, leaseSeconds).catch((e) => console.error("[jobs] heartbeat failed:", e instanceof Error ? e.message : e));
      }, heartbeatMs);
      pool.heartbeat.unref?.();
    }
  };

  while (Date.now() - started < budgetMs) {
    const limits = new Map<string, number>();
    const free = maxRunning - pool.running.size;
    if (free > 0) {
      const runningByName = new Map<string, number>();
      for (const { job } of pool.running.values()) runningByName.set(job.name, (runningByName.get(job.name) ?? 0) + 1);
      for (const d of definitions) {
        const slots = Math.min(free, (d.concurrency ?? DEFAULT_CONCURRENCY) - (runningByName.get(d.name) ?? 0));
        if (slots > 0) limits.set(d.name, slots);
      }
    }
    const fetched = limits.size > 0 ? await queue.fetch(limits, leaseSeconds, free) : [];
    for (const job of fetched) start(job);
    if (fetched.length > 0) continue;
    if (pool.running.size === 0 || options.pool) break;
    // Nothing more to take now: wait for one running job to finish (its slot may take the next).
    await Promise.race([...pool.running.values()].map((r) => r.done));
  }
  if (!options.pool) await Promise.all([...pool.running.values()].map((r) => r.done));
  return summary;
}

const globalForRunner = globalThis as unknown as { __switchboardJobRunner?: { stop: () => Promise<void> } };

/** Polls for due jobs every `pollMs` until stopped. One per process; a second start is a no-op. */
export function startJobRunner(pollMs: number, options: Pick<RunOptions, "definitions" | "batch">): { stop: () => Promise<void> } {
  if (globalForRunner.__switchboardJobRunner) return globalForRunner.__switchboardJobRunner;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  const scheduleMemo: ScheduleMemo = new Map();
  const pool = createJobPool();
  const tick = () => {
    if (stopped) return;
    running = runDueJobs({ ...options, scheduleMemo, pool, budgetMs: Math.max(pollMs * 5, 5_000) })
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
      // Let the jobs already started finish (their leases are renewed until then).
      await Promise.all([...pool.running.values()].map((r) => r.done));
      if (globalForRunner.__switchboardJobRunner === runner) globalForRunner.__switchboardJobRunner = undefined;
    },
  };
  globalForRunner.__switchboardJobRunner = runner;
  return runner;
}

export async function stopJobRunner(): Promise<void> {
  await globalForRunner.__switchboardJobRunner?.stop();
}
