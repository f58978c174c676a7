// npm run bench:scale — does reading cost the same for a business with 1,000 calls and one with
// 1,000,000? (issue 29). On PostgreSQL only: creates a database of its own (dropped after), seeds it
// in SQL (generate_series) with one big organization (BENCH_CALLS calls, default 1,000,000, and
// BENCH_TEXTS texts, default 200,000), one small organization (BENCH_SMALL_CALLS, default 1,000) and
// BENCH_SMALL_ORGS more organizations (default 1,000) of 50 calls each (yesterday), rolls the analytics up, then
// times every reporting route through its real handler (session included) for the big and the small
// organization at 1 and 10 connections, big and small interleaved round by round (a load spike of a
// shared machine hits both): p50 / p95 in ms, both ratios big / small, samples and load average. After
// seeding it prints bytes per row of the growing tables (docs/deploy.md's sizing). Each organization
// also gets one credit-ledger usage row per call (the master admin's credit figures and analytics'
// "credits used" read maintained totals, not the ledger: migrations credit_totals_sql, credit_usage_hour_sql).
//
//   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:scale
//   (npx tsx --conditions=react-server scripts/bench-scale.ts until the npm script is added)
//
// Target: each route's p95(big) ≤ 1.5 × p95(small) and ≤ 100 ms at 1 connection. Record the table in
// docs/benchmarks.md with the sizes run.
import os from "node:os";
import { Client } from "pg";

const BASE_URL = process.env.BENCH_PG_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const CALLS = Number(process.env.BENCH_CALLS ?? 1_000_000);
const TEXTS = Number(process.env.BENCH_TEXTS ?? 200_000);
const SMALL_CALLS = Number(process.env.BENCH_SMALL_CALLS ?? 1_000);
const SMALL_ORGS = Number(process.env.BENCH_SMALL_ORGS ?? 1_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const KEEP = process.env.BENCH_KEEP_DB === "true";
const CHUNK = 100_000;

const dbName = `switchboard_bench_scale_${Date.now()}`;
const benchUrl = (() => {
  const u = new URL(BASE_URL);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

process.env.DATABASE_URL = benchUrl;
process.env.BETTER_AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123456789";
process.env.SEED_DEMO_DATA = "false";
process.env.JOBS_IN_PROCESS = "false";
process.env.DATABASE_POOL_MAX ??= "12";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Registers a user (and its organization) through the real route. (bench-support.ts points the app at PGlite: not imported here.) */
async function registerBenchAccount(register: Handler, name: string): Promise<{ sessionId: string; organizationId: string }> {
  const res = await register(
    new Request("http://localhost:3000/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `${name}@example.com`, username: name, password: "bench-pass-123", firstName: "Bench", lastName: "Mark" }),
    }),
    { params: Promise.resolve({}) },
  );
  if (!res.ok) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { sessionId: string; organizationId: string };
}

async function admin<T>(run: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Times the big and the small organization's request interleaved, so a load spike of the shared
 * machine hits both: each round sends `connections` concurrent requests for one organization, then
 * as many for the other (which goes first alternates round by round). At least `runs` rounds; more,
 * up to 4 × `runs`, while the route stays within `budgetMs` — cheap routes get more samples.
 */
async function measurePair(
  connections: number,
  runs: number,
  bigFn: () => Promise<void>,
  smallFn: () => Promise<void>,
  budgetMs = 8_000,
): Promise<{ big: number[]; small: number[] }> {
  for (let i = 0; i < 3; i++) {
    await bigFn();
    await smallFn();
  }
  const big: number[] = [];
  const small: number[] = [];
  const batch = async (fn: () => Promise<void>, into: number[]) => {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        const t = performance.now();
        await fn();
        into.push(performance.now() - t);
      }),
    );
  };
  const started = performance.now();
  for (let round = 0; round < runs * 4; round++) {
    if (round >= runs && performance.now() - started > budgetMs) break;
    if (round % 2 === 0) {
      await batch(bigFn, big);
      await batch(smallFn, small);
    } else {
      await batch(smallFn, small);
      await batch(bigFn, big);
    }
  }
  return { big, small };
}

