// EXPLAIN ANALYZE of every statement getAnalytics runs through db.execute, for one organization of a
// bench:scale database kept with BENCH_KEEP_DB=true (docs/benchmarks.md, "Scale"):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<bench db> RANGE=30d npx tsx --conditions=react-server scripts/explain-analytics.ts
// (ORG_EMAIL picks the organization: bigorg@example.com by default, smallorg@example.com.)
export {}; // a module, so its main() is its own
const RANGE = (process.env.RANGE ?? "7d") as "24h" | "7d" | "30d" | "90d";
async function main() {
  const { sql } = await import("drizzle-orm");
  const { getDbHandle, closeDb } = await import("@/lib/platform/database");
  const { getAnalytics } = await import("@/lib/reports/analytics/service");
  const { db } = await getDbHandle();
  const email = process.env.ORG_EMAIL ?? "bigorg@example.com";
  const r = await db.execute(sql`select organization_id from "user" where email = ${email}`);
  const org = (r as unknown as { rows: { organization_id: string }[] }).rows[0].organization_id;
  const plans: string[] = [];
  const proxy = new Proxy(db, {
    get(target, prop, recv) {
      if (prop === "execute") {
        return async (q: Parameters<typeof db.execute>[0]) => {
          const t = performance.now();
          const res = await target.execute(q);
          const ms = performance.now() - t;
          const p = await target.execute(sql`explain (analyze, buffers) ${q}`);
          const lines = (p as unknown as { rows: Record<string, string>[] }).rows.map((x) => Object.values(x)[0]);
          plans.push(`--- ${ms.toFixed(1)} ms\n` + lines.join("\n"));
          return res;
        };
      }
      return Reflect.get(target, prop, recv);
    },
  });
  for (let i = 0; i < 3; i++) await getAnalytics(db, { organizationId: org }, RANGE);
  const t = performance.now();
  await getAnalytics(db, { organizationId: org }, RANGE);
  console.log(`getAnalytics ${RANGE}: ${(performance.now() - t).toFixed(1)} ms`);
  await getAnalytics(proxy, { organizationId: org }, RANGE);
  console.log(plans.join("\n\n"));
  await closeDb();
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
