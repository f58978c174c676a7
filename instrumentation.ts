/**
 * Runs once when a server instance starts, before it serves: applies pending migrations, seeds the
 * demo data into an empty database (lib/seed), starts the in-process job runner unless
 * JOBS_IN_PROCESS=false (then `npm run worker` or the cron route runs the jobs), and starts the
 * ConversationRelay WebSocket gateway on GATEWAY_PORT unless it is "off" (serverless hosts, or
 * when `npm run gateway` runs it elsewhere).
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
  if (env.GATEWAY_PORT !== null) {
    const { startRelayGatewayOnce } = await import("./lib/telephony/relay/start");
    await startRelayGatewayOnce(env.GATEWAY_PORT);
  }
}
