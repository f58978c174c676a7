/**
 * Checks a key with the provider's cheapest authenticated call (a read that costs nothing):
 * Anthropic GET /v1/models, ElevenLabs GET /v1/user, Deepgram GET /v1/projects, Twilio GET the
 * account. No network → "offline" (the key stays saved, unverified); 401/403 → "refused" with the
 * provider's own words; any 2xx → "verified". Anything else (5xx, rate limit) counts as not verified.
 */
export type VerifiableProvider = "anthropic" | "elevenlabs" | "deepgram" | "twilio";
export type KeyVerification =
  | { status: "verified"; message: null }
  | { status: "offline"; message: string | null }
  | { status: "refused"; message: string };

export type VerifySecret = { apiKey: string } | { accountSid: string; authToken: string };

export const VERIFY_BASE_URLS: Record<VerifiableProvider, string> = {
  anthropic: "https://api.anthropic.com",
  elevenlabs: "https://api.elevenlabs.io",
  deepgram: "https://api.deepgram.com",
  twilio: "https://api.twilio.com",
};

const TIMEOUT_MS = 5000;

function request(provider: VerifiableProvider, secret: VerifySecret, base: string): { url: string; headers: Record<string, string> } {
  if (provider === "twilio") {
    if (!("accountSid" in secret)) throw new Error("Twilio needs an account SID and an auth token");
    const basic = Buffer.from(`${secret.accountSid}:${secret.authToken}`).toString("base64");
    return { url: `${base}/2010-04-01/Accounts/${encodeURIComponent(secret.accountSid)}.json`, headers: { authorization: `Basic ${basic}` } };
  }
  if (!("apiKey" in secret)) throw new Error(`${provider} needs an API key`);
  switch (provider) {
    case "anthropic":
      return { url: `${base}/v1/models?limit=1`, headers: { "x-api-key": secret.apiKey, "anthropic-version": "2023-06-01" } };
    case "elevenlabs":
      return { url: `${base}/v1/user`, headers: { "xi-api-key": secret.apiKey } };
    case "deepgram":
      return { url: `${base}/v1/projects`, headers: { authorization: `Token ${secret.apiKey}` } };
  }
}

/** The provider's reason, from the usual error shapes, cut to one readable line. */
function refusalReason(body: string, status: number): string {
  let reason: unknown;
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const error = json.error as Record<string, unknown> | string | undefined;
    const detail = json.detail as Record<string, unknown> | string | undefined;
    reason =
      (typeof error === "object" && error ? error.message : error) ??
      (typeof detail === "object" && detail ? detail.message : detail) ??
      json.message ??
      json.err_msg;
  } catch {
    reason = body.trim();
  }
  const text = typeof reason === "string" && reason.trim() ? reason.trim() : `HTTP ${status}`;
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

export async function verifyApiKey(
  provider: VerifiableProvider,
  secret: VerifySecret,
  options: { baseUrl?: string; timeoutMs?: number } = {},
): Promise<KeyVerification> {
  const { url, headers } = request(provider, secret, (options.baseUrl ?? VERIFY_BASE_URLS[provider]).replace(/\/$/, ""));
  let res: Response;
  try {
    res = await fetch(url, { headers, redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS) });
  } catch {
    return { status: "offline", message: null };
  }
  const body = await res.text().catch(() => "");
  if (res.ok) return { status: "verified", message: null };
  if (res.status === 401 || res.status === 403) return { status: "refused", message: refusalReason(body, res.status) };
  return { status: "offline", message: `The provider answered ${res.status}; try again later` };
}
