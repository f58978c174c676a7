import "server-only";
import { env } from "@/lib/env";

/** The path ConversationRelay connects to on the gateway. */
export const RELAY_PATH = "/relay";

const globalForGateway = globalThis as unknown as { __switchboardGatewayPort?: number };

/** The gateway started in this process records the port it actually listens on (GATEWAY_PORT=0 picks one). */
export function setGatewayListeningPort(port: number | undefined) {
  globalForGateway.__switchboardGatewayPort = port;
}

/**
 * The gateway's public base: GATEWAY_PUBLIC_URL (wss://relay.example.com), else PUBLIC_URL's host on
 * the gateway's port, with ws:// for http and wss:// for https.
 */
export function gatewayPublicBase(): string {
  if (env.GATEWAY_PUBLIC_URL) return env.GATEWAY_PUBLIC_URL.replace(/\/+$/, "");
  const base = new URL(env.PUBLIC_URL);
  base.protocol = base.protocol === "https:" ? "wss:" : "ws:";
  const port = globalForGateway.__switchboardGatewayPort ?? env.GATEWAY_PORT;
  if (port) base.port = String(port);
  return base.origin;
}

/** Where Twilio opens the call's WebSocket (the call id rides in the signed URL). */
export function relayUrlFor(callId: string): string {
  return `${gatewayPublicBase()}${RELAY_PATH}?callId=${encodeURIComponent(callId)}`;
}