/** Times `fn` at `connections` concurrent workers, `runs` requests each (platform figures: one organization). */
async function measure(connections: number, runs: number, fn: () => Promise<void>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < Math.min(3, runs); i++) await fn();
  const samples: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < runs * connections) {
        next += 1;
        const t = performance.now();
        await fn();
        samples.push(performance.now() - t);
      }
    }),
  );
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

const load = () => os.loadavg()[0].toFixed(1);

const step = (what: string, started: number) => console.log(`  ${what}: ${((performance.now() - started) / 1000).toFixed(1)} s (load ${os.loadavg()[0].toFixed(1)})`);

/** Calls of one organization, in SQL: spread over `days`, a few numbers calling again and again. */
function callsSql(org: string, numberId: string, from: number, to: number, total: number, days: number, callers: number) {
  return `
  insert into "call" (id, organization_id, phone_number_id, direction, channel, from_number, to_number, status,
                      started_at, ended_at, duration_seconds, transcript, summary, sentiment, intent, outcome,
                      sentiment_score, analyzed_at, created_at)
  select '${org}-c' || g, '${org}', '${numberId}',
         case when g % 5 = 0 then 'outbound' else 'inbound' end, 'phone',
         '+1555' || lpad((g % ${callers})::text, 7, '0'), '+15550100000',
         case when g % 11 = 0 then 'voicemail' when g % 13 = 0 then 'missed' else 'completed' end,
         t, t + interval '2 minutes', 30 + g % 300,
         jsonb_build_array(jsonb_build_object('speaker', 'caller', 'text', 'I would like to book a cleaning, reference ' || g, 'at', t),
                           jsonb_build_object('speaker', 'assistant', 'text', 'Of course, what day suits you?', 'at', t)),
         'Caller asked about ' || (array['opening hours', 'a booking', 'prices', 'insurance'])[1 + g % 4],
         (array['positive', 'neutral', 'negative'])[1 + g % 3],
         (array['hours', 'book', 'pricing', 'insurance'])[1 + g % 4],
         case when g % 11 = 0 then 'voicemail' when g % 13 = 0 then 'missed' else 'answered_by_assistant' end,
         1 + g % 5, t, t
    from generate_series(${from}, ${to}) g,
         lateral (select now() - ((g - 1)::double precision / ${total}) * interval '${days} days' - interval '1 minute' as t) at`;
}

function textsSql(org: string, numberId: string, from: number, to: number, total: number, days: number) {
  return `
  insert into message (id, organization_id, phone_number_id, direction, from_number, to_number, body, status, created_at)
  select '${org}-m' || g, '${org}', '${numberId}',
         case when g % 2 = 0 then 'outbound' else 'inbound' end,
         '+1555' || lpad((g % 5000)::text, 7, '0'), '+15550100000',
         'Can I move my appointment to Thursday? ' || g, case when g % 2 = 0 then 'sent' else 'received' end,
         now() - ((g - 1)::double precision / ${total}) * interval '${days} days' - interval '1 minute'
    from generate_series(${from}, ${to}) g`;
}

/** The credits a history spends: one usage row per call of one organization, spread like its calls. */
function ledgerSql(org: string, from: number, to: number, total: number, days: number) {
  return `
  insert into credit_ledger (id, organization_id, kind, amount, units, category, balance_after, reason, created_at)
  select '${org}-l' || g, '${org}', 'usage', -(1 + g % 3), 1 + g % 3,
         (array['voice_processing', 'sms', 'call_routing', 'ai_analysis'])[1 + g % 4], 0, 'Bench turn',
         now() - ((g - 1)::double precision / ${total}) * interval '${days} days' - interval '1 minute'
    from generate_series(${from}, ${to}) g`;
}

