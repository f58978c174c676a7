import "server-only";
import { ProviderError, providerFetch, failureOf } from "@/lib/platform/outbound/provider-http";

/**
 * Slack Web API for "Add to Slack" connections: chat.postMessage to the picked channel and
 * conversations.list for the channel picker. Slack answers HTTP 200 with {ok: false, error} for most
 * refusals; token_revoked / invalid_auth / account_inactive mean the grant is gone.
 */
const AUTH_ERRORS = new Set(["token_revoked", "invalid_auth", "account_inactive", "not_authed", "token_expired"]);

async function slackCall<T>(apiBase: string, token: string, method: string, body: Record<string, unknown>): Promise<T> {
  const res = await providerFetch(`${apiBase}/api/${method}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw await failureOf(res, "Slack");
  const answer = (await res.json()) as { ok: boolean; error?: string } & T;
  if (!answer.ok) {
    const error = answer.error ?? "unknown_error";
    throw new ProviderError(`Slack refused ${method}: ${error}`, AUTH_ERRORS.has(error) ? "auth" : "invalid", res.status);
  }
  return answer;
}

export async function postMessage(apiBase: string, token: string, channel: string, text: string): Promise<{ ts: string }> {
  return slackCall<{ ts: string }>(apiBase, token, "chat.postMessage", { channel, text });
}

export type SlackChannel = { id: string; name: string };

export async function listChannels(apiBase: string, token: string): Promise<SlackChannel[]> {
  const answer = await slackCall<{ channels: { id: string; name: string; is_archived?: boolean }[] }>(apiBase, token, "conversations.list", {
    types: "public_channel,private_channel",
    exclude_archived: true,
    limit: 200,
  });
  return answer.channels.filter((c) => !c.is_archived).map((c) => ({ id: c.id, name: c.name }));
}
