import { usagePercent } from "./usage";

describe("usagePercent", () => {
  it("measures use against the period's allowance, not the balance", () => {
    expect(usagePercent({ used: 30, allowance: 100, unlimited: false })).toBe(30);
    expect(usagePercent({ used: 333, allowance: 1000, unlimited: false })).toBe(33);
  });
  it("stops at 100 when purchased credits carry on past the allowance", () => {
    expect(usagePercent({ used: 250, allowance: 100, unlimited: false })).toBe(100);
  });
  it("is 0 for unlimited plans and plans without an allowance", () => {
    expect(usagePercent({ used: 40, allowance: -1, unlimited: true })).toBe(0);
    expect(usagePercent({ used: 40, allowance: 0, unlimited: false })).toBe(0);
  });
});
