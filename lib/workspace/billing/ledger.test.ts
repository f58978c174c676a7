import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/platform/database";
import { creditLedger, organizations } from "@/db/schema";
import { HttpError } from "@/lib/platform/http/errors";
import { createOrganization } from "@/lib/identity/organizations/service";
import { changeCredits, getCreditBalance, spendCredits } from "./ledger";

afterAll(() => closeDb());

async function orgWith(balance: number, tier: "free" | "pro" | "enterprise" = "free") {
  const db = await getDb();
  const org = await createOrganization(db, { name: `Ledger ${Math.random()}`, tier });
  if (balance) await changeCredits(db, org.id, "grant", balance, { reason: "test grant" });
  return org.id;
}

describe("credit ledger", () => {
  it("records every change with the balance after it", async () => {
    const db = await getDb();
    const orgId = await orgWith(100);
    await spendCredits(db, orgId, 3, { reason: "voice test" });
    await changeCredits(db, orgId, "adjustment", -7, { reason: "admin correction" });
    const rows = await db.select().from(creditLedger).where(eq(creditLedger.organizationId, orgId)).orderBy(creditLedger.createdAt);
    expect(rows.map((r) => [r.kind, r.amount, r.balanceAfter])).toEqual([
      ["grant", 100, 100],
      ["usage", -3, 97],
      ["adjustment", -7, 90],
    ]);
    expect(await getCreditBalance(db, orgId)).toBe(90);
  });

  it("never overdraws: 50 parallel spends against 10 credits succeed exactly 10 times", async () => {
    const db = await getDb();
    const orgId = await orgWith(10);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => spendCredits(db, orgId, 1, { reason: "race" })));
    const ok = results.filter((r) => r.status === "fulfilled").length;
    expect(ok).toBe(10);
    for (const r of results) if (r.status === "rejected") expect((r.reason as HttpError).status).toBe(402);
    expect(await getCreditBalance(db, orgId)).toBe(0);
    const usage = await db.select().from(creditLedger).where(eq(creditLedger.organizationId, orgId));
    expect(usage.filter((r) => r.kind === "usage")).toHaveLength(10);
  });

  it("answers 402 with how to buy credits when the balance is short", async () => {
    const db = await getDb();
    const orgId = await orgWith(0);
    await expect(spendCredits(db, orgId, 1, { reason: "x" })).rejects.toMatchObject({ status: 402, message: expect.stringMatching(/Buy a credit pack/) });
  });

  it("lets Enterprise use credits without lowering the balance, and records the usage", async () => {
    const db = await getDb();
    const orgId = await orgWith(0, "enterprise");
    const result = await spendCredits(db, orgId, 5, { reason: "voice test" });
    expect(result.balance).toBe(0);
    const [row] = await db.select().from(creditLedger).where(eq(creditLedger.organizationId, orgId));
    expect(row).toMatchObject({ kind: "usage", amount: 0, units: 5 });
  });

  it("treats a trialing (unpaid) Enterprise like any other plan", async () => {
    const db = await getDb();
    const org = await createOrganization(db, { name: "Trial", tier: "enterprise", status: "trialing" });
    await changeCredits(db, org.id, "grant", 2, { reason: "welcome" });
    await spendCredits(db, org.id, 2, { reason: "voice test" });
    await expect(spendCredits(db, org.id, 1, { reason: "voice test" })).rejects.toMatchObject({ status: 402 });
  });

  it("applies a change with the same reference once", async () => {
    const db = await getDb();
    const orgId = await orgWith(0);
    const first = await changeCredits(db, orgId, "purchase", 550, { reason: "pack", reference: "pay_1" });
    const again = await changeCredits(db, orgId, "purchase", 550, { reason: "pack", reference: "pay_1" });
    expect(first.applied).toBe(true);
    expect(again.applied).toBe(false);
    expect(await getCreditBalance(db, orgId)).toBe(550);
  });

  it("refuses an adjustment below zero", async () => {
    const db = await getDb();
    const orgId = await orgWith(5);
    await expect(changeCredits(db, orgId, "adjustment", -6, { reason: "too much" })).rejects.toMatchObject({ status: 402 });
    const [org] = await db.select().from(organizations).where(eq(organizations.id, orgId));
    expect(org.creditBalance).toBe(5);
  });
});
