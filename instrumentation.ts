/**
 * Runs once when a server instance starts, before it serves: stamps each request with its TCP peer
 * address (lib/platform/http/peer-address.ts: the client address for rate limits), sizes the speech worker
 * pools (SPEECH_WORKERS), applies pending migrations, seeds the demo data into an empty database
 * when configured (lib/consoles/seed), creates the first master admin from MASTER_ADMIN_EMAIL/PASSWORD,
 * starts the in-process job runner unless JOBS_IN_PROCESS=false (then `npm run worker` or the cron
 * route runs the jobs), and starts the ConversationRelay WebSocket gateway on GATEWAY_PORT unless it
 * is "off" (serverless hosts, or when `npm run gateway` runs it elsewhere).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installPeerAddressStamp } = await import("./lib/platform/http/peer-address");
  installPeerAddressStamp();
  const [{ env }, { configureSpeechPools }] = await Promise.all([import("./lib/platform/env"), import("./lib/platform/providers/speech-pool")]);
  configureSpeechPools({ workers: env.SPEECH_WORKERS }); // the pools themselves start on first use
  // Caller understanding trains its intent model now (seconds), not on the first caller's turn.
  void import("./lib/agents/conversation/understanding").then(({ warmUp }) => warmUp()).catch((error: unknown) => console.error("[conversation] understanding warm-up failed:", error));
  const { prepareDatabase } = await import("./lib/consoles/seed/prepare");
  await prepareDatabase();
  if (env.JOBS_IN_PROCESS) {
    const [{ startJobRunner }, { jobDefinitions }] = await Promise.all([import("./lib/platform/jobs/runner"), import("./lib/all-jobs")]);
    startJobRunner(env.JOBS_POLL_INTERVAL_MS, { definitions: jobDefinitions });
  }
  if (env.GATEWAY_PORT !== null) {
    const { startRelayGatewayOnce } = await import("./lib/channels/phone-line/relay/start");
    await startRelayGatewayOnce(env.GATEWAY_PORT);
  }
}
