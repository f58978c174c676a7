import type { Db } from "@/db/client";

/**
 * The one job interface (ARCHITECTURE: jobs). Features define jobs (`defineJob`) and put work on
 * the queue (`enqueue` in ./queue.ts); the runner (./runner.ts) runs them in the app process, in
 * `npm run worker`, or when a serverless host calls the cron route. Two queues implement it:
 * pg-boss on a PostgreSQL server, a table-backed in-process queue on embedded PGlite.
 */
export type SendOptions = {
  /** Run at or after this instant (default: now). */
  startAfter?: Date;
  /**
   * A key is used once per job name: a second send with it (waiting, running or done) answers null
   * (on pg-boss within its 12-hour singleton slot). Handlers stay idempotent regardless.
   */
  singletonKey?: string;
  /** Overrides the definition's retry policy for this job. */
  retryLimit?: number;
  retryDelaySeconds?: number;
};

export type JobRun<T> = { id: string; name: string; data: T; attempt: number };

export type JobContext = { db: Db; job: JobRun<unknown> };

export type JobDefinition<T = unknown> = {
  name: string;
  handler: (data: T, ctx: JobContext) => Promise<void>;
  /** Retries after the first failure (default 3), with exponential backoff from retryDelaySeconds (default 30). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A recurring job: put on the queue once per interval (the scheduler keeps one per slot across instances). */
  everySeconds?: number;
  /** How many jobs of this name one process runs at once (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /**
   * How long a taken job is its worker's without a heartbeat (default JOB_LEASE_SECONDS). A running
   * job's lease is renewed every HEARTBEAT_SECONDS, so a long job keeps it; a dead worker's job is
   * taken again once the lease runs out (docs/jobs.md#when-an-instance-dies).
   */
  leaseSeconds?: number;
};

/** What queuing a job needs of its definition: a module below the handler's can queue it by this. */
export type JobRef<T = unknown> = Pick<JobDefinition<T>, "name" | "retryLimit" | "retryDelaySeconds" | "leaseSeconds"> & {
  handler?: JobDefinition<T>["handler"];
};

export function defineJob<T>(definition: JobDefinition<T>): JobDefinition<T> {
  return definition;
}

export type FetchedJob = JobRun<unknown>;

/** What both queue implementations offer. */
export interface JobQueue {
  readonly kind: "pg-boss" | "local";
  send(name: string, data: unknown, options: Required<Pick<SendOptions, "retryLimit" | "retryDelaySeconds">> & SendOptions & { leaseSeconds: number }): Promise<string | null>;
  /**
   * Takes due jobs and marks them active, leased for `leaseSeconds(name)`: at most `limits[name]` of
   * each name and `total` in all. A job whose lease ran out (its worker died) is due again.
   */
  fetch(limits: Map<string, number>, leaseSeconds: (name: string) => number, total: number): Promise<FetchedJob[]>;
  /** Renews the lease of jobs this process is still running. */
  heartbeat(jobs: FetchedJob[], leaseSeconds: (name: string) => number): Promise<void>;
  /** Puts active jobs whose lease ran out back on the queue (pg-boss; the local queue takes them as due). */
  reclaimExpired(names: string[]): Promise<number>;
  complete(job: FetchedJob): Promise<void>;
  fail(job: FetchedJob, error: unknown): Promise<void>;
  /** Waiting jobs (not yet run), oldest first: for the tests and the admin's System Settings. */
  pending(name: string): Promise<{ id: string; data: unknown; startAfter: Date }[]>;
  stop(): Promise<void>;
}

export const DEFAULT_RETRY_LIMIT = 3;
export const DEFAULT_RETRY_DELAY_SECONDS = 30;
/** Jobs of one name one process runs at once, unless the definition says otherwise. */
export const DEFAULT_CONCURRENCY = 5;
/** A taken job's lease without a heartbeat: a dead instance's jobs run elsewhere within ~40 s. */
export const JOB_LEASE_SECONDS = 30;
export const HEARTBEAT_SECONDS = 10;
