// npm run worker — runs background jobs (webhook retries, summaries, recaps, health checks…) in a
// process of its own, for hosts where the app has no long-lived process (set JOBS_IN_PROCESS=false
// on the app). Stops cleanly on SIGINT/SIGTERM.
async function main() {
  const { prepareDatabase } = await import("@/lib/consoles/seed/prepare");
  const { env } = await import("@/lib/platform/env");
  const { startJobRunner } = await import("@/lib/platform/jobs/runner");
  const { jobDefinitions } = await import("@/lib/all-jobs");
  const { closeJobQueue } = await import("@/lib/platform/jobs/queue");
  const { closeDb } = await import("@/lib/platform/database");
  await prepareDatabase();
  const runner = startJobRunner(env.JOBS_POLL_INTERVAL_MS, { definitions: jobDefinitions });
  console.log(`[worker] running jobs every ${env.JOBS_POLL_INTERVAL_MS} ms`);
  const stop = async () => {
    await runner.stop();
    await closeJobQueue();
    await closeDb();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  setInterval(() => undefined, 1 << 30);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
