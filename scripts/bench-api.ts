// npm run bench:api — times the call-history API on a fresh in-memory PGlite holding an
// organization with 100,000 calls (and 20,000 texts), beside a second organization with its own rows.
// Prints p50/p95/max per case, for the service function and for the route handler (session included).
// Then the analytics API: GET /api/analytics?range=90d for a third organization holding 100,000 calls
// (and 20,000 assistant replies) inside the last 90 days. BENCH_ONLY=analytics skips the call-history cases.
// Record the output in docs/benchmarks.md.
import { percentile, registerBenchAccount } from "./bench-support";

const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const OTHER_ORG_CALLS = 20_000;
const BATCH = 2_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const ANALYTICS_CALLS = Number(process.env.BENCH_ANALYTICS_CALLS ?? 100_000);
const ANALYTICS_REPLIES = 20_000;
const ONLY = process.env.BENCH_ONLY ?? "";

type Stats = { p50: number; p95: number; max: number };

function summarize(samples: number[]): Stats {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), max: Math.max(...samples) };
}

async function time(runs: number, fn: () => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < 3; i++) await fn(); // warm up
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

async function main() {
  const { sql } = await import("drizzle-orm");
  const { closeDb, getDbHandle } = await import("@/lib/platform/database");
  const { phoneNumbers } = await import("@/db/schema");
  const { createOrganization } = await import("@/lib/identity/organizations/service");
  const { listHistory } = await import("@/lib/receptionist/call-history/service");
  const { historyQuery } = await import("@/lib/receptionist/call-history/schema");
  const { POST: register } = await import("@/app/api/auth/register/route");
  const { GET: historyRoute } = await import("@/app/api/call-history/route");

  const { db, driver } = await getDbHandle();
  if (driver !== "pglite") throw new Error("bench:api measures embedded PGlite");

  const account = await registerBenchAccount(register);
  const org = account.organizationId;
  const other = (await createOrganization(db, { name: "Other org" })).id;

  const numberIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = crypto.randomUUID();
    numberIds.push(id);
    await db.insert(phoneNumbers).values({ id, organizationId: org, phoneNumber: `+1555010000${i}`, friendlyName: `Line ${i + 1}` });
  }

  const started = performance.now();
  // Calls spread over the last 365 days; ~10% voicemail, ~8% missed, ~5% spam, ~20% outbound.
  async function insertCalls(organizationId: string, total: number, numbers: string[]) {
    for (let offset = 0; offset < total; offset += BATCH) {
      const n = Math.min(BATCH, total - offset);
      await db.execute(sql`
        insert into "call" (id, organization_id, phone_number_id, direction, from_number, to_number, caller_name,
          status, started_at, ended_at, duration_seconds, transcript, summary, sentiment, is_spam)
        select gen_random_uuid()::text, ${organizationId},
          (${sql.raw(numbers.length ? `array[${numbers.map((id) => `'${id}'`).join(",")}]` : "array[null]::text[]")})[1 + (g % ${Math.max(numbers.length, 1)})],
          case when g % 5 = 0 then 'outbound' else 'inbound' end,
          '+1503555' || lpad((g % 10000)::text, 4, '0'), '+15550100000', 'Caller ' || (g % 500),
          case when g % 10 = 3 then 'voicemail' when g % 12 = 1 then 'missed' else 'completed' end,
          now() - (random() * interval '365 days'), now(), (g % 600),
          jsonb_build_array(jsonb_build_object('speaker', 'caller', 'text', 'Hello, I would like to book a cleaning.', 'at', now())),
          'Caller asked to book a cleaning; offered Tuesday 10 AM.',
          case g % 3 when 0 then 'positive' when 1 then 'neutral' else 'negative' end,
          g % 20 = 7
        from generate_series(${offset + 1}::int, ${offset + n}::int) as g`);
    }
  }
  if (ONLY !== "analytics") {
    await insertCalls(org, CALLS, numberIds);
    await insertCalls(other, OTHER_ORG_CALLS, []);
  }
  for (let offset = 0; offset < (ONLY === "analytics" ? 0 : MESSAGES); offset += BATCH) {
    const n = Math.min(BATCH, MESSAGES - offset);
    await db.execute(sql`
      insert into "message" (id, organization_id, phone_number_id, direction, from_number, to_number, body, status, is_spam, created_at)
      select gen_random_uuid()::text, ${org}, ${numberIds[0]},
        case when g % 2 = 0 then 'outbound' else 'inbound' end, '+15035550199', '+15550100000',
        'Can I move my appointment to Friday?', case when g % 2 = 0 then 'delivered' else 'received' end,
        g % 25 = 3, now() - (random() * interval '365 days')
      from generate_series(${offset + 1}::int, ${offset + n}::int) as g`);
  }
  await db.execute(sql`analyze "call"`);
  await db.execute(sql`analyze "message"`);
  const loadMs = performance.now() - started;

  const parse = (query: Record<string, string>) => historyQuery.parse(query);
  const first = await listHistory(db, org, parse({}));
  if (ONLY !== "analytics" && (first.items.length !== 25 || !first.nextCursor)) throw new Error("expected a full first page");
  const cursor = first.nextCursor ?? "";

  const cases: [string, Record<string, string>][] = [
    ["first page (all kinds, 25)", {}],
    ["page 2 via cursor", { cursor }],
    ["filtered: inbound voicemails on one number", { type: "voicemail", direction: "inbound", phoneNumberId: numberIds[1] }],
    ["filtered: spam only, last 30 days", { spam: "true", from: new Date(Date.now() - 30 * 86_400_000).toISOString() }],
    ["filtered: calls, status missed", { type: "call", status: "missed" }],
    ["filtered: a number with no calls", { phoneNumberId: "no-such-number" }],
  ];

  console.log(`bench:api — call history on embedded PGlite (${driver}), Node ${process.version}, ${RUNS} runs per case`);
  if (ONLY !== "analytics") console.log(
    `data: ${CALLS.toLocaleString("en-US")} calls + ${MESSAGES.toLocaleString("en-US")} texts in the measured organization, ` +
      `${OTHER_ORG_CALLS.toLocaleString("en-US")} calls in another; loaded in ${(loadMs / 1000).toFixed(1)} s`,
  );
  console.log("");
  console.log("| case | via | p50 ms | p95 ms | max ms |");
  console.log("|---|---|---|---|---|");
  const row = (name: string, via: string, s: Stats) =>
    console.log(`| ${name} | ${via} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} |`);

  for (const [name, query] of ONLY === "analytics" ? [] : cases) {
    const parsed = parse(query);
    row(name, "service", await time(RUNS, () => listHistory(db, org, parsed)));
    const qs = new URLSearchParams(query).toString();
    row(
      name,
      "route",
      await time(RUNS, async () => {
        const out = await historyRoute(
          new Request(`http://localhost:3000/api/call-history${qs ? `?${qs}` : ""}`, {
            headers: { authorization: `Bearer ${account.sessionId}` },
          }),
          { params: Promise.resolve({}) },
        );
        if (out.status !== 200) throw new Error(`route answered ${out.status}: ${await out.text()}`);
        await out.json();
      }),
    );
  }

  await benchAnalytics(RUNS, row);

  if (process.env.BENCH_EXPLAIN === "1") {
    for (const statement of [
      sql`explain analyze select id from "call" where organization_id = ${org} order by started_at desc, id desc limit 26`,
      sql`explain analyze select id from "call" where organization_id = ${org}
        and (started_at, id) < (now() - interval '1 day', 'zzzz') order by started_at desc, id desc limit 26`,
      sql`explain analyze select id from "call" where organization_id = ${org} and status = 'voicemail' and direction = 'inbound'
        and phone_number_id = ${numberIds[1]} order by started_at desc, id desc limit 26`,
    ]) {
      const plan = await db.execute(statement);
      console.log(plan.rows.map((r) => Object.values(r as Record<string, unknown>)[0]).join("\n"));
    }
  }
  await closeDb();
}

