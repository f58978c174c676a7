import { periodGrantReference, prorationCents, upgradeTopUp } from "./plan-change";

describe("prorationCents (Stripe's proration, computed the same way in test mode)", () => {
  const period = { start: new Date("2026-11-01T00:00:00Z"), end: new Date("2026-12-01T00:00:00Z") };

  it("charges the price difference for the share of the period that is left", () => {
    // Half of a 30-day period left: ($199 − $49) / 2 = $75.
    expect(prorationCents(4900, 19900, period, new Date("2026-11-16T00:00:00Z"))).toBe(7500);
    // At the very start: the whole difference; at the end: nothing.
    expect(prorationCents(4900, 19900, period, period.start)).toBe(15000);
    expect(prorationCents(4900, 19900, period, period.end)).toBe(0);
  });

  it("rounds to the cent and never goes negative (a downgrade is not refunded now)", () => {
    expect(prorationCents(4900, 19900, period, new Date("2026-11-21T00:00:00Z"))).toBe(5000);
    expect(prorationCents(19900, 4900, period, new Date("2026-11-16T00:00:00Z"))).toBe(0);
    expect(prorationCents(0, 4900, period, new Date("2026-11-11T00:00:00Z"))).toBe(3267);
  });
});

describe("a period's credits", () => {
  it("an upgrade tops up to the new allowance; unlimited adds none", () => {
    expect(upgradeTopUp("free", "pro")).toBe(900);
    expect(upgradeTopUp("pro", "enterprise")).toBe(0);
  });

  it("are keyed by the period and plan, so a second grant for them is refused by the ledger", () => {
    const start = new Date("2026-11-01T00:00:00Z");
    expect(periodGrantReference(start, "pro")).toBe(periodGrantReference(new Date(start), "pro"));
    expect(periodGrantReference(start, "pro")).not.toBe(periodGrantReference(start, "enterprise"));
  });
});
