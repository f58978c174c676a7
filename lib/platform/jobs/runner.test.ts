import { closeDb, getDbHandle } from "@/lib/platform/database";
import { closeJobQueue, enqueue, getJobQueue } from "./queue";
import { eq } from "drizzle-orm";
import { jobSchedules } from "@/db/schema";
import { runDueJobs, startJobRunner } from "./runner";
import { enqueueDueSchedules, type ScheduleMemo } from "./scheduler";
import { defineJob, type JobDefinition } from "./types";

/**
 * The job runner on the run's database: the table-backed queue on PGlite, pg-boss with DATABASE_URL.
 * Jobs here are the test's own (each test uses fresh names, so runs never see each other's jobs).
 */
afterAll(async () => {
  await closeJobQueue();
  await closeDb();
});

let n = 0;
function recorder(options: Partial<JobDefinition<{ tag: string }>> = {}) {
  n += 1;
  const runs: { tag: string; at: number; attempt: number }[] = [];
  const job = defineJob<{ tag: string }>({
    name: `test.job-${Date.now().toString(36)}-${n}`,
    retryLimit: 0,
    ...options,
    async handler(data, ctx) {
      runs.push({ tag: data.tag, at: Date.now(), attempt: ctx.job.attempt });
      if (options.handler) await options.handler(data, ctx);
    },
  });
  return { job, runs, definitions: [job] as JobDefinition<unknown>[] };
}

