import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/lib/platform/database";
import { creditLedger, organizations } from "@/db/schema";
import { createOrganization } from "@/lib/identity/organizations/service";
import { renewFreePeriodIfDue } from "./free-renewal";

afterAll(() => closeDb());

describe("Free plan monthly credits", () => {
  it("rolls an ended period forward and grants the month's 100 credits once", async () => {
    const db = await getDb();
    const org = await createOrganization(db, { name: "Free renewal" });
    const start = new Date("2026-01-10T00:00:00Z");
    await db
      .update(organizations)
      .set({ currentPeriodStart: start, currentPeriodEnd: new Date("2026-02-10T00:00:00Z") })
      .where(eq(organizations.id, org.id));
    const now = new Date("2026-04-20T12:00:00Z");

    const results = await Promise.all([renewFreePeriodIfDue(db, org.id, now), renewFreePeriodIfDue(db, org.id, now)]);
    expect(results.filter(Boolean)).toHaveLength(1);

    const [row] = await db.select().from(organizations).where(eq(organizations.id, org.id));
    expect(row.currentPeriodStart.toISOString()).toBe("2026-04-10T00:00:00.000Z");
    expect(row.currentPeriodEnd.toISOString()).toBe("2026-05-10T00:00:00.000Z");
    expect(row.creditBalance).toBe(100);
    const grants = await db.select().from(creditLedger).where(eq(creditLedger.organizationId, org.id));
    expect(grants).toEqual([expect.objectContaining({ kind: "grant", amount: 100, reference: "free-period:2026-04-10T00:00:00.000Z" })]);

    expect(await renewFreePeriodIfDue(db, org.id, now)).toBe(false);
  });

  it("leaves paid plans and current periods alone", async () => {
    const db = await getDb();
    const pro = await createOrganization(db, { name: "Pro", tier: "pro" });
    await db.update(organizations).set({ currentPeriodEnd: new Date("2020-01-01T00:00:00Z") }).where(eq(organizations.id, pro.id));
    expect(await renewFreePeriodIfDue(db, pro.id)).toBe(false);
    const fresh = await createOrganization(db, { name: "Fresh" });
    expect(await renewFreePeriodIfDue(db, fresh.id)).toBe(false);
  });
});
