import "server-only";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobSchedules } from "@/db/schema";
import { enqueue } from "./queue";
import type { JobDefinition } from "./types";

/**
 * Recurring jobs: each `everySeconds` slot is claimed by exactly one instance (an atomic UPDATE of
 * job_schedule), which puts one job on the queue with the slot as its singleton key. Called by the
 * runner's tick and by the cron route, so it works with long-lived and serverless hosts alike.
 */
export async function enqueueDueSchedules(db: Db, definitions: JobDefinition<unknown>[], now = new Date()): Promise<string[]> {
  const enqueued: string[] = [];
  for (const job of definitions) {
    if (!job.everySeconds) continue;
    const slotStart = new Date(Math.floor(now.getTime() / (job.everySeconds * 1000)) * job.everySeconds * 1000);
    await db.insert(jobSchedules).values({ name: job.name, lastEnqueuedAt: new Date(0) }).onConflictDoNothing();
    const claimed = await db
      .update(jobSchedules)
      .set({ lastEnqueuedAt: slotStart })
      .where(and(eq(jobSchedules.name, job.name), lt(jobSchedules.lastEnqueuedAt, slotStart)))
      .returning({ name: jobSchedules.name });
    if (claimed.length === 0) continue;
    await enqueue(null, job, {}, { singletonKey: `${job.name}:${slotStart.toISOString()}` });
    enqueued.push(job.name);
  }
  return enqueued;
}
