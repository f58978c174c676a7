import "server-only";
import { env } from "@/lib/platform/env";

/** The path ConversationRelay connects to on the gateway. */
export const RELAY_PATH = "/relay";

const globalForGateway = globalThis as unknown as { __switchboardGatewayPort?: number };

/** The gateway started in this process records the port it actually listens on (GATEWAY_PORT=0 picks one). */
export function setGatewayListeningPort(port: number | undefined) {
  globalForGateway.__switchboardGatewayPort = port;
}

/** Hosts only this machine reaches: the simulated carrier and tests may use ws:// there. */
function isLocalHost(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "[::1]" || /^127\./.test(hostname);
}

/**
 * The gateway's public base: GATEWAY_PUBLIC_URL (wss://relay.example.com), else PUBLIC_URL's host on
 * the gateway's port. Always wss:// for a host the carrier reaches — Twilio's ConversationRelay
 * refuses ws:// — whatever scheme the setting was written with (behind a TLS-terminating proxy
 * PUBLIC_URL may say http://); ws:// only for a loopback host (the simulated carrier, tests).
 */
export function gatewayPublicBase(): string {
  const base = new URL(env.GATEWAY_PUBLIC_URL ?? env.PUBLIC_URL);
  const secure = !isLocalHost(base.hostname.toLowerCase());
  if (!env.GATEWAY_PUBLIC_URL) {
    const port = globalForGateway.__switchboardGatewayPort ?? env.GATEWAY_PORT;
    if (port) base.port = String(port);
  }
  // URL refuses to switch between special (http) and non-special (ws) schemes: rebuild the string.
  const host = base.host;
  const path = env.GATEWAY_PUBLIC_URL ? base.pathname.replace(/\/+$/, "") : "";
  return `${secure ? "wss" : "ws"}://${host}${path}`;
}

/** Where Twilio opens the call's WebSocket (the call id rides in the signed URL). */
export function relayUrlFor(callId: string): string {
  return `${gatewayPublicBase()}${RELAY_PATH}?callId=${encodeURIComponent(callId)}`;
}