async function main() {
  await admin((c) => c.query(`create database ${dbName}`));
  console.log(`bench:scale on ${new URL(BASE_URL).host}/${dbName}: ${CALLS} calls + ${TEXTS} texts (big), ${SMALL_CALLS} calls (small), ${SMALL_ORGS} organizations × 50 calls`);
  try {
    await run();
  } finally {
    const { closeDb } = await import("@/lib/platform/database");
    await closeDb();
    if (!KEEP) await admin((c) => c.query(`drop database if exists ${dbName} with (force)`));
  }
}

async function run() {
  const { eq, sql } = await import("drizzle-orm");
  const { getDbHandle } = await import("@/lib/platform/database");
  const { contacts, phoneNumbers, users } = await import("@/db/schema");
  const { createOrganization } = await import("@/lib/identity/organizations/service");
  const { refreshDirtyDays, refreshDirtyHours } = await import("@/lib/reports/analytics/rollup");
  const { searchCalls } = await import("@/lib/receptionist/call-history/service");
  const { memoryFor } = await import("@/lib/phone/callers/memory");
  const { POST: register } = await import("@/app/api/auth/register/route");
  const { GET: dashboard } = await import("@/app/api/dashboard/stats/route");
  const { GET: history } = await import("@/app/api/call-history/route");
  const { GET: analytics } = await import("@/app/api/analytics/route");
  const { GET: crmVoice } = await import("@/app/api/crm-voice/analytics/route");
  const { GET: adminStats } = await import("@/app/api/admin/stats/route");
  const { GET: systemStats } = await import("@/app/api/admin/system-stats/route");
  const { GET: adminAnalytics } = await import("@/app/api/admin/analytics/route");
  const { GET: report } = await import("@/app/api/admin/report/route");

  const { db, driver } = await getDbHandle();
  if (driver !== "postgres") throw new Error("bench:scale measures PostgreSQL");

  let t = performance.now();
  const big = await registerBenchAccount(register as Handler, "bigorg");
  const small = await registerBenchAccount(register as Handler, "smallorg");
  const master = await registerBenchAccount(register as Handler, "master");
  // Admin roles, so the organization's CRM analytics and the platform figures can be read.
  await db.update(users).set({ role: "admin" }).where(eq(users.organizationId, big.organizationId));
  await db.update(users).set({ role: "admin" }).where(eq(users.organizationId, small.organizationId));
  await db.update(users).set({ role: "master_admin" }).where(eq(users.organizationId, master.organizationId));
  const numberOf = async (org: string, n: string) => {
    const id = crypto.randomUUID();
    await db.insert(phoneNumbers).values({ id, organizationId: org, phoneNumber: n, friendlyName: "Main line" });
    return id;
  };
  const bigNumber = await numberOf(big.organizationId, "+15550100001");
  const smallNumber = await numberOf(small.organizationId, "+15550100002");
  for (let i = 0; i < SMALL_ORGS; i++) await createOrganization(db, { name: `Small ${i}` });
  step(`accounts and ${SMALL_ORGS} organizations`, t);

  t = performance.now();
  for (let from = 1; from <= CALLS; from += CHUNK) {
    await db.execute(sql.raw(callsSql(big.organizationId, bigNumber, from, Math.min(CALLS, from + CHUNK - 1), CALLS, 365, 50_000)));
  }
  step(`${CALLS} calls (big)`, t);
  t = performance.now();
  for (let from = 1; from <= TEXTS; from += CHUNK) {
    await db.execute(sql.raw(textsSql(big.organizationId, bigNumber, from, Math.min(TEXTS, from + CHUNK - 1), TEXTS, 365)));
  }
  step(`${TEXTS} texts (big)`, t);
  t = performance.now();
  for (let from = 1; from <= CALLS; from += CHUNK) {
    await db.execute(sql.raw(ledgerSql(big.organizationId, from, Math.min(CALLS, from + CHUNK - 1), CALLS, 365)));
  }
  await db.execute(sql.raw(ledgerSql(small.organizationId, 1, SMALL_CALLS, SMALL_CALLS, 365)));
  step(`${CALLS + SMALL_CALLS} credit ledger rows (a usage row per call)`, t);
  t = performance.now();
  await db.execute(sql.raw(callsSql(small.organizationId, smallNumber, 1, SMALL_CALLS, SMALL_CALLS, 365, 50)));
  await db.execute(sql.raw(textsSql(small.organizationId, smallNumber, 1, Math.max(1, SMALL_CALLS / 5), Math.max(1, SMALL_CALLS / 5), 365)));
  await db.execute(
    sql.raw(`
    insert into "call" (id, organization_id, direction, from_number, to_number, status, started_at, duration_seconds, summary, outcome, created_at)
    select o.id || '-c' || g, o.id, 'inbound', '+1555' || lpad(g::text, 7, '0'), '+15550100009', 'completed',
           date_trunc('day', now()) - interval '1 day' + g * interval '1 minute', 60, 'A short call', 'answered_by_assistant', now()
      from organization o, generate_series(1, 50) g
     where o.name like 'Small %'`),
  );
  step(`small organizations' calls`, t);

  // A returning caller with a remembered contact in each measured organization; a new caller has none.
  for (const org of [big.organizationId, small.organizationId]) {
    await db.insert(contacts).values({ id: crypto.randomUUID(), organizationId: org, phone: "+15550000007", name: "Maria" });
  }

  t = performance.now();
  await db.execute(sql`analyze`);
  let days = 0;
  for (;;) {
    const n = await refreshDirtyDays(db, { limit: 500 });
    days += n;
    if (n === 0) break;
  }
  let hours = 0;
  for (;;) {
    const n = await refreshDirtyHours(db, { limit: 500 });
    hours += n;
    if (n === 0) break;
  }
  console.log(`  hourly rollup: ${hours} organization-hours`);
  await db.execute(sql`vacuum analyze`);
  step(`analytics rollup (${days} organization-days) and vacuum`, t);
  const [{ size }] = (await db.execute<{ size: string }>(sql`select pg_size_pretty(pg_database_size(current_database())) as size`)).rows;
  console.log(`  database size: ${size}`);
  // Bytes per row of what grows with traffic (table + its indexes + TOAST), for docs/deploy.md's sizing.
  console.log(`\n| table | rows | total size (table + indexes + TOAST) | bytes per row |`);
  console.log(`|---|---|---|---|`);
  for (const table of ["call", "message", "credit_ledger", "analytics_day", "analytics_hour", "credit_usage_hour", "organization_count"]) {
    const [r] = (
      await db.execute<{ n: string; bytes: string }>(
        sql.raw(`select (select count(*) from "${table}") as n, pg_total_relation_size('"${table}"') as bytes`),
      )
    ).rows;
    const n = Number(r.n);
    const bytes = Number(r.bytes);
    console.log(`| ${table} | ${n} | ${(bytes / 1024 / 1024).toFixed(1)} MB | ${n ? Math.round(bytes / n) : "—"} |`);
  }

  const get = (handler: Handler, path: string, sessionId: string) => async () => {
    const res = await handler(new Request(`http://localhost:3000${path}`, { headers: { authorization: `Bearer ${sessionId}` } }), { params: Promise.resolve({}) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const deepCursor = async (sessionId: string) => {
    let cursor = "";
    for (let i = 0; i < 20; i++) {
      const res = await history(new Request(`http://localhost:3000/api/call-history?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { headers: { authorization: `Bearer ${sessionId}` } }), {
        params: Promise.resolve({}),
      });
      const body = (await res.json()) as { nextCursor: string | null };
      if (!body.nextCursor) break;
      cursor = body.nextCursor;
    }
    return cursor;
  };

  const routes: [string, (o: { sessionId: string; organizationId: string; cursor: string }) => () => Promise<void>][] = [
    ["GET /api/dashboard/stats", (o) => get(dashboard as Handler, "/api/dashboard/stats", o.sessionId)],
    ["GET /api/call-history (first page)", (o) => get(history as Handler, "/api/call-history?limit=25", o.sessionId)],
    ["GET /api/call-history (page 21)", (o) => get(history as Handler, `/api/call-history?limit=25&cursor=${encodeURIComponent(o.cursor)}`, o.sessionId)],
    ["GET /api/analytics?range=24h", (o) => get(analytics as Handler, "/api/analytics?range=24h", o.sessionId)],
    ["GET /api/analytics?range=7d", (o) => get(analytics as Handler, "/api/analytics?range=7d", o.sessionId)],
    ["GET /api/analytics?range=30d", (o) => get(analytics as Handler, "/api/analytics?range=30d", o.sessionId)],
    ["GET /api/analytics?range=90d", (o) => get(analytics as Handler, "/api/analytics?range=90d", o.sessionId)],
    ["GET /api/crm-voice/analytics", (o) => get(crmVoice as Handler, "/api/crm-voice/analytics", o.sessionId)],
    [
      "MCP search_calls (\"insurance\")",
      (o) => async () => {
        await searchCalls(db, o.organizationId, "insurance", 20);
      },
    ],
    [
      "MCP search_calls (rare: \"reference 777\")",
      (o) => async () => {
        await searchCalls(db, o.organizationId, "reference 777", 20);
      },
    ],
    [
      "caller memory: returning caller",
      (o) => async () => {
        await memoryFor(db, o.organizationId, "+15550000007");
      },
    ],
    [
      "caller memory: new caller",
      (o) => async () => {
        await memoryFor(db, o.organizationId, "+19990000000");
      },
    ],
  ];

  const orgs = {
    big: { ...big, cursor: await deepCursor(big.sessionId) },
    small: { ...small, cursor: await deepCursor(small.sessionId) },
  };
  console.log(`\nTiming: big and small interleaved round by round; load average (1 min) ${load()} on ${os.cpus().length} cores at start.`);
  console.log(`\n| route | conns | big p50 | big p95 | small p50 | small p95 | p50 big/small | p95 big/small | samples | load |`);
  console.log(`|---|---|---|---|---|---|---|---|---|---|`);
  const f = (ms: number) => ms.toFixed(1);
  for (const [name, make] of routes) {
    for (const connections of [1, 10]) {
      const { big: bs, small: ss } = await measurePair(connections, RUNS, make(orgs.big), make(orgs.small));
      const b = { p50: percentile(bs, 50), p95: percentile(bs, 95) };
      const s = { p50: percentile(ss, 50), p95: percentile(ss, 95) };
      console.log(
        `| ${name} | ${connections} | ${f(b.p50)} | ${f(b.p95)} | ${f(s.p50)} | ${f(s.p95)} | ${(b.p50 / s.p50).toFixed(2)} | ${(b.p95 / s.p95).toFixed(2)} | ${bs.length} + ${ss.length} | ${load()} |`,
      );
    }
  }

  console.log(`\nPlatform figures (master admin; one platform, ${SMALL_ORGS + 3} organizations):\n`);
  console.log(`| route | conns | p50 | p95 | load |`);
  console.log(`|---|---|---|---|---|`);
  const platform: [string, () => Promise<void>][] = [
    ["GET /api/admin/stats", get(adminStats as Handler, "/api/admin/stats", master.sessionId)],
    ["GET /api/admin/system-stats", get(systemStats as Handler, "/api/admin/system-stats", master.sessionId)],
    ["GET /api/admin/analytics", get(adminAnalytics as Handler, "/api/admin/analytics", master.sessionId)],
    ["GET /api/admin/report", get(report as Handler, "/api/admin/report", master.sessionId)],
  ];
  for (const [name, fn] of platform) {
    for (const connections of [1, 10]) {
      const m = await measure(connections, Math.max(5, Math.round(RUNS / 4)), fn);
      console.log(`| ${name} | ${connections} | ${f(m.p50)} | ${f(m.p95)} | ${load()} |`);
    }
  }
}

main().then(
  // Handles the app opened (speech pools, timers) would keep the process alive.
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
