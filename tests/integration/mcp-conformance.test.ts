/**
 * The MCP conformance suite (@modelcontextprotocol/conformance) against /api/mcp/server, for the
 * server scenarios that apply to a server with tools and no resources, prompts, logging or
 * completions (issue 26 §13; the counts are in docs/security.md). The suite needs Node 22: it runs
 * with the registry's `node@22` package (`npx -p node@22`). Only when MCP_CONFORMANCE=1 (the CI step
 * in .ci/run sets it): it downloads Node 22 and takes a minute.
 *
 * The suite's client sends no credentials, so the test server in front adds this organization's
 * access token to each request, as a configured MCP client would.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { DELETE as mcpDelete, GET as mcpGet, POST as mcpPost } from "@/app/api/mcp/server/route";
import { POST as createTokenRoute } from "@/app/api/settings/access-tokens/route";
import { closeDb } from "@/lib/platform/database";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";
import { serveFetchHandler, type WebServer } from "../helpers/web-server";

const CONFORMANCE_SCENARIOS = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

const run = process.env.MCP_CONFORMANCE === "1" ? describe : describe.skip;
jest.setTimeout(600_000);

let web: WebServer;
afterAll(async () => {
  await web?.close();
  await closeDb();
});

run("MCP conformance suite (server scenarios)", () => {
  it.each(CONFORMANCE_SCENARIOS)("passes %s", async (scenario) => {
    if (!web) {
      const account = await registerTestUser();
      const created = await call(createTokenRoute, "POST", "/api/settings/access-tokens", {
        sessionId: account.sessionId,
        body: { name: "conformance", scopes: ["calls:read", "messages:read", "dashboard:read"] },
      });
      const token = created.body.token as string;
      const handlers: Record<string, typeof mcpPost> = { GET: mcpGet, POST: mcpPost, DELETE: mcpDelete };
      web = await serveFetchHandler(async (req) => {
        const handler = handlers[req.method];
        if (!handler) return new Response(null, { status: 405, headers: { Allow: "GET, POST, DELETE" } });
        const headers = new Headers(req.headers);
        headers.set("authorization", `Bearer ${token}`);
        const body = req.method === "POST" ? await req.text() : undefined;
        return handler(new Request(req.url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
      });
    }
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-conformance-"));
    const cli = path.join(process.cwd(), "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
    let stdout = "";
    try {
      ({ stdout } = await promisify(execFile)("npx", ["-y", "-p", "node@22", "--", "node", cli, "server", "--url", `${web.url}/api/mcp/server`, "--scenario", scenario], {
        cwd: out,
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
      }));
    } catch (error) {
      stdout = `${(error as { stdout?: string }).stdout ?? ""}\n${(error as { stderr?: string }).stderr ?? ""}`;
      throw new Error(`conformance ${scenario} failed:\n${stdout.slice(-4000)}`);
    }
    process.stdout.write(`[conformance] ${scenario}\n${stdout.slice(-1500)}\n`);
  });
});
