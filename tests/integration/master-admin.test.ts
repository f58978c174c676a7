import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { GET as reportRoute } from "@/app/api/admin/report/route";
import { GET as systemStatsRoute } from "@/app/api/admin/system-stats/route";
import { PUT as updateUserRoute } from "@/app/api/admin/users/[id]/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { calls, creditLedger, messages, organizations, payments, users } from "@/db/schema";
import { getPlatformStats } from "@/lib/consoles/admin/platform";
import { getAnalytics as getAdminAnalytics, listOrganizations } from "@/lib/consoles/admin/service";
import { refreshDirtyDays, refreshDirtyHours } from "@/lib/reports/analytics/rollup";
import { spendCredits } from "@/lib/workspace/billing/ledger";
import { registerTestUser } from "../helpers/accounts";
import { call, uniqueSuffix } from "../helpers/http";

beforeAll(() => getDb(), 120_000);
afterAll(() => closeDb());

async function withRole(role: "admin" | "master_admin") {
  const account = await registerTestUser();
  const db = await getDb();
  await db.update(users).set({ role }).where(eq(users.id, account.id));
  return account;
}

describe("master admin figures", () => {
  it("system-stats keeps its fields and adds the platform totals; individuals get 403 from it and from the report", async () => {
    const individual = await registerTestUser();
    expect((await call(systemStatsRoute, "GET", "/api/admin/system-stats", { sessionId: individual.sessionId })).status).toBe(403);
    expect((await call(reportRoute, "GET", "/api/admin/report", { sessionId: individual.sessionId })).status).toBe(403);
    const admin = await withRole("admin");
    expect((await call(reportRoute, "GET", "/api/admin/report", { sessionId: admin.sessionId })).status).toBe(403); // master only
    const master = await withRole("master_admin");
    const res = await call(systemStatsRoute, "GET", "/api/admin/system-stats", { sessionId: master.sessionId });
    expect(res.status).toBe(200);
    const db = await getDb();
    const [orgCount, userCount] = [await db.$count(organizations), await db.$count(users)];
    expect(res.body).toMatchObject({ totalUsers: userCount, totalOrganizations: orgCount, counts: { users: userCount, organizations: orgCount } });
    expect(res.body.database).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
    expect(res.body.configuration.jobRunner.healthCheckEverySeconds).toBe(60);
    expect(JSON.stringify(res.body)).not.toMatch(/secret|password|apiKey/i);
    const csv = await call(reportRoute, "GET", "/api/admin/report", { sessionId: master.sessionId });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.text).toContain(`totalUsers,${userCount}\r\n`);
    expect(csv.text).toContain(`totalOrganizations,${orgCount}\r\n`);
  });

  it("growth compares the last 30 days with the 30 before; credit usage splits by ledger category; plans and MRR from subscriptions", async () => {
    const db = await getDb();
    const before = await getPlatformStats(db);
    const a = await registerTestUser();
    const b = await registerTestUser();
    await db.update(organizations).set({ subscriptionTier: "pro", subscriptionStatus: "active" }).where(eq(organizations.id, a.organizationId));
    await db.update(organizations).set({ subscriptionTier: "enterprise", subscriptionStatus: "past_due" }).where(eq(organizations.id, b.organizationId));
    await spendCredits(db, a.organizationId, 3, { reason: "t", category: "voice_processing" });
    await spendCredits(db, a.organizationId, 1, { reason: "t", category: "sms" });
    const after = await getPlatformStats(db);
    const delta = (k: string) => after.creditUsage.find((c) => c.category === k)!.credits - before.creditUsage.find((c) => c.category === k)!.credits;
    expect([delta("voice_processing"), delta("sms"), delta("call_routing"), delta("ai_analysis")]).toEqual([3, 1, 0, 0]);
    expect(after.totalCreditsUsed - before.totalCreditsUsed).toBe(4);
    expect(after.activeSubscriptions - before.activeSubscriptions).toBe(1); // past_due Enterprise is not active
    expect(after.monthlyRecurringRevenue - before.monthlyRecurringRevenue).toBe(49);
    const sum = after.subscriptions.reduce((s, p) => s + p.organizations, 0);
    expect(sum).toBe(after.totalOrganizations);

    // Growth, in a window of its own (the year 2093) so nothing else is in it: 3 calls now vs 2 before; 1 message vs 0.
    const now = new Date("2093-06-01T00:00:00Z");
    const at = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const base = { organizationId: a.organizationId, direction: "inbound" as const, fromNumber: "+14155550100", toNumber: "+14155550101", status: "completed" as const };
    await db.insert(calls).values([1, 2, 3, 31, 45].map((d) => ({ ...base, id: crypto.randomUUID(), startedAt: at(d) })));
    await db.insert(messages).values({ id: crypto.randomUUID(), organizationId: a.organizationId, direction: "inbound", fromNumber: "+1", toNumber: "+2", body: "x", status: "received", createdAt: at(2) });
    const pay = (cents: number, d: number) => ({ id: crypto.randomUUID(), organizationId: a.organizationId, provider: "simulated" as const, kind: "credit_pack" as const, status: "paid" as const, amountCents: cents, description: "t", invoiceNumber: `T-${uniqueSuffix()}`, paidAt: at(d) });
    await db.insert(payments).values([pay(3000, 5), pay(2000, 40)]);
    const future = await getPlatformStats(db, now);
    expect(future.growth.calls).toEqual({ current: 3, previous: 2, growth: 50 });
    expect(future.growth.messages).toEqual({ current: 1, previous: 0, growth: null });
    expect(future.growth.revenue).toEqual({ current: 30, previous: 20, growth: 50 });
    expect(future.growth.users).toEqual({ current: 0, previous: 0, growth: null });
  });

  it("platform figures come from the rollups and counts with the same numbers as a direct count", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    const org = account.organizationId;
    const DAY = 86_400_000;
    const now = Date.now();
    await db.insert(calls).values(Array.from({ length: 50 }, (_, i) => ({
      id: crypto.randomUUID(), organizationId: org, direction: "inbound" as const, fromNumber: "+14155550100", toNumber: "+14155550199",
      status: "completed" as const, durationSeconds: 30 + i, startedAt: new Date(now - (i * 70 * DAY) / 50 - 60_000),
    })));
    await db.insert(messages).values(Array.from({ length: 20 }, (_, i) => ({
      id: crypto.randomUUID(), organizationId: org, direction: "inbound" as const, fromNumber: "+14155550100", toNumber: "+14155550199", body: "hi", status: "received" as const,
      createdAt: new Date(now - i * 3 * DAY - 60_000),
    })));
    const asOf = new Date();
    const [platformLive, analyticsLive] = [await getPlatformStats(db, asOf), await getAdminAnalytics(db, asOf)];
    await refreshDirtyDays(db, { limit: 100_000 });
    await refreshDirtyHours(db, { limit: 100_000 });
    const [platform, analytics] = [await getPlatformStats(db, asOf), await getAdminAnalytics(db, asOf)];
    expect(platform.growth).toEqual(platformLive.growth);
    expect(analytics).toEqual(analyticsLive);

    const all = await db.select({ startedAt: calls.startedAt, seconds: calls.durationSeconds }).from(calls);
    const between = (from: number, to: number) => all.filter((c) => c.startedAt.getTime() >= from && c.startedAt.getTime() < to);
    const from = asOf.getTime() - 30 * DAY;
    expect(platform.growth.calls).toMatchObject({ current: between(from, asOf.getTime()).length, previous: between(from - 30 * DAY, from).length });
    const texts = await db.select({ createdAt: messages.createdAt }).from(messages);
    expect(platform.growth.messages.current).toBe(texts.filter((t) => t.createdAt.getTime() >= from && t.createdAt.getTime() < asOf.getTime()).length);
    const today = Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), asOf.getUTCDate());
    const fourteen = between(today - 13 * DAY, asOf.getTime() + 1);
    expect(analytics.totalCalls).toBe(fourteen.length);
    expect(analytics.totalMinutes).toBe(Math.round((fourteen.reduce((n, c) => n + (c.seconds ?? 0), 0) / 60) * 10) / 10);
    expect(platform.totalCalls).toBe(all.length);
    expect((await listOrganizations(db)).find((o) => o.id === org)?.calls).toBe(50);
  });

  it("Edit User changes tier and credits; the credit change is one ledger adjustment with the reason", async () => {
    const master = await withRole("master_admin");
    const target = await registerTestUser();
    const params = { id: target.id };
    const s = { sessionId: master.sessionId, params };
    const noReason = await call(updateUserRoute, "PUT", `/api/admin/users/${target.id}`, { ...s, body: { credits: 250 } });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors.creditReason).toBeDefined();
    const res = await call(updateUserRoute, "PUT", `/api/admin/users/${target.id}`, { ...s, body: { firstName: "Ana", subscriptionTier: "pro", credits: 250, creditReason: "Goodwill after an outage" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: "Ana", subscriptionTier: "pro", credits: 250 });
    const db = await getDb();
    const [entry] = await db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, target.organizationId), eq(creditLedger.kind, "adjustment")))
      .orderBy(desc(creditLedger.createdAt));
    expect(entry).toMatchObject({ amount: 150, balanceAfter: 250, reason: "Goodwill after an outage", actorUserId: master.id });
  });
});
