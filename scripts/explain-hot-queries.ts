// The query plans behind the hot read routes (docs/benchmarks.md, "HTTP routes"), on a fresh
// in-memory PGlite holding one organization with BENCH_CALLS (100,000) calls and BENCH_MESSAGES
// (20,000) texts: the session lookup, the dashboard's one statement and the call history's first
// page (calls and texts in one statement, their number joined). Run: `npx tsx --conditions=react-server scripts/explain-hot-queries.ts`.
import { registerBenchAccount } from "./bench-support";

const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const BATCH = 5_000;

async function main() {
  const { sql } = await import("drizzle-orm");
  const { closeDb, getDbHandle } = await import("@/lib/platform/database");
  const { phoneNumbers } = await import("@/db/schema");
  const { POST: register } = await import("@/app/api/auth/register/route");
  const { db } = await getDbHandle();
  const account = await registerBenchAccount(register);
  const org = account.organizationId;
  const numberId = crypto.randomUUID();
  await db.insert(phoneNumbers).values({ id: numberId, organizationId: org, phoneNumber: "+15550100009", friendlyName: "Line" });
  for (let offset = 0; offset < CALLS; offset += BATCH) {
    await db.execute(sql`
      insert into "call" (id, organization_id, phone_number_id, direction, from_number, to_number, status, started_at, duration_seconds, is_spam)
      select gen_random_uuid()::text, ${org}, ${numberId}, 'inbound', '+15035550100', '+15550100009',
        case when g % 10 = 3 then 'voicemail' else 'completed' end, now() - (random() * interval '365 days'), g % 600, g % 20 = 7
      from generate_series(${offset + 1}::int, ${offset + Math.min(BATCH, CALLS - offset)}::int) as g`);
  }
  for (let offset = 0; offset < MESSAGES; offset += BATCH) {
    await db.execute(sql`
      insert into "message" (id, organization_id, phone_number_id, direction, from_number, to_number, body, status, is_spam, created_at)
      select gen_random_uuid()::text, ${org}, ${numberId}, 'inbound', '+15035550199', '+15550100009', 'Hi', 'received', false,
        now() - (random() * interval '365 days')
      from generate_series(${offset + 1}::int, ${offset + Math.min(BATCH, MESSAGES - offset)}::int) as g`);
  }
  await db.execute(sql`analyze`);
  const token = account.sessionId.slice(0, account.sessionId.lastIndexOf("."));

  const statements: [string, ReturnType<typeof sql>][] = [
    [
      "session lookup",
      sql`select s.token, s.expires_at, u.id, u.role, u.organization_id, u.status from "session" s
        join "user" u on u.id = s.user_id where s.token = ${token} limit 1`,
    ],
    [
      "dashboard (one statement)",
      sql`select
        (select count(*) from "call" where organization_id = ${org})::int,
        (select count(*) from voice_assistant where organization_id = ${org} and is_active)::int,
        (select count(*) from "message" where organization_id = ${org})::int,
        (select avg(total_ms) from assistant_reply where organization_id = ${org})`,
    ],
    [
      "call history, first page: calls and texts in one statement, the number joined",
      sql`(select c.id, c.started_at, n.phone_number from "call" c
          left join phone_number n on n.id = c.phone_number_id and n.organization_id = c.organization_id
          where c.organization_id = ${org} order by c.started_at desc, c.id desc limit 26)
        union all
        (select m.id, m.created_at, n.phone_number from "message" m
          left join phone_number n on n.id = m.phone_number_id and n.organization_id = m.organization_id
          where m.organization_id = ${org} order by m.created_at desc, m.id desc limit 26)`,
    ],
  ];
  for (const [name, statement] of statements) {
    const plan = await db.execute(sql`explain analyze ${statement}`);
    console.log(`\n-- ${name}\n${plan.rows.map((r) => Object.values(r as Record<string, unknown>)[0]).join("\n")}`);
  }
  await closeDb();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
