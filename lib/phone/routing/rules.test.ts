/** Routing decisions without a phone: rule order, hours in the profile's time zone, holidays, VIP, intents. */
import type { NumberRouting } from "@/db/schema";
import { routeArrival, routeIntent, routingIntentOf, type ArrivalContext } from "./rules";

// Monday 2026-11-23 15:00 UTC = 10:00 in New York.
const monday10am = new Date("2026-11-23T15:00:00Z");
const profile = { timezone: "America/New_York", weeklyHours: { mon: [{ open: "09:00", close: "17:00" }] } };

function ctx(routing: NumberRouting | null, extra: Partial<ArrivalContext> = {}): ArrivalContext {
  return { routing, forwardTo: "+15035550100", caller: "+12025550111", now: monday10am, profile, numberHours: null, onBlockList: false, ...extra };
}

describe("routeArrival", () => {
  it("assistant first by default; ring first rings the forward-to number", () => {
    expect(routeArrival(ctx(null))).toEqual({ action: "assistant", because: "Assistant first: no rule matched" });
    expect(routeArrival(ctx({ mode: "ring_first", ringTimeoutSeconds: 15, rules: [] }))).toMatchObject({ action: "forward", to: "+15035550100", ringTimeoutSeconds: 15 });
    expect(routeArrival(ctx({ mode: "ring_first", ringTimeoutSeconds: 15, rules: [] }, { forwardTo: null })).action).toBe("assistant");
  });

  it("reads the hours in the organization's time zone: 10 AM Monday in New York is open, 11 PM is after hours", () => {
    const routing: NumberRouting = { mode: "assistant_first", ringTimeoutSeconds: 20, rules: [{ condition: "after_hours", action: "voicemail" }] };
    expect(routeArrival(ctx(routing)).action).toBe("assistant");
    const late = routeArrival(ctx(routing, { now: new Date("2026-11-24T04:00:00Z") }));
    expect(late).toMatchObject({ action: "voicemail", rule: 1 });
    expect(late.because).toMatch(/^After hours \(Closed now; opens/);
  });

  it("evaluates rules in order: the first match decides", () => {
    const routing: NumberRouting = {
      mode: "assistant_first",
      ringTimeoutSeconds: 20,
      rules: [
        { condition: "vip", numbers: ["+12025550111"], action: "forward", to: "+15035550199" },
        { condition: "always", action: "voicemail" },
      ],
    };
    expect(routeArrival(ctx(routing))).toMatchObject({ action: "forward", to: "+15035550199", rule: 1, because: "VIP caller (rule 1): forwarded to +15035550199" });
    expect(routeArrival(ctx(routing, { caller: "+12025550999" }))).toMatchObject({ action: "voicemail", rule: 2 });
    expect(routeArrival(ctx(routing, { onBlockList: true }))).toEqual({ action: "reject", because: "Blocked: the caller is on your block list" });
  });

  it("a holiday closes the day and matches its rule", () => {
    const holidayProfile = { ...profile, holidays: [{ date: "2026-11-23", name: "Staff day" }] };
    const routing: NumberRouting = { mode: "assistant_first", ringTimeoutSeconds: 20, rules: [{ condition: "holiday", action: "voicemail" }] };
    expect(routeArrival(ctx(routing, { profile: holidayProfile })).because).toBe("Holiday (Staff day), rule 1: voicemail");
  });
});

describe("intent rules", () => {
  it("classifies sales, support and billing", () => {
    expect(routingIntentOf("I was charged twice on my invoice", "other")).toBe("billing");
    expect(routingIntentOf("Can I get a quote for a new roof?", "other")).toBe("sales");
    expect(routingIntentOf("My heater is not working", "other")).toBe("support");
    expect(routingIntentOf("What time do you open?", "hours")).toBeNull();
  });

  it("routes the first matching intent rule", () => {
    const routing: NumberRouting = { mode: "assistant_first", ringTimeoutSeconds: 20, rules: [{ condition: "intent", intent: "support", action: "forward", to: "+15035550177" }] };
    expect(routeIntent(routing, null, "my sink is broken", "other")).toMatchObject({ action: "forward", to: "+15035550177" });
    expect(routeIntent(routing, null, "how much is a cleaning", "pricing")).toBeNull();
  });
});
