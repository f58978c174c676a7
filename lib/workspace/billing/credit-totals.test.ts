import { and, eq, inArray, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/platform/database";
import { creditLedger, creditTotals, creditUsageHours, organizations } from "@/db/schema";
import { creditsUsedBetween } from "@/lib/reports/analytics/service";
import { getPlatformStats } from "@/lib/consoles/admin/platform";
import { createOrganization } from "@/lib/identity/organizations/service";
import { changeCredits, spendCredits } from "./ledger";

/**
 * credit_total (migration credit_totals_sql) must always equal a direct sum of the ledger: the master
 * admin's figures read it instead of summing every entry (issue 29).
 */
afterAll(() => closeDb());

type Db = Awaited<ReturnType<typeof getDb>>;
type Row = { organization_id: string; kind: string; category: string; amount: number; units: number; entries: number };

const key = (r: Row) => `${r.organization_id}|${r.kind}|${r.category}`;
const byKey = (rows: Row[]) => Object.fromEntries(rows.map((r) => [key(r), { amount: Number(r.amount), units: Number(r.units), entries: Number(r.entries) }]));

async function directSums(db: Db, orgIds: string[]): Promise<Row[]> {
  const result = await db.execute(sql`
    select organization_id, kind, coalesce(category, '') as category, sum(amount)::bigint as amount, sum(units)::bigint as units, count(*)::bigint as entries
      from ${creditLedger} where organization_id in (${sql.join(orgIds.map((id) => sql`${id}`), sql`, `)})
     group by 1, 2, 3`);
  return (result as unknown as { rows: Row[] }).rows;
}

async function keptTotals(db: Db, orgIds: string[]): Promise<Row[]> {
  const rows = await db.select().from(creditTotals).where(inArray(creditTotals.organizationId, orgIds));
  return rows.map((r) => ({ organization_id: r.organizationId, kind: r.kind, category: r.category, amount: r.amount, units: r.units, entries: r.entries }));
}

/** credit_usage_hour against the ledger's usage rows summed per organization and UTC hour. */
async function expectUsageHoursExact(db: Db, orgIds: string[]) {
  const result = await db.execute(sql`
    select organization_id, date_trunc('hour', created_at, 'UTC') as hour, sum(units)::bigint as units
      from ${creditLedger} where kind = 'usage' and organization_id in (${sql.join(orgIds.map((id) => sql`${id}`), sql`, `)})
     group by 1, 2`);
  const direct = (result as unknown as { rows: { organization_id: string; hour: string | Date; units: number }[] }).rows;
  const kept = await db.select().from(creditUsageHours).where(inArray(creditUsageHours.organizationId, orgIds));
  const asMap = (rows: { org: string; hour: string | Date; units: number }[]) =>
    Object.fromEntries(rows.filter((r) => Number(r.units) !== 0).map((r) => [`${r.org}|${new Date(r.hour).toISOString()}`, Number(r.units)]));
  expect(asMap(kept.map((r) => ({ org: r.organizationId, hour: r.hour, units: r.units })))).toEqual(
    asMap(direct.map((r) => ({ org: r.organization_id, hour: r.hour, units: r.units }))),
  );
}

async function org(db: Db, tier: "free" | "pro" | "enterprise" = "free") {
  return (await createOrganization(db, { name: `Totals ${Math.random()}`, tier })).id;
}

describe("credit totals kept as the ledger is written", () => {
  it("equal a direct sum of the ledger after grants, purchases, spends, refunds and adjustments", async () => {
    const db = await getDb();
    const a = await org(db);
    const b = await org(db, "enterprise");
    await changeCredits(db, a, "grant", 500, { reason: "welcome" });
    await changeCredits(db, a, "purchase", 1000, { reason: "pack", reference: "pay_1" });
    await changeCredits(db, a, "purchase", 1000, { reason: "pack again (webhook retried)", reference: "pay_1" }); // ignored
    await spendCredits(db, a, 7, { reason: "call", category: "voice_processing" });
    await spendCredits(db, a, 2, { reason: "text", category: "sms" });
    await spendCredits(db, a, 3, { reason: "no category" });
    await changeCredits(db, a, "refund", 7, { reason: "dropped call", reference: "call-1" });
    await changeCredits(db, a, "adjustment", -40, { reason: "admin correction" });
    await expect(changeCredits(db, a, "adjustment", -1_000_000, { reason: "too much" })).rejects.toMatchObject({ status: 402 }); // rolled back
    await spendCredits(db, b, 11, { reason: "unlimited call", category: "voice_processing" }); // Enterprise: amount 0, units 11

    const kept = byKey(await keptTotals(db, [a, b]));
    expect(kept).toEqual(byKey(await directSums(db, [a, b])));
    // What the figures mean, spelled out for the first organization.
    expect(kept[`${a}|usage|voice_processing`]).toEqual({ amount: -7, units: 7, entries: 1 });
    expect(kept[`${a}|usage|`]).toEqual({ amount: -3, units: 3, entries: 1 });
    expect(kept[`${a}|purchase|`]).toEqual({ amount: 1000, units: 0, entries: 1 });
    expect(kept[`${a}|adjustment|`]).toEqual({ amount: -40, units: 0, entries: 1 });
    expect(kept[`${b}|usage|voice_processing`]).toEqual({ amount: 0, units: 11, entries: 1 });
    await expectUsageHoursExact(db, [a, b]);
  });

  it("stay exact under concurrent spends, refunds and grants of two organizations", async () => {
    const db = await getDb();
    const a = await org(db);
    const b = await org(db);
    await changeCredits(db, a, "grant", 60, { reason: "start" });
    await changeCredits(db, b, "grant", 25, { reason: "start" });
    const categories = ["voice_processing", "sms", "call_routing", "ai_analysis"] as const;
    const writes = Array.from({ length: 80 }, (_, i) => {
      const target = i % 2 ? a : b;
      if (i % 10 === 3) return changeCredits(db, target, "refund", 1, { reason: "credit back", reference: `call-${i}` });
      if (i % 10 === 7) return changeCredits(db, target, "grant", 2, { reason: "bonus" });
      return spendCredits(db, target, 1 + (i % 3), { reason: "turn", category: categories[i % 4] });
    });
    const results = await Promise.allSettled(writes);
    // Some spends of the smaller balance are refused (402): their rows and totals must not exist.
    expect(results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason?.status === 402)).toBe(true);
    expect(byKey(await keptTotals(db, [a, b]))).toEqual(byKey(await directSums(db, [a, b])));
    await expectUsageHoursExact(db, [a, b]);
    // The balance is the sum of every change.
    for (const id of [a, b]) {
      const [o] = await db.select({ balance: organizations.creditBalance }).from(organizations).where(eq(organizations.id, id));
      const kept = await keptTotals(db, [id]);
      expect(kept.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(o.balance);
    }
  });

  it("go away with the ledger rows they counted", async () => {
    const db = await getDb();
    const a = await org(db);
    await changeCredits(db, a, "grant", 10, { reason: "start" });
    await spendCredits(db, a, 4, { reason: "turn", category: "sms" });
    await db.delete(creditLedger).where(and(eq(creditLedger.kind, "usage"), eq(creditLedger.organizationId, a)));
    expect(byKey(await keptTotals(db, [a]))).toEqual(byKey(await directSums(db, [a])));
    await expectUsageHoursExact(db, [a]);
    await db.delete(organizations).where(eq(organizations.id, a));
    expect(await keptTotals(db, [a])).toEqual([]);
  });

  it("give the master admin's credit figures the ledger's own sums", async () => {
    const db = await getDb();
    const a = await org(db);
    await changeCredits(db, a, "grant", 100, { reason: "start" });
    await spendCredits(db, a, 5, { reason: "call", category: "ai_analysis" });
    const stats = await getPlatformStats(db);
    const result = await db.execute(sql`
      select coalesce(category, 'other') as category, sum(units)::bigint as units from ${creditLedger} where kind = 'usage' group by 1`);
    const direct = (result as unknown as { rows: { category: string; units: number }[] }).rows;
    // Credits used is one figure everywhere (lib/reports/figures): spent less what was given back.
    const back = await db.execute(sql`select coalesce(sum(amount), 0)::bigint as back from ${creditLedger} where kind = 'refund'`);
    const givenBack = Number((back as unknown as { rows: { back: number }[] }).rows[0].back);
    expect(stats.totalCreditsUsed).toBe(direct.reduce((sum, r) => sum + Number(r.units), 0) - givenBack);
    for (const r of direct) expect(stats.creditUsage.find((c) => c.category === r.category)?.credits).toBe(Number(r.units));
  });

  it("give analytics the credits used in any range: whole hours kept, partial hours from the ledger", async () => {
    const db = await getDb();
    const a = await org(db);
    const other = await org(db);
    const now = Date.now();
    const HOUR = 3_600_000;
    // Usage over the last three days at odd minutes (and another organization's, which must not count).
    const rows = Array.from({ length: 90 }, (_, i) => ({
      id: crypto.randomUUID(),
      organizationId: i % 10 === 9 ? other : a,
      kind: "usage" as const,
      amount: -(1 + (i % 4)),
      units: 1 + (i % 4),
      category: "voice_processing" as const,
      balanceAfter: 0,
      reason: "turn",
      createdAt: new Date(now - i * 47 * 60_000 - 13_000),
    }));
    await db.insert(creditLedger).values(rows);
    await expectUsageHoursExact(db, [a, other]);
    const direct = (from: number, to: number) =>
      rows.filter((r) => r.organizationId === a && r.createdAt.getTime() >= from && r.createdAt.getTime() < to).reduce((n, r) => n + r.units, 0);
    const ranges: [number, number][] = [
      [now - 24 * HOUR, now],
      [now - 72 * HOUR, now - 24 * HOUR],
      [now - 30 * 24 * HOUR, now],
      [now - 25 * 60_000, now], // inside one hour
      [Math.floor(now / HOUR) * HOUR - 5 * HOUR, Math.floor(now / HOUR) * HOUR], // whole hours only
    ];
    for (const [from, to] of ranges) {
      expect(await creditsUsedBetween(db, { organizationId: a }, new Date(from), new Date(to))).toBe(direct(from, to));
    }
    expect(direct(now - 72 * HOUR, now)).toBeGreaterThan(0);
  });
});
