import { and, eq } from "drizzle-orm";
import { GET as overview } from "@/app/api/billing/overview/route";
import { POST as upgradePlan } from "@/app/api/billing/upgrade-plan/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { creditLedger, organizations, payments } from "@/db/schema";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());
jest.setTimeout(60_000);

/** Issue 30: upgrades prorate, downgrades wait for renewal, a period's credits are granted once. */

async function state(account: TestAccount) {
  const db = await getDb();
  const [org] = await db.select().from(organizations).where(eq(organizations.id, account.organizationId));
  const paid = await db.select().from(payments).where(and(eq(payments.organizationId, account.organizationId), eq(payments.status, "paid")));
  const grants = await db.select().from(creditLedger).where(and(eq(creditLedger.organizationId, account.organizationId), eq(creditLedger.kind, "grant")));
  return { org, paid, grants, charged: paid.reduce((sum, p) => sum + p.amountCents, 0) };
}

const change = (account: TestAccount, planId: string) => call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId: account.sessionId, body: { planId } });

describe("plan changes during a paid period (test mode)", () => {
  it("Pro → Enterprise charges the prorated difference; back to Pro in the same minute charges and grants nothing", async () => {
    const account = await registerTestUser();
    expect((await change(account, "pro")).status).toBe(200);
    const onPro = await state(account);
    expect(onPro.charged).toBe(4900);

    const up = await change(account, "enterprise");
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ success: true, plan: "enterprise", prorated: true, testMode: true });
    // A whole period was left: almost all of $199 − $49 (a few seconds went by).
    expect(up.body.amountCents).toBeGreaterThan(14_990);
    expect(up.body.amountCents).toBeLessThanOrEqual(15_000);
    const onEnterprise = await state(account);
    expect(onEnterprise.org.subscriptionTier).toBe("enterprise");
    expect(onEnterprise.charged).toBe(4900 + up.body.amountCents);
    // The period did not restart: the upgrade is for the rest of it.
    expect(onEnterprise.org.currentPeriodStart.getTime()).toBe(onPro.org.currentPeriodStart.getTime());

    const down = await change(account, "pro");
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ plan: "enterprise", scheduledPlan: "pro", effectiveAt: onPro.org.currentPeriodEnd.toISOString() });
    const after = await state(account);
    expect(after.charged).toBe(onEnterprise.charged);
    expect(after.grants).toHaveLength(onEnterprise.grants.length);
    expect(after.org.creditBalance).toBe(onEnterprise.org.creditBalance);
    expect(after.org).toMatchObject({ subscriptionTier: "enterprise", scheduledTier: "pro" });

    // Enterprise again before renewal: the downgrade is cancelled, nothing charged.
    const keep = await change(account, "enterprise");
    expect(keep.body).toMatchObject({ plan: "enterprise", scheduledPlan: null });
    expect((await state(account)).charged).toBe(onEnterprise.charged);
  });

  it("Pro → Free → Pro in the same period grants the 1,000 credits once and charges once", async () => {
    const account = await registerTestUser();
    await change(account, "pro");
    const first = await state(account);
    await change(account, "free");
    const again = await change(account, "pro");
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ plan: "pro", scheduledPlan: null });
    const after = await state(account);
    expect(after.org.creditBalance).toBe(first.org.creditBalance);
    expect(after.charged).toBe(first.charged);
    expect(after.grants).toHaveLength(first.grants.length);
  });

  it("a scheduled downgrade applies at renewal with the new plan's credits, once", async () => {
    const account = await registerTestUser();
    await change(account, "pro");
    await change(account, "enterprise");
    await change(account, "pro");
    const db = await getDb();
    await db.update(organizations).set({ currentPeriodEnd: new Date(Date.now() - 1000) }).where(eq(organizations.id, account.organizationId));
    const before = await state(account);
    const view = await call(overview, "GET", "/api/billing/overview", { sessionId: account.sessionId });
    expect(view.body).toMatchObject({ plan: { id: "pro" }, scheduledPlan: null });
    await call(overview, "GET", "/api/billing/overview", { sessionId: account.sessionId });
    const after = await state(account);
    expect(after.org.subscriptionTier).toBe("pro");
    expect(after.org.creditBalance).toBe(before.org.creditBalance + 1000);
    expect(after.grants).toHaveLength(before.grants.length + 1);
    expect(after.charged).toBe(before.charged);
  });
});
