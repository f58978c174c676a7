import "server-only";
import type { DbOrTx } from "@/db/client";
import { getDbHandle } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { createLocalQueue } from "./local-queue";
import { DEFAULT_RETRY_DELAY_SECONDS, DEFAULT_RETRY_LIMIT, JOB_LEASE_SECONDS, type JobQueue, type JobRef, type SendOptions } from "./types";

const globalForJobs = globalThis as unknown as { __switchboardJobQueue?: Promise<JobQueue> };

/**
 * The process's queue: pg-boss when the database is a PostgreSQL server, the table-backed queue on
 * embedded PGlite. Opened once per process.
 */
export function getJobQueue(): Promise<JobQueue> {
  if (!globalForJobs.__switchboardJobQueue) {
    const pending = (async () => {
      const handle = await getDbHandle();
      if (handle.driver === "postgres" && env.DATABASE_URL) {
        const { createPgBossQueue } = await import("./pg-boss-queue");
        return createPgBossQueue(env.DATABASE_URL, { supervise: env.JOBS_IN_PROCESS && env.NODE_ENV !== "test" });
      }
      return createLocalQueue(handle.db);
    })();
    globalForJobs.__switchboardJobQueue = pending;
    pending.catch(() => {
      if (globalForJobs.__switchboardJobQueue === pending) globalForJobs.__switchboardJobQueue = undefined;
    });
  }
  return globalForJobs.__switchboardJobQueue;
}

/** Stops the queue (closes pg-boss's pool). The next getJobQueue() opens a new one. */
export async function closeJobQueue(): Promise<void> {
  const pending = globalForJobs.__switchboardJobQueue;
  globalForJobs.__switchboardJobQueue = undefined;
  if (pending) await (await pending).stop();
}

/**
 * Puts a job on the queue. Pass the definition (for its name and retry policy) and its data. On
 * embedded PGlite, `db` may be a transaction: the job is then written with the rest, or not at all.
 * Answers the job id, or null when a job with the same singletonKey is already waiting or running.
 */
export async function enqueue<T>(db: DbOrTx | null, job: JobRef<T>, data: T, options: SendOptions = {}): Promise<string | null> {
  const queue = await getJobQueue();
  const policy = {
    retryLimit: options.retryLimit ?? job.retryLimit ?? DEFAULT_RETRY_LIMIT,
    retryDelaySeconds: options.retryDelaySeconds ?? job.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS,
    leaseSeconds: job.leaseSeconds ?? JOB_LEASE_SECONDS,
  };
  if (db && queue.kind === "local") {
    const { createLocalQueue } = await import("./local-queue");
    return createLocalQueue(db).send(job.name, data, { ...options, ...policy });
  }
  return queue.send(job.name, data, { ...options, ...policy });
}
