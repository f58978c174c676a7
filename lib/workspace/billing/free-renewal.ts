import "server-only";
import { and, eq, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { organizations } from "@/db/schema";
import { preparedStatement } from "@/lib/platform/database-statements";
import { changeCredits } from "./ledger";
import { getPlan } from "./plans";

function addMonths(date: Date, months: number): Date {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

/**
 * The Free plan's monthly allowance, granted lazily: Free has no payment event to renew on, so
 * when an organization is read after its period ended, the period rolls forward to the one that
 * contains `now` and the month's credits are granted once (idempotent by the period's start).
 * Missed months are not back-filled: the allowance is per active month.
 */
export async function renewFreePeriodIfDue(db: DbOrTx, organizationId: string, now = new Date()) {
  // Read before every spend: planned once (lib/platform/database-statements.ts).
  const statement = preparedStatement(db, "switchboard_organization_period", () =>
    db
      .select({ tier: organizations.subscriptionTier, start: organizations.currentPeriodStart, end: organizations.currentPeriodEnd })
      .from(organizations)
      .where(eq(organizations.id, sql.placeholder("organizationId"))),
  );
  const [org] = await statement.execute({ organizationId });
  if (!org || org.tier !== "free" || org.end > now) return false;
  let start = new Date(org.start);
  let end = new Date(org.end);
  for (let i = 0; end <= now && i < 1200; i++) {
    start = end;
    end = addMonths(end, 1);
  }
  // Only the caller that moves the period grants: a concurrent one finds the period already moved.
  const moved = await db
    .update(organizations)
    .set({ currentPeriodStart: start, currentPeriodEnd: end })
    .where(and(eq(organizations.id, organizationId), lte(organizations.currentPeriodEnd, now), eq(organizations.subscriptionTier, "free")))
    .returning({ id: organizations.id });
  if (moved.length === 0) return false;
  const plan = getPlan("free");
  await changeCredits(db, organizationId, "grant", plan.creditsIncluded, {
    reason: `Monthly credits for the ${plan.name} plan`,
    reference: `free-period:${start.toISOString()}`,
  });
  return true;
}
