// npm run bench:http — the contract routes against a route that does no database work, over HTTP,
// on the production build under `next start`, signed in as the demo account (docs/benchmarks.md).
//
// A closed loop of BENCH_CONNECTIONS (20) keep-alive connections, like `wrk -c20`, runs each target
// for BENCH_SLICE_MS (1500 ms) in turn: the floor (`GET /api/subscription-plans`), then every route,
// and again for BENCH_ROUNDS (5) rounds. Each route's figure is its requests per second as a ratio
// to the floor's in the same round (the median over rounds), so a neighbour's build that slows the
// whole machine for a while slows floor and route alike. Both drivers in one run: embedded PGlite,
// then PostgreSQL on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test, a scratch
// database dropped afterwards); BENCH_ONLY=pglite|postgres runs one.
import http from "node:http";
import os from "node:os";
import pg from "pg";

import { percentile } from "./bench-support";
import { startBenchServer, type BenchServer } from "./bench-server";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1500);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const FLOOR = "/api/subscription-plans";
const ROUTES = ["/api/auth/me", "/api/dashboard/stats", "/api/phone-numbers", "/api/voice-assistants", "/api/call-history?limit=25"];
const TARGETS: Record<string, { pglite: number; postgres: number }> = Object.fromEntries(
  ROUTES.map((route) => [route, { pglite: 0.4, postgres: 0.6 }]),
);

type Slice = { requests: number; seconds: number; latencies: number[]; serverCpu: number | null };

/** Runs `CONNECTIONS` request loops against one path for `ms`; every answer must be 200. */
async function slice(server: BenchServer, agent: http.Agent, path: string, headers: Record<string, string>, ms: number): Promise<Slice> {
  const url = new URL(server.url);
  const latencies: number[] = [];
  const cpuBefore = server.cpuSeconds();
  const start = performance.now();
  const end = start + ms;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const t0 = performance.now();
      const req = http.request({ host: url.hostname, port: url.port, path, agent, headers }, (res) => {
        res.on("data", () => {});
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`GET ${path}: ${res.statusCode}`));
          else {
            latencies.push(performance.now() - t0);
            resolve();
          }
        });
      });
      req.on("error", reject);
      req.end();
    });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = server.cpuSeconds();
  return { requests: latencies.length, seconds, latencies, serverCpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

const median = (xs: number[]) => percentile(xs, 50);
const fmt = (n: number, digits = 1) => n.toFixed(digits);

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function run(driver: "pglite" | "postgres") {
  if (driver === "postgres") process.env.BENCH_DATABASE_URL = POSTGRES_URL;
  else delete process.env.BENCH_DATABASE_URL;
  const loadBefore = os.loadavg()[0];
  const server = await startBenchServer();
  try {
    const { demoAccount } = await import("@/lib/consoles/demo-accounts");
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: demoAccount.email, password: demoAccount.password }),
    });
    if (!login.ok) throw new Error(`demo sign-in failed: ${login.status} ${await login.text()}`);
    const { sessionId } = (await login.json()) as { sessionId: string };
    // Every target gets the same header, the floor too (it ignores it).
    const headers = { authorization: `Bearer ${sessionId}`, accept: "application/json" };
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const targets = [FLOOR, ...ROUTES];

    for (const path of targets) await slice(server, agent, path, headers, WARMUP_MS);

    const slices = new Map<string, Slice[]>(targets.map((t) => [t, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // The floor first in every round, then the routes (their order rotated from round to round).
      const routes = ROUTES.map((_, i) => ROUTES[(i + round) % ROUTES.length]);
      for (const path of [FLOOR, ...routes]) slices.get(path)!.push(await slice(server, agent, path, headers, SLICE_MS));
    }
    agent.destroy();
    const loadAfter = os.loadavg()[0];

    const rps = (s: Slice) => s.requests / s.seconds;
    const floorSlices = slices.get(FLOOR)!;
    console.log(
      `\n${driver === "postgres" ? "PostgreSQL" : "embedded PGlite"}: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SLICE_MS} ms per target, ` +
        `load average ${fmt(loadBefore, 2)} → ${fmt(loadAfter, 2)} (${os.cpus().length} cores)`,
    );
    console.log("| route | req/s | ratio to floor (median of rounds) | min–max of rounds | p50 ms | p99 ms | server CPU ms/req | target | met |");
    console.log("|---|---|---|---|---|---|---|---|---|");
    const results: { path: string; ratio: number }[] = [];
    for (const path of targets) {
      const list = slices.get(path)!;
      const ratios = list.map((s, i) => rps(s) / rps(floorSlices[i]));
      const ratio = median(ratios);
      const all = list.flatMap((s) => s.latencies);
      const requests = list.reduce((a, s) => a + s.requests, 0);
      const seconds = list.reduce((a, s) => a + s.seconds, 0);
      const cpu = list.every((s) => s.serverCpu !== null) ? (list.reduce((a, s) => a + s.serverCpu!, 0) * 1000) / requests : null;
      const target = path === FLOOR ? null : TARGETS[path][driver];
      if (path !== FLOOR) results.push({ path, ratio });
      console.log(
        `| \`GET ${path}\`${path === FLOOR ? " (floor)" : ""} | ${fmt(requests / seconds, 0)} | ${path === FLOOR ? "1" : fmt(ratio, 2) + "×"} | ` +
          `${path === FLOOR ? "" : `${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}`} | ${fmt(percentile(all, 50))} | ${fmt(percentile(all, 99))} | ` +
          `${cpu === null ? "—" : fmt(cpu, 2)} | ${target === null ? "" : `≥ ${target}×`} | ${target === null ? "" : ratio >= target ? "yes" : "no"} |`,
      );
    }
    return results;
  } finally {
    await server.stop();
  }
}

async function main() {
  const only = process.env.BENCH_ONLY;
  const drivers: ("pglite" | "postgres")[] = only === "pglite" || only === "postgres" ? [only] : ["pglite", "postgres"];
  for (const driver of drivers) {
    if (driver === "postgres" && !(await postgresReachable())) {
      console.log(`\nPostgreSQL: not reachable at ${POSTGRES_URL}, skipped (set BENCH_DATABASE_URL).`);
      continue;
    }
    await run(driver);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
