import "server-only";
import { env } from "@/lib/platform/env";
import { forbidden } from "./errors";

/**
 * Cross-site request forgery (docs/security.md "CSRF"). The session cookie is SameSite=Lax, which
 * stops cross-site POSTs in current browsers but not same-site ones (a sibling subdomain), not
 * `Origin: null` documents, and not older browsers. So every state-changing request is checked here,
 * once, by the route wrapper — the rule of Go's net/http CrossOriginProtection:
 *  1. `Origin: null` (sandboxed frames, data: URLs, some redirects) → refused.
 *  2. `Sec-Fetch-Site` (set by the browser, never by page scripts): `same-origin` or `none` (typed
 *     by the user) → allowed; `same-site` or `cross-site` → refused.
 *  3. No Origin either: not a browser (curl, a webhook, a server) → allowed.
 *  4. Origin is ours — PUBLIC_URL's origin, or the host this request was sent to → allowed; else refused.
 * A request that carries an `Authorization` header is an API client: a page on another site cannot
 * add that header without a CORS preflight, which Switchboard never grants, so it is not checked.
 */

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const CROSS_SITE_MESSAGE = "This request came from another site, so it was refused. Open Switchboard and try again there.";

function publicOrigin(): string | null {
  try {
    return new URL(env.PUBLIC_URL).origin;
  } catch {
    return null;
  }
}

/** The hosts (host:port) this request was addressed to: the Host header, and the proxy's when trusted. */
function requestHosts(headers: Headers): string[] {
  const hosts = [headers.get("host")];
  if (env.TRUST_PROXY_HEADERS) hosts.push(headers.get("x-forwarded-host")?.split(",")[0]?.trim() ?? null);
  return hosts.filter((h): h is string => Boolean(h)).map((h) => h.toLowerCase());
}

/** True when `origin` (scheme://host[:port]) is Switchboard's own. `null` and garbage are not. */
export function isOurOrigin(origin: string, headers: Headers): boolean {
  if (!origin || origin === "null") return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  if (url.origin === publicOrigin()) return true;
  return requestHosts(headers).includes(url.host.toLowerCase());
}

/** Throws 403 when a state-changing request comes from a page on another site. */
export function assertNotCrossSite(req: Request): void {
  if (!UNSAFE_METHODS.has(req.method.toUpperCase())) return;
  const headers = req.headers;
  if (headers.has("authorization")) return;
  const origin = headers.get("origin");
  if (origin !== null && origin.trim().toLowerCase() === "null") throw forbidden(CROSS_SITE_MESSAGE);
  const site = headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (site) {
    if (site === "same-origin" || site === "none") return;
    throw forbidden(CROSS_SITE_MESSAGE);
  }
  if (origin === null) return;
  if (!isOurOrigin(origin, headers)) throw forbidden(CROSS_SITE_MESSAGE);
}

/**
 * For GET navigations that change state (GET /api/logout): only a navigation from one of our own
 * pages. `Sec-Fetch-Site: same-origin` in browsers that send it; otherwise a Referer of ours.
 */
export function isSameOriginNavigation(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site")?.trim().toLowerCase();
  if (site) return site === "same-origin";
  const referer = req.headers.get("referer");
  if (!referer) return false;
  try {
    return isOurOrigin(new URL(referer).origin, req.headers);
  } catch {
    return false;
  }
}
