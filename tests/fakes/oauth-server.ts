/**
 * A local fake OAuth 2.0 authorization server (RFC 6749 + PKCE, RFC 7636), mounted inside the
 * provider fakes (hubspot-server.ts, slack-server.ts, google-oauth-server.ts) at the provider's own
 * paths. It auto-approves: GET <authorize> with client_id, redirect_uri, state and an S256
 * code_challenge answers 302 to redirect_uri?code=…&state=… (errors as the providers send them:
 * a bad client or no PKCE → 400 page). The token endpoint takes grant_type=authorization_code (the
 * code once, the same redirect_uri, the verifier whose SHA-256 is the challenge) and refresh_token;
 * the client authenticates in the body or with HTTP Basic, as each provider documents; the body is
 * form-encoded (or JSON for Notion). A refused grant answers 400 {error: "invalid_grant"}, or, in
 * Slack's style, 200 {ok: false, error: "invalid_code" | "invalid_refresh_token"}.
 */
import crypto from "node:crypto";
import type http from "node:http";

export type OAuthStyle = "standard" | "slack";

export type OAuthFakeOptions = {
  clientId?: string;
  clientSecret?: string;
  authorizePath: string;
  tokenPath: string;
  /** "DELETE <path>/<refresh token>" (HubSpot), "POST form token" (Google, Asana) or "POST bearer" (Slack). */
  revoke?: { path: string; how: "delete-path" | "form" | "bearer" | "json" };
  style?: OAuthStyle;
  /** Seconds an access token lives (null: never expires, like Slack bot tokens). */
  expiresIn?: number | null;
  issueRefreshTokens?: boolean;
  tokenPrefix?: string;
  /** Extra fields in the code exchange's answer (Slack's team, HubSpot's hub_domain…). */
  extraTokenFields?: Record<string, unknown>;
  /** Told of every access token issued and revoked (e.g. to let a separate API fake accept them). */
  onIssue?: (accessToken: string) => void;
  onRevoke?: (accessTokens: string[]) => void;
};

type Grant = { accessTokens: Set<string>; refreshToken: string | null; revoked: boolean };

export class OAuthFake {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly options: OAuthFakeOptions;
  /** Every authorization request's query, and every token request's parameters. */
  authorizeRequests: URLSearchParams[] = [];
  tokenRequests: Record<string, string>[] = [];
  revocations: string[] = [];
  /** Access token → its expiry (epoch ms, or Infinity) and grant. */
  private access = new Map<string, { expiresAt: number; grant: Grant }>();
  private refresh = new Map<string, Grant>();
  private codes = new Map<string, { challenge: string; redirectUri: string; used: boolean; scope: string }>();
  /** When set, the token endpoint answers this status (e.g. 503 for an outage). */
  tokenEndpointStatus: number | null = null;
  expiresIn: number | null;

  constructor(options: OAuthFakeOptions) {
    this.options = options;
    this.clientId = options.clientId ?? `client-${crypto.randomBytes(4).toString("hex")}`;
    this.clientSecret = options.clientSecret ?? `secret-${crypto.randomBytes(8).toString("hex")}`;
    this.expiresIn = options.expiresIn === undefined ? 1800 : options.expiresIn;
  }

  private issue(grant: Grant): { access_token: string; expires_in?: number } {
    const token = `${this.options.tokenPrefix ?? "at"}-${crypto.randomBytes(12).toString("hex")}`;
    const expiresAt = this.expiresIn === null ? Infinity : Date.now() + this.expiresIn * 1000;
    this.access.set(token, { expiresAt, grant });
    grant.accessTokens.add(token);
    this.options.onIssue?.(token);
    return { access_token: token, ...(this.expiresIn === null ? {} : { expires_in: this.expiresIn }) };
  }

  /** The bearer token of a request when it is one this server issued, unexpired and not revoked. */
  validBearer(req: http.IncomingMessage): string | null {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
    if (!match) return null;
    const entry = this.access.get(match[1]);
    if (!entry || entry.grant.revoked || entry.expiresAt <= Date.now()) return null;
    return match[1];
  }

  /** Makes every access token of every grant expire now (the next API call must refresh). */
  expireAccessTokens(): void {
    for (const entry of this.access.values()) entry.expiresAt = 0;
  }

  /** The owner removes the app on the provider's side: every grant is revoked. */
  revokeAll(): void {
    for (const grant of this.refresh.values()) grant.revoked = true;
    for (const entry of this.access.values()) entry.grant.revoked = true;
    this.options.onRevoke?.([...this.access.keys()]);
  }

  get liveGrants(): number {
    const grants = new Set<Grant>();
    for (const entry of this.access.values()) if (!entry.grant.revoked) grants.add(entry.grant);
    return grants.size;
  }

