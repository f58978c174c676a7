import "server-only";
import PgBoss from "pg-boss";
import type { FetchedJob, JobQueue } from "./types";
import { errorForLog } from "@/lib/platform/database-errors";

/** Runs a job gets after its worker died, beyond its retry limit. */
const CRASH_RETRIES = 3;

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
    // Expiry of abandoned jobs is ours (reclaimExpired, on every runner's poll): pg-boss's own runs
    // only with its maintenance and retries an expired job after a backoff.
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
        // The lease a taken job starts with; the runner's heartbeat renews it while the job runs.
        expireInSeconds: options.leaseSeconds,
      });
    },

    async fetch(limits, _leaseSeconds, total) {
      const names = [...limits.entries()].filter(([, n]) => n > 0).map(([name]) => name);
      if (names.length === 0) return [];
      // One read for the names that have a job due, then pg-boss's own fetch for those only: an idle
      // runner asks once per poll, not once per job name (docs/jobs.md).
      const { rows } = await boss
        .getDb()
        .executeSql(`select distinct name from pgboss.job where name = any($1::text[]) and state < 'active' and start_after < now()`, [names]);
      const taken: FetchedJob[] = [];
      for (const { name } of rows as { name: string }[]) {
        const take = Math.min(limits.get(name) ?? 0, total - taken.length);
        if (take <= 0) break;
        await ensureQueue(name);
        const batch = await boss.fetch<unknown>(name, { batchSize: take, includeMetadata: true });
        for (const job of batch ?? []) taken.push({ id: job.id, name: job.name, data: job.data, attempt: job.retryCount + 1 });
      }
      return taken;
    },

    async heartbeat(running, leaseSeconds) {
      if (running.length === 0) return;
      // pg-boss expires a job at started_on + expire_in: the lease is renewed by moving expire_in.
      await boss.getDb().executeSql(
        `update pgboss.job as j set expire_in = (now() - j.started_on) + make_interval(secs => r.lease)
           from unnest($1::uuid[], $2::text[], $3::int[]) as r(id, name, lease)
          where j.name = r.name and j.id = r.id and j.state = 'active'`,
        [running.map((j) => j.id), running.map((j) => j.name), running.map((j) => leaseSeconds(j.name))],
      );
    },

    async reclaimExpired(names) {
      if (names.length === 0) return 0;
      // A job whose worker stopped renewing its lease (the instance died) is due again at once, as a
      // retry (pg-boss counts it when it is fetched again). The job did not fail, its worker did: it
      // gets up to CRASH_RETRIES runs beyond its own retry limit, so a job that kills its worker
      // every time still ends (failed).
      const { rows } = await boss.getDb().executeSql(
        `update pgboss.job set
            state = case when retry_count < retry_limit + ${CRASH_RETRIES} then 'retry'::pgboss.job_state else 'failed'::pgboss.job_state end,
            start_after = now(),
            completed_on = case when retry_count < retry_limit + ${CRASH_RETRIES} then null else now() end,
            output = '{"message": "the worker running this job stopped renewing its lease (its instance died?)"}'::jsonb
          where name = any($1::text[]) and state = 'active' and started_on + expire_in < now()
          returning id`,
        [names],
      );
      return rows.length;
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
