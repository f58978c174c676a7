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
};

export function defineJob<T>(definition: JobDefinition<T>): JobDefinition<T> {
  return definition;
}

export type FetchedJob = JobRun<unknown>;

/** What both queue implementations offer. */
export interface JobQueue {
  readonly kind: "pg-boss" | "local";
  send(name: string, data: unknown, options: Required<Pick<SendOptions, "retryLimit" | "retryDelaySeconds">> & SendOptions): Promise<string | null>;
  /** Takes up to `limit` due jobs of these names and marks them active. */
  fetch(names: string[], limit: number): Promise<FetchedJob[]>;
  complete(job: FetchedJob): Promise<void>;
  fail(job: FetchedJob, error: unknown): Promise<void>;
  /** Waiting jobs (not yet run), oldest first: for the tests and the admin's System Settings. */
  pending(name: string): Promise<{ id: string; data: unknown; startAfter: Date }[]>;
  stop(): Promise<void>;
}

export const DEFAULT_RETRY_LIMIT = 3;
export const DEFAULT_RETRY_DELAY_SECONDS = 30;
