/**
 * Switchboard's own MCP server (/api/mcp/server) driven by the official MCP client SDK over real
 * HTTP, in both protocol eras: access tokens from Settings (created, listed without secrets,
 * revoked → 401 at once), tools over the organization's data, scopes enforced per tool, and the
 * clients recorded as connections.
 */
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { GET as connectionsRoute } from "@/app/api/mcp/connections/route";
import { GET as healthRoute } from "@/app/api/mcp/health/route";
import { DELETE as mcpDelete, GET as mcpGet, POST as mcpPost } from "@/app/api/mcp/server/route";
import { GET as resourceMetadataRoute } from "@/app/.well-known/oauth-protected-resource/api/mcp/server/route";
import { DELETE as revokeRoute } from "@/app/api/settings/access-tokens/[id]/route";
import { GET as listTokensRoute, POST as createTokenRoute } from "@/app/api/settings/access-tokens/route";
import { accessTokens, calls, messages, phoneNumbers, users } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { recordOptOut } from "@/lib/scheduling/messaging";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";
import { routeTable, serveFetchHandler, type WebServer } from "../helpers/web-server";

jest.setTimeout(90_000);

let web: WebServer;
let endpoint: string;

beforeAll(async () => {
  web = await serveFetchHandler(routeTable([{ pattern: "/api/mcp/server", methods: { GET: mcpGet, POST: mcpPost, DELETE: mcpDelete } }]));
  endpoint = `${web.url}/api/mcp/server`;
});
afterAll(async () => {
  await web.close();
  await closeDb();
});

async function createToken(account: TestAccount, scopes: string[], name = "Claude Desktop") {
  const res = await call(createTokenRoute, "POST", "/api/settings/access-tokens", { sessionId: account.sessionId, body: { name, scopes } });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string; scopes: string[]; token: string };
}

