import "server-only";
import crypto from "node:crypto";
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { jobs } from "@/db/schema";
import type { FetchedJob, JobQueue } from "./types";

/** How long a taken job belongs to its worker before another may take it over. */
const LEASE_MS = 5 * 60_000;
/** Finished jobs are kept this long, for the record. */
const KEEP_MS = 7 * 24 * 3600_000;

function describe(error: unknown): string {
  return (error instanceof Error ? error.stack || error.message : String(error)).slice(0, 2000);
}

/**
 * The table-backed queue: one `job` row per run. Taking jobs is one UPDATE … WHERE id IN (SELECT …
 * FOR UPDATE SKIP LOCKED), so two workers never run the same job; a worker that dies leaves its
 * job active until the lease ends, then it is taken again. Used on embedded PGlite (one process).
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

    async fetch(names, limit) {
      if (names.length === 0 || limit <= 0) return [];
      const now = new Date();
      const at = now.toISOString();
      const due = sql`select ${jobs.id} from ${jobs}
        where ${inArray(jobs.name, names)}
          and ((${jobs.state} = 'created' and ${jobs.startAfter} <= ${at}) or (${jobs.state} = 'active' and ${jobs.leaseUntil} < ${at}))
        order by ${jobs.startAfter} limit ${limit} for update skip locked`;
      const rows = await db
        .update(jobs)
        .set({ state: "active", attempts: sql`${jobs.attempts} + 1`, leaseUntil: new Date(now.getTime() + LEASE_MS) })
        .where(sql`${jobs.id} in (${due})`)
        .returning();
      return rows.map((r) => ({ id: r.id, name: r.name, data: r.data, attempt: r.attempts }));
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
