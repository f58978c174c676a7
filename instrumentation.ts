/**
 * Runs once when a server instance starts, before it serves: applies pending migrations, seeds the
 * demo data into an empty database (lib/seed), and starts the in-process job runner unless
 * JOBS_IN_PROCESS=false (then `npm run worker` or the cron route runs the jobs).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { prepareDatabase } = await import("./lib/seed/prepare");
  await prepareDatabase();
  const { env } = await import("./lib/env");
  if (env.JOBS_IN_PROCESS) {
    const { startJobRunner } = await import("./lib/jobs/runner");
    startJobRunner(env.JOBS_POLL_INTERVAL_MS);
  }
}
