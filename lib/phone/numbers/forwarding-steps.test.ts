import { dialCode, forwardingCarriers } from "./forwarding-steps";

describe("forwarding steps", () => {
  it("fills the 10-digit Switchboard number into each carrier's code", () => {
    const verizon = forwardingCarriers.find((c) => c.id === "verizon")!;
    expect(dialCode(verizon.conditional.on[0], "+13125550123")).toBe("*713125550123");
    const tmobile = forwardingCarriers.find((c) => c.id === "tmobile")!;
    expect(dialCode(tmobile.conditional.on[0], "+13125550123")).toBe("**004*3125550123#");
    const att = forwardingCarriers.find((c) => c.id === "att")!;
    expect(dialCode(att.all.on, "+13125550123")).toBe("*21*3125550123#");
  });

  it("covers AT&T, Verizon, T-Mobile and a landline, each with conditional forwarding", () => {
    expect(forwardingCarriers.map((c) => c.id)).toEqual(["att", "verizon", "tmobile", "landline"]);
    for (const carrier of forwardingCarriers) expect(carrier.conditional.on.length).toBeGreaterThan(0);
  });
});
