import "server-only";
import fs from "node:fs";
import { Worker, type ResourceLimits, type TransferListItem } from "node:worker_threads";

/**
 * A pool of worker threads for CPU-heavy work (speech synthesis and recognition), so that the
 * server's one event loop keeps answering other requests while it runs.
 *
 * - `size` workers are started when the pool is created; each runs one task at a time, and tasks
 *   wait in a first-in, first-out queue.
 * - The worker file is plain JavaScript that calls `serveTasks()` from `./serve-tasks.mjs`. It is
 *   given as an absolute path resolved at run time, so the bundler never sees it and it runs the same
 *   under `next start`, jest and tsx.
 * - A worker that dies (an uncaught error, a memory limit, `process.exit`) fails only the task it
 *   was running, with `WorkerCrashedError`, and is replaced. Workers that die three times in a row
 *   before their file has even loaded (a syntax error, a missing module) are not replaced again:
 *   the pool then fails every task with the reason, instead of restarting them forever.
 * - Idle workers do not keep the process alive (they are unref'd while they have no task).
 * - Results may carry ArrayBuffers that the worker transfers instead of copying.
 *
 * `sharedWorkerPool(key, create)` keeps one pool per process on `globalThis`, because Next can load
 * the same module more than once (one copy per route bundle).
 */

export type WorkerPoolOptions = {
  /** Named in errors: "the speech worker …". */
  name: string;
  /** Absolute path of the worker file. */
  file: string;
  size: number;
  workerData?: unknown;
  resourceLimits?: ResourceLimits;
};

export type RunOptions = {
  /** Buffers handed to the worker without copying (they become unusable here). */
  transfer?: TransferListItem[];
  /** Rejects the task: removed from the queue, or its result ignored if it already runs. */
  signal?: AbortSignal;
};

export type WorkerPoolStats = {
  size: number;
  busy: number;
  queued: number;
  completed: number;
  failed: number;
  crashes: number;
};

export interface WorkerPool {
  readonly name: string;
  readonly size: number;
  run<T>(task: string, payload?: unknown, options?: RunOptions): Promise<T>;
  stats(): WorkerPoolStats;
  /** Fails waiting and running tasks with PoolClosedError and stops the workers. */
  close(): Promise<void>;
}

export class WorkerCrashedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkerCrashedError";
  }
}

export class PoolClosedError extends Error {
  constructor(name: string) {
    super(`The ${name} worker pool is closed`);
    this.name = "PoolClosedError";
  }
}

type Job = {
  id: number;
  task: string;
  payload: unknown;
  transfer: TransferListItem[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  settled: boolean;
};

type Slot = { worker: Worker; job: Job | null; gone: boolean; ready: boolean };

type Reply =
  | { ready: true }
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { name: string; message: string } };

/** Workers dying before their file loaded, in a row, after which none is started again. */
const MAX_FAILED_STARTS = 3;