async function waitFor(check: () => boolean, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("job runner", () => {
  it("uses pg-boss on a PostgreSQL server and the local queue on PGlite", async () => {
    const { driver } = await getDbHandle();
    expect((await getJobQueue()).kind).toBe(driver === "postgres" ? "pg-boss" : "local");
  });

  it("runs a job sent for later at its time, with nothing else happening", async () => {
    const { job, runs, definitions } = recorder();
    const sentAt = Date.now();
    await enqueue(null, job, { tag: "later" }, { startAfter: new Date(sentAt + 1500) });
    const runner = startJobRunner(200, { definitions });
    try {
      await new Promise((r) => setTimeout(r, 700));
      expect(runs).toHaveLength(0);
      await waitFor(() => runs.length === 1, 6000);
      expect(runs[0].tag).toBe("later");
      expect(runs[0].at - sentAt).toBeGreaterThanOrEqual(1400);
    } finally {
      await runner.stop();
    }
  });

  it("keeps a waiting job across a restart of the runner and its queue", async () => {
    const { job, runs, definitions } = recorder();
    await enqueue(null, job, { tag: "survivor" }, { startAfter: new Date(Date.now() + 1000) });
    const first = startJobRunner(200, { definitions });
    await first.stop();
    await closeJobQueue(); // the process's queue (pg-boss pool) is gone, as after a restart
    expect(runs).toHaveLength(0);
    const second = startJobRunner(200, { definitions });
    try {
      await waitFor(() => runs.length === 1, 8000);
      expect(runs[0].tag).toBe("survivor");
    } finally {
      await second.stop();
    }
  });

  it("retries a failed job with its policy, and gives up after the limit", async () => {
    let failures = 0;
    const { job, runs, definitions } = recorder({
      retryLimit: 1,
      retryDelaySeconds: 1,
      async handler() {
        failures += 1;
        throw new Error("provider down");
      },
    });
    await enqueue(null, job, { tag: "flaky" });
    const runner = startJobRunner(200, { definitions });
    try {
      await waitFor(() => runs.length === 2, 8000);
      expect(runs.map((r) => r.attempt)).toEqual([1, 2]);
      expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(900);
      await new Promise((r) => setTimeout(r, 2500));
      expect(failures).toBe(2);
    } finally {
      await runner.stop();
    }
    expect(await (await getJobQueue()).pending(job.name)).toEqual([]);
  });

  it("keeps one waiting job per singleton key", async () => {
    const { job, runs, definitions } = recorder();
    const a = await enqueue(null, job, { tag: "a" }, { singletonKey: "call-1" });
    const b = await enqueue(null, job, { tag: "b" }, { singletonKey: "call-1" });
    expect(a).toEqual(expect.any(String));
    expect(b).toBeNull();
    await runDueJobs({ definitions, schedules: false });
    expect(runs.map((r) => r.tag)).toEqual(["a"]);
  });

  it("puts a recurring job on the queue once per slot, however often the scheduler is asked", async () => {
    const { job, runs } = recorder({ everySeconds: 3600 });
    const definitions = [job] as JobDefinition<unknown>[];
    const first = await runDueJobs({ definitions });
    const second = await runDueJobs({ definitions });
    expect(first.scheduled).toEqual([job.name]);
    expect(second.scheduled).toEqual([]);
    expect(runs).toHaveLength(1);
  });

  it("with a runner's memo, reads the schedule table once per slot, and claims the next slot when it comes", async () => {
    const { db } = await getDbHandle();
    const { job } = recorder({ everySeconds: 60 });
    const definitions = [job] as JobDefinition<unknown>[];
    const memo: ScheduleMemo = new Map();
    const slot = Math.floor(Date.now() / 60_000) * 60_000;
    const at = (ms: number) => new Date(slot + ms);

    expect(await enqueueDueSchedules(db, definitions, at(1_000), memo)).toEqual([job.name]);
    expect(memo.get(job.name)).toBe(slot + 60_000);
    // Within the slot the memo answers: the table is not read (its row may even be gone).
    await db.delete(jobSchedules).where(eq(jobSchedules.name, job.name));
    expect(await enqueueDueSchedules(db, definitions, at(30_000), memo)).toEqual([]);
    expect(await db.select().from(jobSchedules).where(eq(jobSchedules.name, job.name))).toEqual([]);
    // Without the memo (the cron route, another instance) the same slot would be claimed again from
    // the table; the next slot is claimed through the memo as well.
    expect(await enqueueDueSchedules(db, definitions, at(61_000), memo)).toEqual([job.name]);
    expect(memo.get(job.name)).toBe(slot + 120_000);
    // A slot another instance already claimed: nothing is enqueued, and the memo moves on all the same.
    const other: ScheduleMemo = new Map();
    expect(await enqueueDueSchedules(db, definitions, at(62_000), other)).toEqual([]);
    expect(other.get(job.name)).toBe(slot + 120_000);
  });

  it("runs a job again within a minute when the worker that took it died (its lease ran out, no heartbeat)", async () => {
    const { job, runs, definitions } = recorder({ leaseSeconds: 2 });
    await enqueue(null, job, { tag: "orphan" });
    // A "dead" worker: it takes the job, then never renews its lease nor finishes it.
    const queue = await getJobQueue();
    const taken = await queue.fetch(new Map([[job.name, 1]]), () => 2, 1);
    expect(taken).toHaveLength(1);
    const diedAt = Date.now();
    await runDueJobs({ definitions, schedules: false });
    expect(runs).toHaveLength(0); // still leased to the dead worker
    const until = diedAt + 60_000;
    while (runs.length === 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      await runDueJobs({ definitions, schedules: false });
    }
    expect(runs.map((r) => r.tag)).toEqual(["orphan"]);
    expect(runs[0].at - diedAt).toBeGreaterThanOrEqual(1900);
    expect(runs[0].at - diedAt).toBeLessThan(60_000);
    expect(runs[0].attempt).toBe(2);
  }, 90_000);

  it("renews a long job's lease while it runs, so it is not run twice", async () => {
    const { job, runs, definitions } = recorder({
      leaseSeconds: 2,
      async handler() {
        await new Promise((r) => setTimeout(r, 5000));
      },
    });
    await enqueue(null, job, { tag: "long" });
    const first = runDueJobs({ definitions, schedules: false });
    // Another worker polling all the while finds nothing to take.
    const until = Date.now() + 5500;
    while (Date.now() < until) {
      await runDueJobs({ definitions, schedules: false, budgetMs: 100 });
      await new Promise((r) => setTimeout(r, 300));
    }
    await first;
    expect(runs.map((r) => r.tag)).toEqual(["long"]);
  });

  it("runs another queue's job while a slow job runs: one slow job holds only its own slot", async () => {
    let slowEnded = 0;
    const slow = recorder({
      async handler() {
        await new Promise((r) => setTimeout(r, 4000));
        slowEnded = Date.now();
      },
    });
    const fast = recorder();
    await enqueue(null, slow.job, { tag: "slow" });
    const runner = startJobRunner(100, { definitions: [...slow.definitions, ...fast.definitions] });
    try {
      await waitFor(() => slow.runs.length === 1, 10_000);
      await enqueue(null, fast.job, { tag: "fast" });
      await waitFor(() => fast.runs.length === 1, 10_000);
      expect(slowEnded).toBe(0); // the fast job ran while the slow one was still running
    } finally {
      await runner.stop();
    }
    expect(slowEnded).toBeGreaterThan(0);
  });

  it("runs at most a name's concurrency at once", async () => {
    let running = 0;
    let most = 0;
    const { job, runs, definitions } = recorder({
      concurrency: 2,
      async handler() {
        running += 1;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 300));
        running -= 1;
      },
    });
    for (let i = 0; i < 6; i++) await enqueue(null, job, { tag: `t${i}` });
    await runDueJobs({ definitions, schedules: false });
    expect(runs).toHaveLength(6);
    expect(most).toBe(2);
  });
});
