import "server-only";
import dns from "node:dns";
import type { LookupAddress, LookupOptions } from "node:dns";
import ipaddr from "ipaddr.js";
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit, type Response as UndiciResponse } from "undici";
import { env } from "@/lib/platform/env";

/**
 * Outbound HTTP to user-given URLs (webhooks, Slack, later MCP/A2A), guarded against SSRF
 * (ARCHITECTURE "Security facts"):
 * - http(s) only, no credentials in the URL;
 * - every A/AAAA record of the host must be public unicast (ipaddr.js `process()` first, so
 *   ::ffff:127.0.0.1 is judged as 127.0.0.1; 169.254.169.254 is link-local and refused);
 * - the check runs again at connect time inside the undici Agent's `connect.lookup`, so a name that
 *   rebinds between the check and the connection cannot reach a private address;
 * - redirects are not followed (`redirect: "manual"`) unless `followRedirects` allows some; then
 *   each hop's Location is checked again exactly like the first URL before it is requested;
 * - every request times out after 10 s.
 * `ALLOW_PRIVATE_ENDPOINTS=true` (or the `allowPrivate` option) lifts the address rule only.
 */

export const SAFE_FETCH_TIMEOUT_MS = 10_000;

export class UnsafeUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafeUrlError";
  }
}

export type SafeFetchOptions = {
  /**
   * Allow loopback, private and link-local addresses (tests, self-hosted setups). Defaults to env.
   * A function decides per URL (each redirect hop is asked again).
   */
  allowPrivate?: boolean | ((url: URL) => boolean);
  timeoutMs?: number;
  /**
   * How many redirects to follow (default 0: a 3xx answer is returned as it is). Every hop is
   * checked again (scheme, credentials, addresses at connect time). 303, and 301/302 after a POST,
   * continue as GET without a body (as browsers do); 307/308 repeat the method and body, which must
   * then be a string or bytes.
   */
  followRedirects?: number;
};

function allowPrivateFor(url: URL, options?: SafeFetchOptions): boolean {
  // Read at call time (not import time), so a test can flip it around a single request.
  const allow = options?.allowPrivate ?? env.ALLOW_PRIVATE_ENDPOINTS;
  return typeof allow === "function" ? allow(url) : allow;
}

/** IPv6 global unicast: 2000::/3. Everything outside it is special (loopback, ::/96, NAT64, ULA, …). */
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

/**
 * Special-purpose ranges inside 2000::/3 that ipaddr.js still calls "unicast", or that embed an IPv4
 * address we could not judge (IANA IPv6 Special-Purpose Address Registry).
 */
const SPECIAL_IPV6 = [
  "2001::/23", // IETF protocol assignments: Teredo (embeds IPv4), benchmarking, ORCHID, AMT…
  "2001:db8::/32", // documentation
  "2002::/16", // 6to4 (embeds an IPv4 address)
  "2620:4f:8000::/48", // AS112-v6
  "3fff::/20", // documentation
].map((cidr) => ipaddr.parseCIDR(cidr));

/**
 * True only for public unicast addresses. IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4
 * address. Any other IPv6 must be global unicast (2000::/3) outside the special-purpose blocks, so
 * IPv4-compatible forms (::127.0.0.1 = ::7f00:1, ::169.254.169.254), NAT64 (64:ff9b::/96), unique
 * local, link-local, site-local and multicast are all refused — ipaddr.js alone calls ::/96 "unicast".
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (v6.zoneId) return false;
  if (!v6.match(GLOBAL_UNICAST)) return false;
  if (SPECIAL_IPV6.some((range) => v6.match(range))) return false;
  return v6.range() === "unicast";
}

function stripBrackets(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** Parses and checks the form of a URL (scheme, credentials, host). Throws UnsafeUrlError. */
export function parseOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError("Enter a full URL starting with https:// or http://");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UnsafeUrlError("Only http:// and https:// URLs are allowed");
  }
  if (url.username || url.password) throw new UnsafeUrlError("The URL must not contain a user name or password");
  if (!url.hostname) throw new UnsafeUrlError("The URL has no host");
  return url;
}

