import "server-only";
import crypto from "node:crypto";
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { jobs } from "@/db/schema";
import type { FetchedJob, JobQueue } from "./types";

/** Finished jobs are kept this long, for the record. */
const KEEP_MS = 7 * 24 * 3600_000;

function describe(error: unknown): string {
  return (error instanceof Error ? error.stack || error.message : String(error)).slice(0, 2000);
}

/**
 * The table-backed queue: one `job` row per run. Taking jobs is one UPDATE … WHERE id IN (SELECT …
 * FOR UPDATE SKIP LOCKED), so two workers never run the same job; a running job's lease is renewed
 * by the runner's heartbeat, and a worker that dies leaves its job active until the lease ends, then
 * it is taken again. Used on embedded PGlite (one process).
 */
export function createLocalQueue(db: DbOrTx): JobQueue {
  return {
    kind: "local",

    async send(name, data, options) {
      const [row] = await db
        .insert(jobs)
        .values({
          id: crypto.randomUUID(),
          name,
          data: (data ?? {}) as object,
          startAfter: options.startAfter ?? new Date(),
          singletonKey: options.singletonKey ?? null,
          retryLimit: options.retryLimit,
          retryDelaySeconds: options.retryDelaySeconds,
        })
        .onConflictDoNothing()
        .returning({ id: jobs.id });
      return row?.id ?? null;
    },

    async fetch(limits, leaseSeconds, total) {
      const names = [...limits.entries()].filter(([, n]) => n > 0).map(([name]) => name);
      if (names.length === 0) return [];
      const now = new Date();
      const at = now.toISOString();
      const isDue = sql`((${jobs.state} = 'created' and ${jobs.startAfter} <= ${at}) or (${jobs.state} = 'active' and ${jobs.leaseUntil} < ${at}))`;
      // One read for the names that have a job due, then one claim per such name, within its limit.
      const dueNames = await db.selectDistinct({ name: jobs.name }).from(jobs).where(and(inArray(jobs.name, names), isDue));
      const taken: FetchedJob[] = [];
      for (const { name } of dueNames) {
        const take = Math.min(limits.get(name) ?? 0, total - taken.length);
        if (take <= 0) break;
        const due = sql`select ${jobs.id} from ${jobs}
          where ${jobs.name} = ${name} and ${isDue}
          order by ${jobs.startAfter} limit ${take} for update skip locked`;
        const rows = await db
          .update(jobs)
          .set({ state: "active", attempts: sql`${jobs.attempts} + 1`, leaseUntil: new Date(now.getTime() + leaseSeconds(name) * 1000) })
          .where(sql`${jobs.id} in (${due})`)
          .returning();
        for (const r of rows) taken.push({ id: r.id, name: r.name, data: r.data, attempt: r.attempts });
      }
      return taken;
    },

    async heartbeat(running, leaseSeconds) {
      for (const job of running) {
        await db
          .update(jobs)
          .set({ leaseUntil: new Date(Date.now() + leaseSeconds(job.name) * 1000) })
          .where(and(eq(jobs.id, job.id), eq(jobs.state, "active")));
      }
    },

    async reclaimExpired() {
      return 0; // an expired lease makes the job due for fetch() itself
    },

    async complete(job: FetchedJob) {
      await db.update(jobs).set({ state: "completed", completedAt: new Date(), leaseUntil: null }).where(eq(jobs.id, job.id));
      if (Math.random() < 0.02) {
        await db.delete(jobs).where(and(inArray(jobs.state, ["completed", "failed"]), lt(jobs.createdAt, new Date(Date.now() - KEEP_MS))));
      }
    },

    async fail(job: FetchedJob, error: unknown) {
      const [row] = await db.select().from(jobs).where(eq(jobs.id, job.id));
      if (!row) return;
      const retry = row.attempts <= row.retryLimit;
      const delayMs = row.retryDelaySeconds * 1000 * 2 ** Math.max(0, row.attempts - 1);
      await db
        .update(jobs)
        .set(
          retry
            ? { state: "created", startAfter: new Date(Date.now() + delayMs), leaseUntil: null, lastError: describe(error) }
            : { state: "failed", completedAt: new Date(), leaseUntil: null, lastError: describe(error) },
        )
        .where(eq(jobs.id, job.id));
    },

    async pending(name) {
      const rows = await db
        .select({ id: jobs.id, data: jobs.data, startAfter: jobs.startAfter })
        .from(jobs)
        .where(and(eq(jobs.name, name), eq(jobs.state, "created")))
        .orderBy(asc(jobs.startAfter));
      return rows;
    },

    async stop() {
      // Nothing to release: the rows are the state.
    },
  };
}
