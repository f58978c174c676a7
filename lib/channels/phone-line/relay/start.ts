import "server-only";
import { getDb } from "@/lib/platform/database";
import { startRelayGateway, type RelayGateway } from "./gateway";

const globalForGateway = globalThis as unknown as { __switchboardGateway?: Promise<RelayGateway | null> };

/**
 * Starts the gateway in this process once (the app's own, beside Next, sharing its database
 * handle). A port already in use is reported, not fatal: the app still serves the Gather loop.
 */
export function startRelayGatewayOnce(port: number): Promise<RelayGateway | null> {
  globalForGateway.__switchboardGateway ??= startRelayGateway({ port, getDb })
    .then((gateway) => {
      console.log(`[gateway] ConversationRelay gateway listening on port ${gateway.port} (${gateway.url})`);
      return gateway;
    })
    .catch((error: Error) => {
      console.error(`[gateway] not started on port ${port}: ${error.message}. Set GATEWAY_PORT to a free port, or "off".`);
      return null;
    });
  return globalForGateway.__switchboardGateway;
}
