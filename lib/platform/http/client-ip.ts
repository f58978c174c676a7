import "server-only";
import net from "node:net";
import { env } from "@/lib/platform/env";
import { PEER_ADDRESS_HEADER, peerStampInstalled } from "./peer-address";

/** An address as limits key it: IPv4-mapped IPv6 as IPv4, IPv6 lower-case; null when it is not an address. */
export function normalizeAddress(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let value = raw.trim();
  if (value.startsWith("[") && value.includes("]")) value = value.slice(1, value.indexOf("]"));
  value = value.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
  if (net.isIP(value) === 0) return null;
  return value.toLowerCase();
}

/**
 * The caller's address for rate limits and logs: one the client cannot choose (docs/security.md).
 * - Behind a trusted proxy (TRUST_PROXY_HEADERS=true): the X-Forwarded-For entry the nearest proxy
 *   wrote — TRUSTED_PROXY_HOPS entries from the right (1: the right-most). Entries further left came
 *   from the client and are ignored.
 * - Otherwise: the TCP peer's address, stamped into PEER_ADDRESS_HEADER by the server hook
 *   (lib/platform/http/peer-address.ts) before Next sees the request; whatever the client sent under that
 *   name has been overwritten. X-Forwarded-For and X-Real-IP are ignored.
 * Tests call route handlers in-process without a server: there the header is taken as given.
 */
export function clientIp(headers: Headers): string | null {
  if (env.TRUST_PROXY_HEADERS) {
    const forwarded = headers
      .get("x-forwarded-for")
      ?.split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    if (forwarded?.length) return normalizeAddress(forwarded[Math.max(0, forwarded.length - env.TRUSTED_PROXY_HOPS)]);
    const real = normalizeAddress(headers.get("x-real-ip"));
    if (real) return real;
  }
  if (!peerStampInstalled() && env.NODE_ENV !== "test") {
    warnOnce();
    return null;
  }
  return normalizeAddress(headers.get(PEER_ADDRESS_HEADER));
}

let warned = false;
function warnOnce() {
  if (warned) return;
  warned = true;
  console.warn("[switchboard] the peer-address stamp is not installed (instrumentation.ts did not run): per-IP limits are off");
}