/** GET /api/analytics?range=90d for an organization with ANALYTICS_CALLS calls inside the last 90 days. */
async function benchAnalytics(runs: number, row: (name: string, via: string, s: Stats) => void) {
  const { sql } = await import("drizzle-orm");
  const { getDbHandle } = await import("@/lib/platform/database");
  const { getAnalytics } = await import("@/lib/reports/analytics/service");
  const { refreshDirtyDays } = await import("@/lib/reports/analytics/rollup");
  const { POST: register } = await import("@/app/api/auth/register/route");
  const { GET: analyticsRoute } = await import("@/app/api/analytics/route");
  const { db } = await getDbHandle();
  const account = await registerBenchAccount(register, "bench-analytics");
  const org = account.organizationId;
  const started = performance.now();
  // Outcomes ~70% answered, 10% transferred, 8% voicemail, 7% missed, 5% failed; a failure class on ~6%;
  // five area codes and 10% international; sentiment 1–5; six intents.
  for (let offset = 0; offset < ANALYTICS_CALLS; offset += BATCH) {
    const n = Math.min(BATCH, ANALYTICS_CALLS - offset);
    await db.execute(sql`
      insert into "call" (id, organization_id, direction, from_number, to_number, status, outcome, failure_class,
        started_at, duration_seconds, sentiment, sentiment_score, intent)
      select gen_random_uuid()::text, ${org},
        case when g % 5 = 0 then 'outbound' else 'inbound' end,
        case when g % 10 = 9 then '+44207946' || lpad((g % 1000)::text, 4, '0')
             else '+1' || (array['415','212','312','713','416'])[1 + g % 5] || '555' || lpad((g % 10000)::text, 4, '0') end,
        '+15550100000',
        case when g % 100 < 88 then 'completed' when g % 100 < 95 then 'missed' else 'failed' end,
        case when g % 100 < 70 then 'answered_by_assistant' when g % 100 < 80 then 'transferred' when g % 100 < 88 then 'voicemail'
             when g % 100 < 95 then 'missed' else 'failed' end,
        case when g % 50 = 1 then 'timeout' when g % 50 = 2 then 'processing' when g % 100 = 3 then 'authentication' end,
        now() - (random() * interval '90 days'), g % 600,
        case when g % 5 >= 3 then 'positive' when g % 5 = 2 then 'neutral' else 'negative' end, 1 + g % 5,
        (array['hours','pricing','appointment','order','complaint','other'])[1 + g % 6]
      from generate_series(${offset + 1}::int, ${offset + n}::int) as g`);
  }
  for (let offset = 0; offset < ANALYTICS_REPLIES; offset += BATCH) {
    const n = Math.min(BATCH, ANALYTICS_REPLIES - offset);
    await db.execute(sql`
      insert into "assistant_reply" (id, organization_id, source, input_text, reply_text, llm_provider, llm_total_ms, total_ms, created_at)
      select gen_random_uuid()::text, ${org}, 'call', 'q', 'a', 'local', 200 + g % 4000, 200 + g % 4000, now() - (random() * interval '90 days')
      from generate_series(${offset + 1}::int, ${offset + n}::int) as g`);
  }
  await db.execute(sql`analyze "call"`);
  await db.execute(sql`analyze "assistant_reply"`);
  console.log("");
  console.log(
    `analytics: ${ANALYTICS_CALLS.toLocaleString("en-US")} calls and ${ANALYTICS_REPLIES.toLocaleString("en-US")} replies in the last 90 days of one organization; loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const check = await getAnalytics(db, { organizationId: org }, "90d");
  if (check.overview.totalCalls < ANALYTICS_CALLS * 0.99) throw new Error(`expected ~${ANALYTICS_CALLS} calls in range, got ${check.overview.totalCalls}`);
  // Before the rollup job has run every day is dirty and read live: the floor this work is measured against.
  row("analytics 90d, every day live (before the rollup job)", "service", await time(Math.min(runs, 5), () => getAnalytics(db, { organizationId: org }, "90d")));
  const rollupStarted = performance.now();
  const days = await refreshDirtyDays(db, { organizationId: org, limit: 1000 });
  console.log(`analytics.rollup: ${days} days rolled up in ${((performance.now() - rollupStarted) / 1000).toFixed(1)} s`);
  const rolled = await getAnalytics(db, { organizationId: org }, "90d", {}, new Date(check.to));
  if (JSON.stringify(rolled) !== JSON.stringify(check)) throw new Error("the rollup's figures differ from the live scan's");
  row("analytics 90d (100,000 calls)", "service", await time(runs, () => getAnalytics(db, { organizationId: org }, "90d")));
  row(
    "analytics 90d (100,000 calls)",
    "route",
    await time(runs, async () => {
      const out = await analyticsRoute(new Request("http://localhost:3000/api/analytics?range=90d", { headers: { authorization: `Bearer ${account.sessionId}` } }), {
        params: Promise.resolve({}),
      });
      if (out.status !== 200) throw new Error(`route answered ${out.status}: ${await out.text()}`);
      await out.json();
    }),
  );
  row("analytics 7d", "service", await time(runs, () => getAnalytics(db, { organizationId: org }, "7d")));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
