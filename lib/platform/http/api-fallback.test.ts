/**
 * Issue 26 §14: unknown /api/* paths answer JSON 404 and a method a route does not export answers
 * JSON 405 with Allow — through proxy.ts, as Next runs it — and the route table is current.
 */
import { execFileSync } from "node:child_process";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { apiFallbackResponse, matchApiRoute } from "./api-fallback";

const run = (method: string, path: string) => proxy(new NextRequest(`http://localhost:3000${path}`, { method }));

it("answers an unknown /api path with JSON 404", async () => {
  const res = run("GET", "/api/no-such-thing/here");
  expect(res.status).toBe(404);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  expect(await res.json()).toEqual({ message: "No API route /api/no-such-thing/here. See docs/api.md for the routes." });
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
});

it("answers a method the route does not export with JSON 405 and Allow", async () => {
  const res = run("DELETE", "/api/dashboard/stats");
  expect(res.status).toBe(405);
  expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  expect((await res.json()).message).toBe("Method DELETE is not allowed on /api/dashboard/stats; use GET, HEAD, OPTIONS");
});

it("lets the routes' own methods through, static segments before dynamic ones", () => {
  expect(run("GET", "/api/dashboard/stats").status).toBe(200); // NextResponse.next()
  expect(run("POST", `/api/a2a/orgs/${crypto.randomUUID()}`).headers.get("x-middleware-next")).toBe("1");
  expect(matchApiRoute("/api/a2a/agents/abc/check")?.pattern).toBe("/api/a2a/agents/[id]/check");
  expect(apiFallbackResponse("GET", "/api/a2a/orgs/x/.well-known/agent-card.json")).toBeNull();
});

it("keeps lib/platform/http/api-routes.generated.ts in step with app/api", () => {
  expect(() => execFileSync("node", ["scripts/api-routes.mjs", "--check"], { stdio: "pipe" })).not.toThrow();
});
