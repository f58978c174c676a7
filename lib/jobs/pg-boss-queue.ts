import "server-only";
import PgBoss from "pg-boss";
import type { FetchedJob, JobQueue } from "./types";
import { errorForLog } from "@/lib/database-errors";

/**
 * pg-boss on a PostgreSQL server (ARCHITECTURE: jobs): its own schema `pgboss`, SKIP LOCKED
 * fetches, retries with backoff, expiry of jobs whose worker died, and retention. Our runner does
 * the polling (./runner.ts), so pg-boss's own workers and cron are not started; its maintenance
 * runs in long-lived processes only (`supervise`).
 */
export async function createPgBossQueue(connectionString: string, options: { supervise: boolean }): Promise<JobQueue> {
  const boss = new PgBoss({
    connectionString,
    max: 3,
    supervise: options.supervise,
    schedule: false,
    migrate: true,
  });
  boss.on("error", (error) => console.error("[jobs] pg-boss:", errorForLog(error)));
  await boss.start();
  const queues = new Set<string>();
  const ensureQueue = async (name: string) => {
    if (queues.has(name)) return;
    await boss.createQueue(name);
    queues.add(name);
  };

  return {
    kind: "pg-boss",

    async send(name, data, options) {
      await ensureQueue(name);
      return boss.send(name, (data ?? {}) as object, {
        startAfter: options.startAfter,
        // pg-boss dedupes keyed sends within a singleton slot, at most its archive interval (12 h).
        // Handlers are idempotent anyway; the key only saves the duplicate work.
        ...(options.singletonKey ? { singletonKey: options.singletonKey, singletonSeconds: 12 * 3600 } : {}),
        retryLimit: options.retryLimit,
        retryDelay: options.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: 15 * 60,
      });
    },

    async fetch(names, limit) {
      if (names.length === 0 || limit <= 0) return [];
      // One read for the names that have a job due, then pg-boss's own fetch for those only: an idle
      // runner asks once per poll, not once per job name (17 statements a second; docs/jobs.md).
      const { rows } = await boss
        .getDb()
        .executeSql(`select distinct name from pgboss.job where name = any($1::text[]) and state < 'active' and start_after < now()`, [names]);
      const due = new Set(rows.map((r: { name: string }) => r.name));
      const taken: FetchedJob[] = [];
      for (const name of names) {
        if (!due.has(name)) continue;
        if (taken.length >= limit) break;
        await ensureQueue(name);
        const batch = await boss.fetch<unknown>(name, { batchSize: limit - taken.length, includeMetadata: true });
        for (const job of batch ?? []) taken.push({ id: job.id, name: job.name, data: job.data, attempt: job.retryCount + 1 });
      }
      return taken;
    },

    async complete(job) {
      await boss.complete(job.name, job.id);
    },

    async fail(job, error) {
      const message = error instanceof Error ? error.message : String(error);
      await boss.fail(job.name, job.id, { message: message.slice(0, 2000) });
    },

    async pending(name) {
      await ensureQueue(name);
      const db = boss.getDb();
      const { rows } = await db.executeSql(
        `select id, data, start_after from pgboss.job where name = $1 and state in ('created', 'retry') order by start_after`,
        [name],
      );
      return rows.map((r: { id: string; data: unknown; start_after: Date }) => ({ id: r.id, data: r.data, startAfter: new Date(r.start_after) }));
    },

    async stop() {
      await boss.stop({ graceful: false, wait: true, timeout: 2000 });
    },
  };
}
