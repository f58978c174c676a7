import "server-only";
import { env } from "@/lib/env";

/**
 * The caller's IP for rate limits. `next start` fills X-Forwarded-For with the socket address
 * when the client sent none; behind a known proxy (TRUST_PROXY_HEADERS=true, e.g. Vercel) the
 * proxy's left-most entry is the client. Without a trusted proxy a client can forge the header,
 * which only weakens the per-IP limit: the per-e-mail limit still holds.
 */
export function clientIp(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-for");
  if (forwarded) {
    const parts = forwarded.split(",").map((p) => p.trim()).filter(Boolean);
    const ip = env.TRUST_PROXY_HEADERS ? parts[0] : parts[parts.length - 1];
    if (ip) return ip.replace(/^::ffff:/, "");
  }
  return headers.get("x-real-ip");
}
