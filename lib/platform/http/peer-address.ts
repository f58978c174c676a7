import http from "node:http";
import https from "node:https";

/**
 * The address of the machine at the other end of the TCP connection, as a request header that the
 * client cannot set. `next start` gives route handlers no socket, and the X-Forwarded-For it fills
 * from the socket is only filled when the client sent none (`??=` in next/dist/server/base-server.js),
 * so a client could choose its own "IP". Before Next sees a request, this stamps the socket's
 * remoteAddress into PEER_ADDRESS_HEADER, overwriting whatever the client put there.
 *
 * Installed once per process from instrumentation.ts (register() runs before the server handles
 * its first request). lib/platform/http/client-ip.ts trusts the header only when the stamp is installed.
 */
export const PEER_ADDRESS_HEADER = "x-switchboard-peer-address";

type Marker = { __switchboardPeerStamp?: boolean };
const marker = globalThis as Marker;

export function peerStampInstalled(): boolean {
  return marker.__switchboardPeerStamp === true;
}

function stamp(req: http.IncomingMessage) {
  const address = req.socket?.remoteAddress;
  if (address) req.headers[PEER_ADDRESS_HEADER] = address;
  else delete req.headers[PEER_ADDRESS_HEADER];
}

/**
 * Wraps `emit` of http(s).Server so every "request" and "upgrade" is stamped before any listener
 * (Next's) runs. Idempotent.
 */
export function installPeerAddressStamp(): void {
  if (marker.__switchboardPeerStamp) return;
  for (const Server of [http.Server, https.Server]) {
    const proto = Server.prototype as unknown as { emit: (event: string | symbol, ...args: unknown[]) => boolean };
    const original = proto.emit;
    proto.emit = function emit(this: unknown, event: string | symbol, ...args: unknown[]) {
      if ((event === "request" || event === "upgrade") && args[0] instanceof http.IncomingMessage) stamp(args[0]);
      return original.call(this, event, ...args);
    };
  }
  marker.__switchboardPeerStamp = true;
}
