/**
 * Issue 26 §4 and §7, through the one route wrapper on a real database: a database error is logged
 * with its SQLSTATE and the route — never the statement's parameters (session tokens, message
 * bodies, phone numbers) — and an unreachable database answers 503 with Retry-After, not 500.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { closeDb } from "@/lib/platform/database";
import { errorForLog } from "@/lib/platform/database-errors";
import { publicRoute } from "@/lib/identity/http/route";

afterAll(() => closeDb());

const SECRET_TOKEN = "sess_9f8e7d6c5b4a39281706f5e4d3c2b1a0";
const PHONE = "+14155550142";
const BODY = "Hi, it's Dana, my door code is 4471";

function capture() {
  const lines: string[] = [];
  const record = (...args: unknown[]) => {
    lines.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}\n${String((a as { cause?: unknown }).cause)}` : typeof a === "string" ? a : JSON.stringify(a))).join(" "));
  };
  const spies = [jest.spyOn(console, "error").mockImplementation(record), jest.spyOn(console, "warn").mockImplementation(record), jest.spyOn(console, "log").mockImplementation(record)];
  return { lines, restore: () => spies.forEach((s) => s.mockRestore()) };
}

async function invoke(handler: ReturnType<typeof publicRoute>, path = "/api/test/route") {
  const res = await handler(new Request(`http://localhost:3000${path}`, { method: "GET" }), { params: Promise.resolve({}) });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe("database errors in logs", () => {
  it("logs a failing statement's SQLSTATE and the route, not its parameters (500 path)", async () => {
    const route = publicRoute(async (_req, { db }) => db.execute(sql`select * from no_such_table where token = ${SECRET_TOKEN} and phone = ${PHONE} and body = ${BODY}`));
    const logs = capture();
    const res = await invoke(route, "/api/messages/send");
    logs.restore();
    expect(res.status).toBe(500);
    const text = logs.lines.join("\n");
    expect(text).toContain("GET /api/messages/send");
    expect(text).toContain("database error 42P01");
    expect(text).not.toContain(SECRET_TOKEN);
    expect(text).not.toContain(PHONE);
    expect(text).not.toContain("door code");
    expect(JSON.stringify(res.body)).not.toContain(SECRET_TOKEN);
  });

  it("logs a refused value (400 path) without the value", async () => {
    const route = publicRoute(async (_req, { db }) => db.execute(sql`select ${`${PHONE} ${SECRET_TOKEN}`}::int`));
    const logs = capture();
    const res = await invoke(route);
    logs.restore();
    expect(res.status).toBe(400);
    const text = logs.lines.join("\n");
    expect(text).toMatch(/database error 22[0-9A-Z]{3}/);
    expect(text).not.toContain(SECRET_TOKEN);
    expect(text).not.toContain(PHONE);
  });

  it("errorForLog keeps the code and drops drizzle's 'Failed query … params' message", () => {
    const wrapped = Object.assign(new Error(`Failed query: select 1\nparams: ${SECRET_TOKEN}`), { name: "DrizzleQueryError", cause: Object.assign(new Error("boom"), { code: "23505" }) });
    expect(errorForLog(wrapped)).toBe("database error 23505");
    expect(errorForLog(new Error(`Failed query: select $1\nparams: ${PHONE}`))).toBe("Error: a database statement failed");
  });
});

describe("a database outage", () => {
  it("answers 503 with Retry-After and a JSON message when the database cannot be reached", async () => {
    // A real driver error: a pool pointed at a port nothing listens on.
    const down = new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 2_000 });
    const route = publicRoute(async () => (await down.query("select 1")).rows);
    const logs = capture();
    const res = await invoke(route, "/api/dashboard");
    logs.restore();
    await down.end();
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(res.body.message).toMatch(/temporarily unavailable/);
    expect(logs.lines.join("\n")).toContain("GET /api/dashboard: database unavailable");
  });

  it("answers 503 when the server ends the connection (57P01) and recovers on the next request", async () => {
    const route = publicRoute(async () => {
      throw Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    });
    const logs = capture();
    expect((await invoke(route)).status).toBe(503);
    logs.restore();
    const healthy = publicRoute(async (_req, { db }) => (await db.execute(sql`select 1 as ok`)).rows);
    expect((await invoke(healthy)).status).toBe(200);
  });
});