async function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return dns.promises.lookup(hostname, { all: true, verbatim: true });
}

function refuseAddress(host: string, address: string): UnsafeUrlError {
  return new UnsafeUrlError(
    host === address
      ? `${address} is a private, loopback or link-local address; only public addresses can be reached`
      : `${host} resolves to ${address}, a private, loopback or link-local address; only public addresses can be reached`,
  );
}

/**
 * Checks that a URL may be called: form, then (unless private endpoints are allowed) every address
 * the host resolves to. Used when a user saves a URL, and before each request.
 */
export async function assertSafeUrl(raw: string, options?: SafeFetchOptions): Promise<URL> {
  const url = parseOutboundUrl(raw);
  if (allowPrivateFor(url, options)) return url;
  const host = stripBrackets(url.hostname);
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host)) throw refuseAddress(host, host);
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new UnsafeUrlError(`The host ${host} could not be found`);
  }
  if (addresses.length === 0) throw new UnsafeUrlError(`The host ${host} could not be found`);
  for (const { address } of addresses) if (!isPublicAddress(address)) throw refuseAddress(host, address);
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `net.connect` lookup that resolves every address and refuses the connection when any of them is
 * not public. This is what the socket actually connects to, so DNS rebinding cannot bypass it.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || list.length === 0) {
      const error = refuseAddress(hostname, bad?.address ?? "no address") as NodeJS.ErrnoException;
      error.code = "EADDRNOTALLOWED";
      return callback(error, []);
    }
    if (options.all) return callback(null, list);
    return callback(null, list[0].address, list[0].family);
  });
}

const globalAgents = globalThis as unknown as { __switchboardSafeAgents?: { guarded: Agent; open: Agent } };

function agents() {
  globalAgents.__switchboardSafeAgents ??= {
    guarded: new Agent({ connect: { lookup: guardedLookup, timeout: SAFE_FETCH_TIMEOUT_MS } }),
    open: new Agent({ connect: { timeout: SAFE_FETCH_TIMEOUT_MS } }),
  };
  return globalAgents.__switchboardSafeAgents;
}

export type SafeFetchInit = Omit<UndiciRequestInit, "dispatcher" | "redirect" | "signal">;

/**
 * fetch for user-given URLs. Throws UnsafeUrlError when the URL or its addresses are refused;
 * other network failures and the timeout reject as fetch does. 3xx answers are returned, not followed.
 */
export async function safeFetch(raw: string, init: SafeFetchInit = {}, options?: SafeFetchOptions): Promise<UndiciResponse> {
  const { guarded, open } = agents();
  const timeout = AbortSignal.timeout(options?.timeoutMs ?? SAFE_FETCH_TIMEOUT_MS);
  // An SDK that hands in its own signal (to cancel a request) keeps that power; the timeout still applies.
  const callerSignal = (init as { signal?: AbortSignal | null }).signal;
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
  let current = raw;
  let request: SafeFetchInit = init;
  for (let hop = 0; ; hop++) {
    const url = await assertSafeUrl(current, options);
    const allowPrivate = allowPrivateFor(url, options);
    const response = await undiciFetch(url, { ...request, redirect: "manual", dispatcher: allowPrivate ? open : guarded, signal } as UndiciRequestInit);
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || !location || hop >= (options?.followRedirects ?? 0)) return response;
    await response.body?.cancel().catch(() => undefined);
    current = new URL(location, url).toString();
    request = redirectedInit(request, response.status);
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function redirectedInit(init: SafeFetchInit, status: number): SafeFetchInit {
  const method = (init.method ?? "GET").toUpperCase();
  if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
    const headers = new Headers(init.headers as HeadersInit | undefined);
    headers.delete("content-type");
    headers.delete("content-length");
    return { ...init, method: method === "HEAD" ? "HEAD" : "GET", body: undefined, headers };
  }
  const body = init.body;
  if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) {
    throw new UnsafeUrlError("The server redirected a request whose body cannot be sent again");
  }
  return init;
}

/** Reads at most `limit` characters of a response body and discards the rest. */
export async function readLimitedText(res: UndiciResponse, limit = 500): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString("utf8").slice(0, limit);
}
