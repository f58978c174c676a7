/**
 * A local fake of Slack's OAuth v2 and the Web API methods Switchboard calls, on 127.0.0.1 with a
 * random port. Point SLACK_OAUTH_BASE and SLACK_API_BASE at `url`.
 * Wire format as Slack documents it:
 * - GET /oauth/v2/authorize (auto-approved); POST /api/oauth.v2.access (form, client in the body) →
 *   {ok: true, access_token: "xoxb-…", token_type: "bot", scope, team: {id, name}, bot_user_id};
 *   POST /api/auth.revoke (bearer) → {ok: true, revoked: true}.
 * - POST /api/conversations.list → {ok, channels: [{id, name, is_channel, is_archived}]}.
 * - POST /api/chat.postMessage {channel, text} → {ok, channel, ts, message}; an unknown channel →
 *   {ok: false, error: "channel_not_found"}; a dead token → {ok: false, error: "invalid_auth"} or
 *   "token_revoked"; `failNext(429, n, {"retry-after": "…"})` → HTTP 429 with Retry-After.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthFake, readBody } from "./oauth-server";

export type FakeSlack = {
  url: string;
  oauth: OAuthFake;
  channels: { id: string; name: string }[];
  posted: { channel: string; text: string; ts: string }[];
  failNext(status: number, count?: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
};

export async function startFakeSlack(): Promise<FakeSlack> {
  const oauth = new OAuthFake({
    authorizePath: "/oauth/v2/authorize",
    tokenPath: "/api/oauth.v2.access",
    revoke: { path: "/api/auth.revoke", how: "bearer" },
    style: "slack",
    expiresIn: null,
    issueRefreshTokens: false,
    tokenPrefix: "xoxb",
    extraTokenFields: { team: { id: "T0FAKE", name: "Fake Dental" }, bot_user_id: "U0BOT", app_id: "A0APP" },
  });
  const channels = [
    { id: "C0GENERAL", name: "general" },
    { id: "C0FRONTDESK", name: "front-desk" },
  ];
  const posted: FakeSlack["posted"] = [];
  let failures: { status: number; count: number; headers: Record<string, string> } | null = null;

  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake");
    if (oauth.handle(req, res, url, raw)) return;
    const json = (value: unknown, status = 200, headers: Record<string, string> = {}) =>
      res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers }).end(JSON.stringify(value));
    if (!oauth.validBearer(req)) return json({ ok: false, error: oauth.liveGrants === 0 && req.headers.authorization ? "token_revoked" : "invalid_auth" });
    if (failures && failures.count > 0) {
      failures.count -= 1;
      return json({ ok: false, error: failures.status === 429 ? "ratelimited" : "service_unavailable" }, failures.status, failures.headers);
    }
    let body: Record<string, unknown> = {};
    try {
      body = (req.headers["content-type"] ?? "").includes("json") ? (JSON.parse(raw || "{}") as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(raw));
    } catch {
      return json({ ok: false, error: "invalid_json" });
    }
    if (url.pathname === "/api/conversations.list") {
      return json({ ok: true, channels: channels.map((c) => ({ ...c, is_channel: true, is_archived: false })), response_metadata: { next_cursor: "" } });
    }
    if (url.pathname === "/api/chat.postMessage") {
      const channel = String(body.channel ?? "");
      if (!channels.some((c) => c.id === channel)) return json({ ok: false, error: "channel_not_found" });
      if (!body.text) return json({ ok: false, error: "no_text" });
      const ts = `${Math.floor(Date.now() / 1000)}.${String(posted.length).padStart(6, "0")}`;
      posted.push({ channel, text: String(body.text), ts });
      return json({ ok: true, channel, ts, message: { type: "message", text: body.text, ts } });
    }
    json({ ok: false, error: "unknown_method" }, 404);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    oauth,
    channels,
    posted,
    failNext(status, count = 1, headers = {}) {
      failures = { status, count, headers };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
