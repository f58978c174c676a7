import "server-only";
import { env } from "@/lib/platform/env";

/**
 * Where the carrier (Twilio, or the simulated carrier) sends each webhook. Every URL is absolute on
 * PUBLIC_URL: Twilio needs absolute URLs, and the signature is computed over the full URL, so the
 * panel, the simulator and Twilio all sign exactly the URL the server verifies.
 */
export const TELEPHONY_PATHS = {
  voice: "/api/telephony/voice",
  gather: "/api/telephony/voice/gather",
  dial: "/api/telephony/voice/dial",
  record: "/api/telephony/voice/record",
  recording: "/api/telephony/voice/recording",
  connect: "/api/telephony/voice/connect",
  whisper: "/api/telephony/voice/whisper",
  status: "/api/telephony/status",
  sms: "/api/telephony/sms",
  simulatorRecordings: "/api/telephony/simulator/recordings",
  /** Twilio's caller-ID verification outcome for a brought-in number (lib/phone/numbers/ownership.ts). */
  verification: "/api/telephony/verification",
} as const;

export function publicBase(): string {
  return env.PUBLIC_URL.replace(/\/+$/, "");
}

export function telephonyUrl(kind: keyof typeof TELEPHONY_PATHS, query?: Record<string, string | number>): string {
  const url = `${publicBase()}${TELEPHONY_PATHS[kind]}`;
  if (!query) return url;
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return `${url}?${qs}`;
}

/** An app path (e.g. a signed audio link) as an absolute URL the carrier can fetch. */
export function absoluteUrl(path: string): string {
  return `${publicBase()}${path}`;
}

/**
 * The URL a webhook's signature is checked against: PUBLIC_URL + the request's path and query when
 * PUBLIC_URL is configured (behind a proxy the request's own URL is not what Twilio called),
 * otherwise the URL as the request arrived.
 */
export function signatureUrl(req: Request): string {
  const arrived = new URL(req.url);
  if (env.PUBLIC_URL_SET) return `${publicBase()}${arrived.pathname}${arrived.search}`;
  // As it arrived: the Host header the client used (Next may rebuild req.url with its own hostname).
  const host = req.headers.get("host");
  return host ? `${arrived.protocol}//${host}${arrived.pathname}${arrived.search}` : arrived.toString();
}
