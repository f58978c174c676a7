import "server-only";

/**
 * Calls to the integrations' providers (fixed hosts from lib/platform/outbound/oauth-providers.ts, not
 * user-given URLs): a timeout, no redirects, and the answer classified so a delivery knows whether to
 * retry (outage, 429 with Retry-After), to ask for a reconnect (401, a revoked grant) or to give up.
 */
export const PROVIDER_TIMEOUT_MS = 15_000;

export type ProviderErrorKind = "auth" | "rate_limited" | "unavailable" | "invalid";

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: ProviderErrorKind,
    readonly status: number | null = null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export async function providerFetch(url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(init.timeoutMs ?? PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    const detail = error instanceof Error ? (error.name === "TimeoutError" ? `no answer within ${(init.timeoutMs ?? PROVIDER_TIMEOUT_MS) / 1000} s` : error.message) : String(error);
    throw new ProviderError(`${new URL(url).host} did not answer: ${detail}`, "unavailable");
  }
}

/** Turns a non-2xx answer into a ProviderError, with a short detail from the body. */
export async function failureOf(res: Response, who: string): Promise<ProviderError> {
  const text = (await res.text().catch(() => "")).slice(0, 300);
  let detail = text;
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown; error_description?: unknown };
    const err = body.error as { message?: unknown } | string | undefined;
    detail = String(body.message ?? body.error_description ?? (typeof err === "object" && err ? err.message : err) ?? text);
  } catch {
    // not JSON: keep the text
  }
  const status = res.status;
  const kind: ProviderErrorKind =
    status === 429 ? "rate_limited" : status === 401 || status === 403 ? "auth" : status >= 500 || status === 408 ? "unavailable" : "invalid";
  return new ProviderError(`${who} answered HTTP ${status}${detail ? `: ${detail.slice(0, 200)}` : ""}`, kind, status, retryAfterMs(res.headers.get("retry-after")));
}

/** A JSON API call with a bearer token; a non-2xx answer throws a ProviderError. */
export async function providerJson<T>(who: string, url: string, token: string, method = "GET", body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await providerFetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await failureOf(res, who);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}
