import "server-only";
import { and, count, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { calls, creditTotals, messages, organizationCounts, organizations, users } from "@/db/schema";
import { growthOf, percentOf, revenueBetween, type Growth } from "@/lib/reports/analytics/service";
import { rollupTotals, rollupWindow } from "@/lib/reports/analytics/rollup";
import { platformUptime, type Uptime } from "@/lib/reports/analytics/health";
import { getPlan, planIds, type PlanId } from "@/lib/workspace/billing/plans";
import { creditCategories, type CreditCategory } from "@/lib/workspace/billing/prices";
import { getCreditsUsed } from "@/lib/workspace/billing/credits-used";

/**
 * The master admin's platform figures (docs/analytics.md#master-admin): totals over all
 * organizations, growth of the last 30 days against the 30 before, credit usage by ledger category,
 * subscriptions by plan, monthly recurring revenue and uptime from recorded health checks.
 */

export const GROWTH_WINDOW_DAYS = 30;

/** Organizations paying for a plan: Pro or Enterprise with an active subscription. */
const paidActive = and(inArray(organizations.subscriptionTier, ["pro", "enterprise"]), eq(organizations.subscriptionStatus, "active"));

export type PlatformStats = {
  totalUsers: number;
  totalOrganizations: number;
  /** US dollars of every paid payment. */
  totalRevenue: number;
  totalCalls: number;
  totalMessages: number;
  /** lib/reports/figures: credits spent less credits given back, all time. */
  totalCreditsUsed: number;
  /** Sum of the organizations' balances now. */
  totalCreditsRemaining: number;
  /** Organizations on Pro or Enterprise with an active subscription. */
  activeSubscriptions: number;
  growth: { window: { days: number; from: string; previousFrom: string }; users: Growth; revenue: Growth; calls: Growth; messages: Growth };
  creditUsage: { category: CreditCategory | "other"; credits: number; percent: number }[];
  subscriptions: { plan: PlanId; organizations: number; percent: number }[];
  /** US dollars per month: each active paid subscription at its plan's price. */
  monthlyRecurringRevenue: number;
  uptime: Uptime;
};

async function countBetween(db: Db, table: typeof calls | typeof messages | typeof users, column: typeof calls.startedAt | typeof messages.createdAt | typeof users.createdAt, from: Date, to: Date) {
  const [row] = await db.select({ n: count() }).from(table).where(and(gte(column, from), lt(column, to)));
  return row.n;
}

async function rolledUpCount(db: Db, source: "call" | "message", from: Date, to: Date): Promise<number> {
  const rows = await rollupTotals(db, source, null, await rollupWindow(db, null, from, to), "hour");
  return rows.reduce((n, r) => n + r.n, 0);
}

export async function getPlatformStats(db: Db, now = new Date()): Promise<PlatformStats> {
  const from = new Date(now.getTime() - GROWTH_WINDOW_DAYS * 86_400_000);
  const previousFrom = new Date(from.getTime() - GROWTH_WINDOW_DAYS * 86_400_000);
  const platform = { organizationId: null };
  const [
    [u],
    [o],
    [c],
    [m],
    [credits],
    [subs],
    usageRows,
    planRows,
    revenueAll,
    usersNew,
    usersPrev,
    callsNew,
    callsPrev,
    messagesNew,
    messagesPrev,
    revenueNew,
    revenuePrev,
    uptime,
  ] = await Promise.all([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(organizations),
    // Kept as rows change (organization_count): one row per organization, not the platform's history.
    db.select({ n: sql<number>`coalesce(sum(${organizationCounts.calls}), 0)::int` }).from(organizationCounts),
    db.select({ n: sql<number>`coalesce(sum(${organizationCounts.messages}), 0)::int` }).from(organizationCounts),
    db.select({ remaining: sql<string>`coalesce(sum(${organizations.creditBalance}), 0)::bigint::text` }).from(organizations),
    db.select({ n: count() }).from(organizations).where(paidActive),
    // Kept as the ledger is written (credit_total): a few rows per organization, not every ledger entry.
    db
      .select({ category: creditTotals.category, units: sql<string>`coalesce(sum(${creditTotals.units}), 0)::bigint::text` })
      .from(creditTotals)
      .where(eq(creditTotals.kind, "usage"))
      .groupBy(creditTotals.category),
    db
      .select({ plan: organizations.subscriptionTier, n: count(), paying: sql<number>`count(*) filter (where ${paidActive})::int` })
      .from(organizations)
      .groupBy(organizations.subscriptionTier),
    revenueBetween(db, platform, null, null),
    countBetween(db, users, users.createdAt, from, now),
    countBetween(db, users, users.createdAt, previousFrom, from),
    // Calls and texts of the growth windows from the daily rollup (whole clean days; edges and dirty days live).
    rolledUpCount(db, "call", from, now),
    rolledUpCount(db, "call", previousFrom, from),
    rolledUpCount(db, "message", from, now),
    rolledUpCount(db, "message", previousFrom, from),
    revenueBetween(db, platform, from, now),
    revenueBetween(db, platform, previousFrom, from),
    platformUptime(db, now),
  ]);
  const { used: creditsUsedAll } = await getCreditsUsed(db, null, null, null);

  const usage = new Map(usageRows.map((r) => [r.category || "other", Number(r.units)]));
  const usedTotal = [...usage.values()].reduce((a, b) => a + b, 0);
  const categories: (CreditCategory | "other")[] = [...creditCategories, ...(usage.has("other") ? (["other"] as const) : [])];
  const plans = new Map(planRows.map((r) => [r.plan, r]));
  const orgTotal = o.n;

  return {
    totalUsers: u.n,
    totalOrganizations: o.n,
    totalRevenue: revenueAll,
    totalCalls: c.n,
    totalMessages: m.n,
    totalCreditsUsed: creditsUsedAll,
    totalCreditsRemaining: Number(credits.remaining),
    activeSubscriptions: subs.n,
    growth: {
      window: { days: GROWTH_WINDOW_DAYS, from: from.toISOString(), previousFrom: previousFrom.toISOString() },
      users: growthOf(usersNew, usersPrev),
      revenue: growthOf(revenueNew, revenuePrev),
      calls: growthOf(callsNew, callsPrev),
      messages: growthOf(messagesNew, messagesPrev),
    },
    creditUsage: categories.map((category) => ({ category, credits: usage.get(category) ?? 0, percent: percentOf(usage.get(category) ?? 0, usedTotal) ?? 0 })),
    subscriptions: planIds.map((plan) => ({ plan, organizations: plans.get(plan)?.n ?? 0, percent: percentOf(plans.get(plan)?.n ?? 0, orgTotal) ?? 0 })),
    monthlyRecurringRevenue: planIds.reduce((sum, plan) => sum + (plans.get(plan)?.paying ?? 0) * getPlan(plan).price, 0),
    uptime,
  };
}
