import "server-only";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobSchedules } from "@/db/schema";
import { enqueue } from "./queue";
import type { JobDefinition } from "./types";

/**
 * What a long-lived runner remembers between ticks: for each recurring job, when its next slot
 * starts (epoch ms). Until then the job's slot has been claimed, by this instance or another, so the
 * tick skips its statements: an idle server reads the schedule table once per slot, not once per
 * poll (docs/jobs.md).
 */
export type ScheduleMemo = Map<string, number>;

/**
 * Recurring jobs: each `everySeconds` slot is claimed by exactly one instance (an atomic UPDATE of
 * job_schedule), which puts one job on the queue with the slot as its singleton key. Called by the
 * runner's tick and by the cron route, so it works with long-lived and serverless hosts alike.
 */
export async function enqueueDueSchedules(db: Db, definitions: JobDefinition<unknown>[], now = new Date(), memo?: ScheduleMemo): Promise<string[]> {
  const enqueued: string[] = [];
  for (const job of definitions) {
    if (!job.everySeconds) continue;
    const slotStart = new Date(Math.floor(now.getTime() / (job.everySeconds * 1000)) * job.everySeconds * 1000);
    if (memo && now.getTime() < (memo.get(job.name) ?? 0)) continue;
    await db.insert(jobSchedules).values({ name: job.name, lastEnqueuedAt: new Date(0) }).onConflictDoNothing();
    const claimed = await db
      .update(jobSchedules)
      .set({ lastEnqueuedAt: slotStart })
      .where(and(eq(jobSchedules.name, job.name), lt(jobSchedules.lastEnqueuedAt, slotStart)))
      .returning({ name: jobSchedules.name });
    if (claimed.length > 0) {
      await enqueue(null, job, {}, { singletonKey: `${job.name}:${slotStart.toISOString()}` });
      enqueued.push(job.name);
    }
    // Claimed here or already by another instance: nothing more to do for this slot.
    memo?.set(job.name, slotStart.getTime() + job.everySeconds * 1000);
  }
  return enqueued;
}
