/**
 * Runs once when a server instance starts, before it serves: stamps each request with its TCP peer
 * address (lib/http/peer-address.ts: the client address for rate limits), applies pending
 * migrations, seeds the demo data into an empty database when configured (lib/seed), creates the
 * first master admin from MASTER_ADMIN_EMAIL/PASSWORD, and starts the in-process job runner unless
 * JOBS_IN_PROCESS=false (then `npm run worker` or the cron route runs the jobs).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerAddressStamp } = await import("./lib/http/peer-address");
  installPeerAddressStamp();
  const { prepareDatabase } = await import("./lib/seed/prepare");
  await prepareDatabase();
  const { env } = await import("./lib/env");
  if (env.JOBS_IN_PROCESS) {
    const { startJobRunner } = await import("./lib/jobs/runner");
    startJobRunner(env.JOBS_POLL_INTERVAL_MS);
  }
}
