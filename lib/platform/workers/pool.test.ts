/**
 * The worker pool with a test worker (tests/fixtures/pool-worker.mjs): tasks really run on other
 * threads at the same time, the event loop stays free meanwhile, a dying worker fails only its own
 * task and is replaced, and buffers cross without copies.
 */
import path from "node:path";
import { threadId } from "node:worker_threads";
import { closeSharedWorkerPool, createWorkerPool, PoolClosedError, sharedWorkerPool, WorkerCrashedError, type WorkerPool } from "./pool";

const fixture = (name: string) => path.join(process.cwd(), "tests", "fixtures", name);
const pools: WorkerPool[] = [];
const pool = (size: number, file = "pool-worker.mjs") => {
  const p = createWorkerPool({ name: "test", file: fixture(file), size });
  pools.push(p);
  return p;
};
afterAll(() => Promise.all(pools.map((p) => p.close())));

type Blocked = { label: string; threadId: number; finishedAt: number; order: number };
type Met = { label: string; threadId: number; released: boolean };

/** The error a task failed with (and a failure if it did not fail). */
const rejection = (task: Promise<unknown>): Promise<Error> =>
  task.then(
    () => {
      throw new Error("expected the task to fail");
    },
    (error: Error) => error,
  );

describe("worker pool", () => {
  it("runs tasks on its workers at the same time while the event loop keeps ticking", async () => {
    const p = pool(2);
    // Each task counts itself in and blocks its thread until this thread opens the gate: two at
    // once means both workers ran at the same time; the gate opening means this event loop ran
    // while they were blocked. No clock is read: the test waits on the count.
    const shared = new SharedArrayBuffer(8);
    const counters = new Int32Array(shared);
    const results = Promise.all(["a", "b", "c", "d"].map((label) => p.run<Met>("meet", { shared, label })));
    for (const deadline = Date.now() + 10_000; Atomics.load(counters, 0) < 2 && Date.now() < deadline; ) await new Promise((r) => setImmediate(r));
    expect(Atomics.load(counters, 0)).toBe(2);
    expect(p.stats()).toMatchObject({ busy: 2, queued: 2 });
    Atomics.store(counters, 1, 1);
    Atomics.notify(counters, 1);
    const met = await results;

    expect(met.map((r) => r.label)).toEqual(["a", "b", "c", "d"]);
    expect(met.every((r) => r.released)).toBe(true);
    expect(Atomics.load(counters, 0)).toBe(4);
    expect(new Set(met.map((r) => r.threadId)).size).toBe(2);
    expect(met.every((r) => r.threadId !== threadId)).toBe(true);
    expect(p.stats()).toMatchObject({ size: 2, busy: 0, queued: 0, completed: 4, crashes: 0 });
  });

  it("queues tasks first in, first out when every worker is busy", async () => {
    const p = pool(1);
    const results = await Promise.all([1, 2, 3].map((n) => p.run<Blocked>("block", { ms: 20, label: String(n) })));
    expect(results.map((r) => r.label)).toEqual(["1", "2", "3"]);
    expect(results.map((r) => r.order)).toEqual([1, 2, 3]);
  });

  it("rejects a task whose handler throws with its message and name, and carries on", async () => {
    const p = pool(1);
    const error = await rejection(p.run("fail", { message: "bad input" }));
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe("bad input");
    expect(error.name).toBe("RangeError");
    await expect(p.run("echo", 1)).resolves.toMatchObject({ payload: 1 });
    await expect(p.run("no-such-task")).rejects.toThrow('Unknown task "no-such-task"');
  });

  it("fails only the task of a worker that dies, replaces the worker, and keeps its size", async () => {
    const p = pool(2);
    const slow = p.run<Blocked>("block", { ms: 300, label: "survivor" });
    const crashed = await rejection(p.run("crash"));
    expect(crashed).toBeInstanceOf(WorkerCrashedError);
    expect(crashed.message).toMatch(/test worker stopped while running "crash": worker blew up/);
    await expect(slow).resolves.toMatchObject({ label: "survivor" });

    const exited = await rejection(p.run("exit", { code: 3 }));
    expect(exited).toBeInstanceOf(WorkerCrashedError);
    expect(exited.message).toMatch(/exit code 3/);

    // Tasks that kill their worker, however many in a row, never stop the pool.
    for (let i = 0; i < 4; i++) expect(await rejection(p.run("crash"))).toBeInstanceOf(WorkerCrashedError);

    const after = await Promise.all([1, 2, 3, 4].map((n) => p.run<{ payload: number; threadId: number }>("echo", n)));
    expect(after.map((r) => r.payload)).toEqual([1, 2, 3, 4]);
    expect(p.stats()).toMatchObject({ size: 2, crashes: 6, failed: 6 });
  });

  it("gives up on a worker file that cannot even load, with the reason, instead of restarting it forever", async () => {
    const p = pool(1, "broken-worker.mjs");
    const first = await rejection(p.run("echo", 1));
    expect(first).toBeInstanceOf(WorkerCrashedError);
    // The replacements fail in turn; wait for the third.
    for (const deadline = Date.now() + 10_000; p.stats().crashes < 3 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    const later = await rejection(p.run("echo", 2));
    expect(later).toBeInstanceOf(WorkerCrashedError);
    expect(later.message).toMatch(/keep stopping.*cannot load this worker/);
    expect(p.stats().crashes).toBe(3);
  });

  it("hands buffers across in both directions without copying them", async () => {
    const p = pool(1);
    const { buffer } = await p.run<{ buffer: ArrayBuffer }>("bytes", { size: 1_000_000 });
    expect(buffer.byteLength).toBe(1_000_000);
    expect(new Uint8Array(buffer)[999_999]).toBe(7);

    const outgoing = new Uint8Array(1000).fill(2).buffer;
    await expect(p.run("sum", { buffer: outgoing }, { transfer: [outgoing] })).resolves.toBe(2000);
    expect(outgoing.byteLength).toBe(0); // moved to the worker, not copied
  });

  it("drops an aborted task from the queue, and rejects everything once closed", async () => {
    const p = pool(1);
    const busy = p.run<Blocked>("block", { ms: 200, label: "first" });
    const controller = new AbortController();
    const queued = p.run<Blocked>("block", { ms: 200, label: "never" }, { signal: controller.signal });
    controller.abort(new Error("caller hung up"));
    await expect(queued).rejects.toThrow("caller hung up");
    await expect(busy).resolves.toMatchObject({ label: "first" });
    expect(p.stats().completed).toBe(1);

    const waiting = rejection(p.run("block", { ms: 200, label: "cut off" }));
    await p.close();
    expect(await waiting).toBeInstanceOf(PoolClosedError);
    await expect(p.run("echo", 1)).rejects.toBeInstanceOf(PoolClosedError);
  });

  it("keeps one shared pool per key for the process", async () => {
    let created = 0;
    const make = () => {
      created += 1;
      return pool(1);
    };
    const a = sharedWorkerPool("pool-test", make);
    const b = sharedWorkerPool("pool-test", make);
    expect(a).toBe(b);
    expect(created).toBe(1);
    await closeSharedWorkerPool("pool-test");
    expect(sharedWorkerPool("pool-test", make)).not.toBe(a);
    expect(created).toBe(2);
    await closeSharedWorkerPool("pool-test");
  });
});
