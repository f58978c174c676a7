/**
 * Issue 26 §11: ten simultaneous Free→Pro upgrades (test mode, settled at once) make one plan
 * change and grant the plan's credits once, on PGlite and on PostgreSQL.
 */
import { and, eq } from "drizzle-orm";
import { POST as upgradePlan } from "@/app/api/billing/upgrade-plan/route";
import { creditLedger, payments } from "@/db/schema";
import { getCreditBalance } from "@/lib/workspace/billing/ledger";
import { getPlan } from "@/lib/workspace/billing/plans";
import { closeDb, getDb } from "@/lib/platform/database";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";

jest.setTimeout(120_000);
afterAll(() => closeDb());

it("grants the plan's credits once for 10 simultaneous upgrades", async () => {
  const account = await registerTestUser();
  const db = await getDb();
  const before = await getCreditBalance(db, account.organizationId);
  const results = await Promise.all(
    Array.from({ length: 10 }, () => call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId: account.sessionId, body: { planId: "pro" } })),
  );
  const statuses = results.map((r) => r.status).sort();
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.every((s) => s === 200 || s === 400 || s === 409)).toBe(true);
  expect(await getCreditBalance(db, account.organizationId)).toBe(before + getPlan("pro").creditsIncluded);
  const grants = await db.select().from(creditLedger).where(and(eq(creditLedger.organizationId, account.organizationId), eq(creditLedger.kind, "grant")));
  expect(grants.filter((g) => g.reason === "Pro plan: 1 month")).toHaveLength(1);
  const paid = await db.select().from(payments).where(and(eq(payments.organizationId, account.organizationId), eq(payments.status, "paid")));
  expect(paid).toHaveLength(1);
  // Once it is done, the next change goes through as usual.
  expect((await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId: account.sessionId, body: { planId: "free" } })).status).toBe(200);
});
