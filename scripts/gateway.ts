/**
 * npm run gateway — the ConversationRelay WebSocket gateway on its own (docs/deploy.md): for hosts
 * where the app runs serverless (GATEWAY_PORT=off there) and the gateway on a machine that holds
 * sockets. Needs the app's DATABASE_URL and secret; listens on GATEWAY_PORT (default 3001).
 */
import { env } from "@/lib/platform/env";
import { getDb } from "@/lib/platform/database";
import { startRelayGateway } from "@/lib/channels/phone-line/relay/gateway";

async function main() {
  if (!env.DATABASE_URL) {
    console.error(
      "npm run gateway needs DATABASE_URL (the app's PostgreSQL). On embedded PGlite the gateway runs inside the app: `npm start` starts it on GATEWAY_PORT.",
    );
    process.exit(1);
  }
  const port = env.GATEWAY_PORT ?? 3001;
  const gateway = await startRelayGateway({ port, getDb });
  console.log(`[gateway] ConversationRelay gateway listening on port ${gateway.port}; Twilio connects to ${gateway.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      void gateway.close().then(() => process.exit(0));
    });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