export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const { name, file } = options;
  const size = Math.max(1, Math.floor(options.size));
  if (!fs.existsSync(file)) throw new Error(`The ${name} worker file is missing: ${file}`);

  const queue: Job[] = [];
  const slots: Slot[] = [];
  const counters = { completed: 0, failed: 0, crashes: 0 };
  let nextId = 1;
  let failedStarts = 0;
  let broken: Error | null = null;
  let closed = false;

  function settle(job: Job, outcome: () => void) {
    if (job.settled) return;
    job.settled = true;
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
    outcome();
  }

  function release(slot: Slot) {
    slot.job = null;
    if (!slot.gone) slot.worker.unref();
  }

  function spawn(index: number) {
    const worker = new Worker(file, { workerData: options.workerData, resourceLimits: options.resourceLimits });
    worker.unref();
    const slot: Slot = { worker, job: null, gone: false, ready: false };
    slots[index] = slot;

    worker.on("message", (reply: Reply) => {
      if ("ready" in reply) {
        slot.ready = true;
        failedStarts = 0;
        return;
      }
      const job = slot.job;
      if (!job || reply.id !== job.id) return;
      release(slot);
      if (reply.ok) {
        counters.completed += 1;
        settle(job, () => job.resolve(reply.result));
      } else {
        counters.failed += 1;
        const error = new Error(reply.error.message);
        error.name = reply.error.name;
        settle(job, () => job.reject(error));
      }
      dispatch();
    });

    const died = (reason: string) => {
      if (slot.gone) return;
      slot.gone = true;
      counters.crashes += 1;
      if (!slot.ready) failedStarts += 1;
      const job = slot.job;
      slot.job = null;
      if (job) {
        counters.failed += 1;
        settle(job, () => job.reject(new WorkerCrashedError(`The ${name} worker stopped while running "${job.task}": ${reason}`)));
      }
      if (closed) return;
      if (failedStarts >= MAX_FAILED_STARTS) {
        broken = new WorkerCrashedError(`The ${name} workers keep stopping (last: ${reason})`);
        for (const waiting of queue.splice(0)) settle(waiting, () => waiting.reject(broken));
        return;
      }
      spawn(index);
      dispatch();
    };
    // An uncaught error is followed by "exit"; the first of the two names the reason.
    worker.on("error", (error) => died(error?.message ?? String(error)));
    worker.on("exit", (code) => died(`exit code ${code}`));
  }

  function start(slot: Slot, job: Job) {
    slot.job = job;
    slot.worker.ref(); // a running task keeps the process alive until it answers
    try {
      slot.worker.postMessage({ id: job.id, task: job.task, payload: job.payload }, job.transfer);
    } catch (error) {
      release(slot);
      counters.failed += 1;
      settle(job, () => job.reject(error));
    }
  }

  function dispatch() {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (slot.gone || slot.job) continue;
      start(slot, queue.shift()!);
    }
  }

  for (let i = 0; i < size; i++) spawn(i);

  return {
    name,
    size,
    run<T>(task: string, payload?: unknown, runOptions: RunOptions = {}): Promise<T> {
      if (closed) return Promise.reject(new PoolClosedError(name));
      if (broken) return Promise.reject(broken);
      const { signal } = runOptions;
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<T>((resolve, reject) => {
        const job: Job = {
          id: nextId++,
          task,
          payload,
          transfer: runOptions.transfer ?? [],
          resolve: resolve as (value: unknown) => void,
          reject,
          signal,
          settled: false,
        };
        if (signal) {
          job.onAbort = () => {
            const at = queue.indexOf(job);
            if (at >= 0) queue.splice(at, 1);
            settle(job, () => reject(signal.reason));
          };
          signal.addEventListener("abort", job.onAbort, { once: true });
        }
        queue.push(job);
        dispatch();
      });
    },
    stats() {
      return {
        size,
        busy: slots.filter((s) => s.job).length,
        queued: queue.length,
        ...counters,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new PoolClosedError(name);
      for (const job of queue.splice(0)) settle(job, () => job.reject(error));
      await Promise.all(
        slots.map(async (slot) => {
          const job = slot.job;
          slot.job = null;
          if (job) settle(job, () => job.reject(error));
          slot.gone = true;
          await slot.worker.terminate();
        }),
      );
    },
  };
}

const REGISTRY = Symbol.for("switchboard.workerPools");

function registry(): Map<string, WorkerPool> {
  const holder = globalThis as typeof globalThis & { [REGISTRY]?: Map<string, WorkerPool> };
  return (holder[REGISTRY] ??= new Map());
}

/** The process's one pool under `key`, created on first use. */
export function sharedWorkerPool(key: string, create: () => WorkerPool): WorkerPool {
  const pools = registry();
  let pool = pools.get(key);
  if (!pool) {
    pool = create();
    pools.set(key, pool);
  }
  return pool;
}

/** Closes the shared pool under `key` (tests, shutdown); the next use starts a new one. */
export async function closeSharedWorkerPool(key: string): Promise<void> {
  const pools = registry();
  const pool = pools.get(key);
  pools.delete(key);
  await pool?.close();
}