async function connect(token: string | null, clientInfo = { name: "test-client", version: "1.0.0" }, mode: "auto" | "legacy" = "auto") {
  const client = new Client(clientInfo, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  return client;
}

function textOf(result: { content?: unknown }): string {
  return ((result.content as { type: string; text?: string }[]) ?? []).map((c) => c.text ?? "").join("");
}

/** A simulated number, a call with a transcript and a received text for the organization. */
async function seedOrganization(account: TestAccount) {
  const db = await getDb();
  const numberId = crypto.randomUUID();
  const phone = `+1415555${String(Math.floor(Math.random() * 100)).padStart(2, "0")}${String(Math.floor(Math.random() * 100)).padStart(2, "0")}`;
  // A fictional simulated-carrier number, +1 {area} 555 01NN, in a random area code (numbers are
  // unique across organizations, and a shared database keeps earlier runs' numbers).
  const areaCode = 200 + Math.floor(Math.random() * 800);
  const simulated = `+1${areaCode}55501${String(Math.floor(Math.random() * 100)).padStart(2, "0")}`;
  await db.insert(phoneNumbers).values({ id: numberId, organizationId: account.organizationId, phoneNumber: simulated, friendlyName: "Front desk", provider: "simulated" });
  const callId = crypto.randomUUID();
  const at = new Date(Date.now() - 3600_000);
  await db.insert(calls).values({
    id: callId,
    organizationId: account.organizationId,
    phoneNumberId: numberId,
    direction: "inbound",
    fromNumber: phone,
    toNumber: simulated,
    callerName: "Dana Whitfield",
    status: "completed",
    startedAt: at,
    durationSeconds: 95,
    transcript: [
      { speaker: "caller", text: "Do you have a whitening appointment on Friday?", at: at.toISOString() },
      { speaker: "assistant", text: "Friday at ten is open. Shall I note it?", at: at.toISOString() },
    ],
    summary: "Asked about a Friday whitening appointment.",
    sentiment: "positive",
    intent: "appointment",
  });
  await db.insert(messages).values({
    id: crypto.randomUUID(),
    organizationId: account.organizationId,
    phoneNumberId: numberId,
    direction: "inbound",
    fromNumber: phone,
    toNumber: simulated,
    body: "Running ten minutes late!",
    status: "received",
  });
  return { callId, numberId, simulated };
}

describe("access tokens (Settings → API Keys → Access tokens)", () => {
  it("creates a token shown once, stores only its hash, lists it without the secret, and revokes it", async () => {
    const account = await registerTestUser();
    const created = await createToken(account, ["calls:read", "calls:read", "dashboard:read"]);
    expect(created.token).toMatch(/^sbat_[A-Za-z0-9_-]{43}$/);
    expect(created.scopes).toEqual(["calls:read", "dashboard:read"]);
    const db = await getDb();
    const [row] = await db.select().from(accessTokens).where(eq(accessTokens.id, created.id));
    expect(row.tokenHash).toBe(crypto.createHash("sha256").update(created.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const list = await call(listTokensRoute, "GET", "/api/settings/access-tokens", { sessionId: account.sessionId });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { id: created.id, name: "Claude Desktop", scopes: ["calls:read", "dashboard:read"], prefix: created.token.slice(0, 11), createdAt: expect.any(String), lastUsedAt: null },
    ]);
    expect(list.text).not.toContain(created.token);

    const other = await registerTestUser();
    expect((await call(revokeRoute, "DELETE", `/api/settings/access-tokens/${created.id}`, { sessionId: other.sessionId, params: { id: created.id } })).status).toBe(404);
    const revoked = await call(revokeRoute, "DELETE", `/api/settings/access-tokens/${created.id}`, { sessionId: account.sessionId, params: { id: created.id } });
    expect(revoked.status).toBe(200);
    expect((await call(listTokensRoute, "GET", "/api/settings/access-tokens", { sessionId: account.sessionId })).body).toEqual([]);
    expect((await call(revokeRoute, "DELETE", `/api/settings/access-tokens/${created.id}`, { sessionId: account.sessionId, params: { id: created.id } })).status).toBe(404);
  });

  it("answers 400 naming the field, and 401 without a session", async () => {
    const account = await registerTestUser();
    const res = await call(createTokenRoute, "POST", "/api/settings/access-tokens", { sessionId: account.sessionId, body: { name: "", scopes: [] } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ name: "Name is required", scopes: "Choose at least one scope" });
    const unknown = await call(createTokenRoute, "POST", "/api/settings/access-tokens", { sessionId: account.sessionId, body: { name: "x", scopes: ["calls:delete"] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors["scopes.0"]).toMatch(/^Each scope must be one of: calls:read, messages:read, messages:send, dashboard:read$/);
    expect((await call(createTokenRoute, "POST", "/api/settings/access-tokens", { body: { name: "x", scopes: ["calls:read"] } })).status).toBe(401);
    expect((await call(listTokensRoute, "GET", "/api/settings/access-tokens")).status).toBe(401);
  });
});

describe("Switchboard's MCP server with the SDK client", () => {
  it("answers 401 with a Bearer challenge without a token, with an unknown token, and with a revoked one at once", async () => {
    const bare = await fetch(endpoint, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toMatch(/^Bearer /);
    await expect(connect(null)).rejects.toThrow();
    await expect(connect("sbat_not-a-real-token-at-all-0000000000000000000")).rejects.toThrow();

    const account = await registerTestUser();
    const { id, token } = await createToken(account, ["dashboard:read"]);
    const client = await connect(token);
    expect((await client.callTool({ name: "get_dashboard_stats", arguments: {} })).isError).toBeFalsy();
    await call(revokeRoute, "DELETE", `/api/settings/access-tokens/${id}`, { sessionId: account.sessionId, params: { id } });
    await expect(client.callTool({ name: "get_dashboard_stats", arguments: {} })).rejects.toThrow();
    await client.close();
  });

  it("says an invalid token was refused, and its resource_metadata URL answers (RFC 9728)", async () => {
    const refused = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: "Bearer sbat_not-a-real-token-at-all-0000000000000000000" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(/error="invalid_token"/);
    expect(`${challenge} ${await refused.text()}`).toMatch(/token was refused/);
    expect(`${challenge}`).not.toMatch(/No authorization provided/);
    const metadataUrl = new URL(/resource_metadata="([^"]+)"/.exec(challenge)![1]);
    expect(metadataUrl.pathname).toBe("/.well-known/oauth-protected-resource/api/mcp/server");
    const metadata = await resourceMetadataRoute(new Request(metadataUrl), { params: Promise.resolve({}) });
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: `${metadataUrl.origin}/api/mcp/server`, bearer_methods_supported: ["header"] });
  });

  it("refuses a foreign Host or Origin with 403 (DNS rebinding), and accepts its own", async () => {
    const account = await registerTestUser();
    const { token } = await createToken(account, ["dashboard:read"]);
    const post = (headers: Record<string, string>) =>
      mcpPost(
        new Request("http://127.0.0.1:3000/api/mcp/server", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`, ...headers },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        }),
        { params: Promise.resolve({}) },
      );
    const evilHost = await post({ host: "evil.example.com", origin: "http://evil.example.com" });
    expect(evilHost.status).toBe(403);
    expect((await evilHost.json()).error.message).toMatch(/Host evil\.example\.com is not allowed/);
    const evilOrigin = await post({ host: "127.0.0.1:3000", origin: "https://evil.example.com" });
    expect(evilOrigin.status).toBe(403);
    const own = await post({ host: "127.0.0.1:3000" });
    expect(own.status).not.toBe(403);
  });

  it("lists every tool and calls them over the 2026-07-28 protocol, on the token's organization only", async () => {
    const account = await registerTestUser();
    const stranger = await registerTestUser();
    const { callId } = await seedOrganization(account);
    const strangerCall = await seedOrganization(stranger);
    const { token } = await createToken(account, ["calls:read", "messages:read", "dashboard:read"]);
    const client = await connect(token, { name: "claude-ai", version: "0.9.1" });
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getServerVersion()).toMatchObject({ name: "switchboard" });

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["list_calls", "search_calls", "get_call", "list_messages", "send_text", "get_dashboard_stats"]);
    expect(tools.find((t) => t.name === "send_text")?.description).toContain("Needs the messages:send scope.");

    const listed = await client.callTool({ name: "list_calls", arguments: { limit: 5 } });
    expect(listed.isError).toBeFalsy();
    const page = listed.structuredContent as { calls: { id: string; callerName: string }[]; nextCursor: string | null };
    expect(page.calls.map((c) => c.id)).toEqual([callId]);
    expect(JSON.parse(textOf(listed))).toEqual(page);

    const found = await client.callTool({ name: "search_calls", arguments: { query: "WHITENING" } });
    expect((found.structuredContent as { calls: { id: string }[] }).calls.map((c) => c.id)).toEqual([callId]);
    const none = await client.callTool({ name: "search_calls", arguments: { query: "100%_sure" } });
    expect((none.structuredContent as { calls: unknown[] }).calls).toEqual([]);

    const detail = await client.callTool({ name: "get_call", arguments: { callId } });
    const callDetail = (detail.structuredContent as { call: { transcript: { text: string }[]; summary: string } }).call;
    expect(callDetail.summary).toBe("Asked about a Friday whitening appointment.");
    expect(callDetail.transcript[0].text).toContain("whitening appointment");
    // Another organization's call is not found through this token.
    const foreign = await client.callTool({ name: "get_call", arguments: { callId: strangerCall.callId } });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toBe("Call not found");

    const texts = await client.callTool({ name: "list_messages", arguments: {} });
    expect((texts.structuredContent as { messages: { body: string }[] }).messages.map((m) => m.body)).toEqual(["Running ten minutes late!"]);

    const stats = await client.callTool({ name: "get_dashboard_stats", arguments: {} });
    expect(stats.structuredContent).toMatchObject({ totalCalls: 1, totalMessages: 1 });

    const invalid = await client.callTool({ name: "list_calls", arguments: { limit: 500 } });
    expect(invalid.isError).toBe(true);
    await client.close();
  });

  it("enforces each tool's scope: a token without messages:send cannot text; one with it can", async () => {
    const account = await registerTestUser();
    const { simulated } = await seedOrganization(account);
    const readOnly = await connect((await createToken(account, ["calls:read"])).token);
    const refused = await readOnly.callTool({ name: "send_text", arguments: { to: "+14155550199", body: "Hello" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe("insufficient_scope: send_text requires the messages:send scope, which this access token does not have.");
    const noDashboard = await readOnly.callTool({ name: "get_dashboard_stats", arguments: {} });
    expect(textOf(noDashboard)).toMatch(/^insufficient_scope: get_dashboard_stats requires the dashboard:read scope/);
    await readOnly.close();

    const sender = await connect((await createToken(account, ["messages:send"])).token);
    const sent = await sender.callTool({ name: "send_text", arguments: { to: "+14155550199", body: "Your whitening kit is ready." } });
    expect(sent.isError).toBeFalsy();
    const message = (sent.structuredContent as { message: { id: string; direction: string; from: string; to: string; status: string; body: string } }).message;
    expect(message).toMatchObject({ direction: "outbound", from: simulated, to: "+14155550199", status: "sent", body: "Your whitening kit is ready." });
    const db = await getDb();
    const [row] = await db.select().from(messages).where(eq(messages.id, message.id));
    expect(row.providerMessageSid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(row.organizationId).toBe(account.organizationId);

    const badNumber = await sender.callTool({ name: "send_text", arguments: { to: "555-1234", body: "x" } });
    expect(badNumber.isError).toBe(true);

    // A contact who replied STOP is never texted (the one opt-out check): refused, nothing sent or recorded.
    await recordOptOut(db, account.organizationId, "+14155550188");
    const before = (await db.select().from(messages).where(eq(messages.organizationId, account.organizationId))).length;
    const stopped = await sender.callTool({ name: "send_text", arguments: { to: "+14155550188", body: "Special offer!" } });
    expect(stopped.isError).toBe(true);
    expect(textOf(stopped)).toMatch(/\+14155550188 replied STOP on \d{4}-\d{2}-\d{2}: carriers forbid texting them again until they text START\./);
    expect((await db.select().from(messages).where(eq(messages.organizationId, account.organizationId))).length).toBe(before);
    await sender.close();
  });

  it("answers a 2025-era client (initialize handshake) too", async () => {
    const account = await registerTestUser();
    const { token } = await createToken(account, ["dashboard:read"]);
    const client = await connect(token, { name: "legacy-desktop", version: "1.2.0" }, "legacy");
    expect(client.getProtocolEra()).toBe("legacy");
    const stats = await client.callTool({ name: "get_dashboard_stats", arguments: {} });
    expect(stats.isError).toBeFalsy();
    expect(stats.structuredContent).toMatchObject({ totalCalls: 0 });
    await client.close();
  });

  it("records each client as a connection with its own name, the token's scopes as permissions, Anonymous when unnamed", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, account.id));
    const { token } = await createToken(account, ["calls:read", "dashboard:read"], "Laptop");
    const named = await connect(token, { name: "claude-ai", version: "0.9.1" });
    await named.callTool({ name: "get_dashboard_stats", arguments: {} });
    const anonymous = await connect(token, { name: "", version: "" });
    await anonymous.listTools();

    const res = await call(connectionsRoute, "GET", "/api/mcp/connections", { sessionId: account.sessionId });
    expect(res.status).toBe(200);
    const byClient = Object.fromEntries(res.body.connections.map((c: { clientId: string }) => [c.clientId, c]));
    expect(Object.keys(byClient).sort()).toEqual(["", "claude-ai"]);
    expect(byClient["claude-ai"]).toMatchObject({
      clientVersion: "0.9.1",
      organizationId: account.organizationId,
      connected: true,
      permissions: ["calls:read", "dashboard:read"],
      protocolVersion: "2026-07-28",
      lastMethod: "tools/call",
      tokenName: "Laptop",
    });
    expect(byClient["claude-ai"].requestCount).toBeGreaterThanOrEqual(2);
    expect(Date.parse(byClient["claude-ai"].lastActivity)).toBeGreaterThan(Date.now() - 60_000);
    const health = await call(healthRoute, "GET", "/api/mcp/health", { sessionId: account.sessionId });
    expect(health.body.mcp.connections).toBe(2);
    await named.close();
    await anonymous.close();
  });
});
