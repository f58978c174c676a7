import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/**
 * The in-process job queue (lib/platform/jobs/local-queue.ts), used on embedded PGlite; a PostgreSQL
 * server uses pg-boss's own tables instead. A row is one run of a named job; a `singleton_key`
 * is used once per name (until the finished row is cleaned up after 7 days).
 */
export const jobs = pgTable(
  "job",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    data: jsonb("data").$type<unknown>().notNull().default({}),
    state: text("state", { enum: ["created", "active", "completed", "failed"] }).notNull().default("created"),
    startAfter: timestamp("start_after", { withTimezone: true }).notNull().defaultNow(),
    /** While active: when another worker may take it over (its worker died). */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    retryLimit: integer("retry_limit").notNull().default(3),
    retryDelaySeconds: integer("retry_delay_seconds").notNull().default(30),
    singletonKey: text("singleton_key"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    index("job_due_idx").on(t.state, t.startAfter),
    uniqueIndex("job_singleton_idx")
      .on(t.name, t.singletonKey)
      .where(sql`${t.singletonKey} is not null`),
  ],
);

/** When each recurring job was last put on the queue, shared by every instance (lib/platform/jobs/scheduler.ts). */
export const jobSchedules = pgTable("job_schedule", {
  name: text("name").primaryKey(),
  lastEnqueuedAt: timestamp("last_enqueued_at", { withTimezone: true }).notNull(),
});