  private refused(res: http.ServerResponse, error: string, description: string) {
    if (this.options.style === "slack") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: false, error }));
      return;
    }
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: error === "invalid_client" ? "invalid_client" : "invalid_grant", error_description: description }));
  }

  private clientOf(req: http.IncomingMessage, params: Record<string, string>): { id?: string; secret?: string } {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "");
    if (basic) {
      const [id, secret] = Buffer.from(basic[1], "base64").toString("utf8").split(":");
      return { id, secret };
    }
    return { id: params.client_id, secret: params.client_secret };
  }

  /** Answers the request when it is one of the authorization server's; false otherwise. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL, rawBody: string): boolean {
    if (req.method === "GET" && url.pathname === this.options.authorizePath) {
      const q = url.searchParams;
      this.authorizeRequests.push(q);
      if (q.get("client_id") !== this.clientId) {
        res.writeHead(400, { "content-type": "text/plain" }).end("invalid client_id");
        return true;
      }
      const redirectUri = q.get("redirect_uri");
      const challenge = q.get("code_challenge");
      if (!redirectUri || !q.get("state") || !challenge || q.get("code_challenge_method") !== "S256") {
        res.writeHead(400, { "content-type": "text/plain" }).end("redirect_uri, state and an S256 code_challenge are required");
        return true;
      }
      const code = `code-${crypto.randomBytes(10).toString("hex")}`;
      this.codes.set(code, { challenge, redirectUri, used: false, scope: q.get("scope") ?? "" });
      const back = new URL(redirectUri);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state")!);
      res.writeHead(302, { location: back.toString() }).end();
      return true;
    }
    if (req.method === "POST" && url.pathname === this.options.tokenPath) {
      let params: Record<string, string>;
      try {
        params = (req.headers["content-type"] ?? "").includes("json") ? (JSON.parse(rawBody || "{}") as Record<string, string>) : Object.fromEntries(new URLSearchParams(rawBody));
      } catch {
        res.writeHead(400).end("bad body");
        return true;
      }
      this.tokenRequests.push(params);
      if (this.tokenEndpointStatus) {
        res.writeHead(this.tokenEndpointStatus, { "content-type": "application/json" }).end(JSON.stringify({ error: "temporarily_unavailable" }));
        return true;
      }
      const client = this.clientOf(req, params);
      if (client.id !== this.clientId || client.secret !== this.clientSecret) {
        this.refused(res, "invalid_client", "client authentication failed");
        return true;
      }
      if (params.grant_type === "authorization_code") {
        const entry = this.codes.get(params.code ?? "");
        const verifierHash = crypto.createHash("sha256").update(params.code_verifier ?? "").digest("base64url");
        if (!entry || entry.used || entry.redirectUri !== params.redirect_uri || verifierHash !== entry.challenge) {
          if (entry) entry.used = true;
          this.refused(res, this.options.style === "slack" ? "invalid_code" : "invalid_grant", "bad code, redirect_uri or code_verifier");
          return true;
        }
        entry.used = true;
        const grant: Grant = { accessTokens: new Set(), refreshToken: null, revoked: false };
        if (this.options.issueRefreshTokens !== false) {
          grant.refreshToken = `rt-${crypto.randomBytes(12).toString("hex")}`;
          this.refresh.set(grant.refreshToken, grant);
        }
        const answer = {
          ...(this.options.style === "slack" ? { ok: true, token_type: "bot" } : { token_type: "bearer" }),
          ...this.issue(grant),
          ...(grant.refreshToken ? { refresh_token: grant.refreshToken } : {}),
          scope: entry.scope,
          ...(this.options.extraTokenFields ?? {}),
        };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
        return true;
      }
      if (params.grant_type === "refresh_token") {
        const grant = this.refresh.get(params.refresh_token ?? "");
        if (!grant || grant.revoked) {
          this.refused(res, this.options.style === "slack" ? "invalid_refresh_token" : "invalid_grant", "the refresh token was revoked or is unknown");
          return true;
        }
        const answer = { ...(this.options.style === "slack" ? { ok: true } : {}), token_type: "bearer", ...this.issue(grant) };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
        return true;
      }
      this.refused(res, "unsupported_grant_type", "unsupported grant_type");
      return true;
    }
    const revoke = this.options.revoke;
    if (revoke && url.pathname.startsWith(revoke.path)) {
      let token: string | null = null;
      if (revoke.how === "delete-path" && req.method === "DELETE") token = decodeURIComponent(url.pathname.slice(revoke.path.length + 1));
      if (revoke.how === "form" && req.method === "POST") token = new URLSearchParams(rawBody).get("token");
      if (revoke.how === "json" && req.method === "POST") token = (JSON.parse(rawBody || "{}") as { token?: string }).token ?? null;
      if (revoke.how === "bearer" && req.method === "POST") token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;
      if (token === null) return false;
      const grant = this.refresh.get(token) ?? this.access.get(token)?.grant;
      if (!grant) {
        res.writeHead(this.options.style === "slack" ? 200 : 404, { "content-type": "application/json" }).end(JSON.stringify(this.options.style === "slack" ? { ok: false, error: "invalid_auth" } : { error: "not_found" }));
        return true;
      }
      grant.revoked = true;
      this.revocations.push(token);
      this.options.onRevoke?.([...grant.accessTokens]);
      if (this.options.style === "slack") res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, revoked: true }));
      else res.writeHead(revoke.how === "delete-path" ? 204 : 200).end();
      return true;
    }
    return false;
  }
}

/** Reads a request's body as text. */
export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
