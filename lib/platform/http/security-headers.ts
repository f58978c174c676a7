/**
 * The security headers every answer carries, and the Content-Security-Policy of pages
 * (docs/security.md, docs/decisions.md "CSP"). Pure and free of `server-only`: proxy.ts imports it.
 *
 * CSP: a fresh nonce per page request, as Next documents for the App Router — Next reads the nonce
 * from the request's Content-Security-Policy header and puts it on its own scripts; 'strict-dynamic'
 * lets those scripts load the chunks they need, and nothing else runs: no inline script without the
 * nonce, no eval ('unsafe-eval' only under `next dev`, which needs it), no plugins, no framing.
 * Styles allow 'unsafe-inline' because React renders style attributes (progress bars) and Radix and
 * sonner set inline styles; a style cannot run code.
 */

export type SecurityOptions = { https: boolean; dev: boolean };

// No upgrade-insecure-requests: every resource is same-origin and relative, HSTS already keeps the
// browser on https, and it would break a deployment reached over plain http (a local check of an
// https PUBLIC_URL).
export function contentSecurityPolicy(nonce: string, { dev }: Pick<SecurityOptions, "dev">): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' blob:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
  ];
  return directives.join("; ");
}

/** Two years, subdomains too; sent only when the public URL is https (browsers ignore it over http). */
export const HSTS = "max-age=63072000; includeSubDomains";

export function baseSecurityHeaders({ https }: Pick<SecurityOptions, "https">): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), geolocation=(), microphone=(self)",
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(https ? { "Strict-Transport-Security": HSTS } : {}),
  };
}

/** A nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
