/**
 * A local fake of Google's OAuth 2.0 server (accounts.google.com/o/oauth2/v2/auth,
 * oauth2.googleapis.com/token and /revoke), for Connect with Google. Point GOOGLE_OAUTH_BASE at
 * `url`. The access tokens it issues are handed to the Google Calendar fake (its `tokens`), so the
 * calendar accepts them, and taken back from it when revoked.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeGoogleCalendar } from "./google-calendar-server";
import { OAuthFake, readBody } from "./oauth-server";

export type FakeGoogleOAuth = { url: string; oauth: OAuthFake; close(): Promise<void> };

export async function startFakeGoogleOAuth(calendar: FakeGoogleCalendar): Promise<FakeGoogleOAuth> {
  const oauth = new OAuthFake({
    authorizePath: "/o/oauth2/v2/auth",
    tokenPath: "/token",
    revoke: { path: "/revoke", how: "form" },
    expiresIn: 3599,
    tokenPrefix: "ya29.oauth",
    onIssue: (token) => calendar.tokens.add(token),
    onRevoke: (tokens) => tokens.forEach((t) => calendar.tokens.delete(t)),
  });
  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    if (!oauth.handle(req, res, new URL(req.url ?? "/", "http://fake"), raw)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    oauth,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
