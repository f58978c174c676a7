/**
 * The grading of `npm run eval:calls` (scripts/eval-calls-grading.ts): local times in the business's
 * zone, the appointment and task matchers, and the checks that make a script malformed — and every
 * script of both sets (eval/calls/dev, eval/calls/held-out) is well-formed.
 */
import { appointmentMatches, fromLocal, loadSet, taskMatches, toLocal, validate } from "../../scripts/eval-calls-grading";

describe("local times", () => {
  it("reads a local time in the business's zone, standard and daylight time", () => {
    expect(new Date(fromLocal("2026-12-08T15:00", "America/Chicago")).toISOString()).toBe("2026-12-08T21:00:00.000Z");
    expect(new Date(fromLocal("2026-07-08T15:00", "America/Chicago")).toISOString()).toBe("2026-07-08T20:00:00.000Z");
    expect(new Date(fromLocal("2026-07-08T15:00", "America/Phoenix")).toISOString()).toBe("2026-07-08T22:00:00.000Z");
    expect(toLocal(Date.parse("2026-12-09T03:30:00Z"), "America/Los_Angeles")).toBe("2026-12-08T19:30");
    expect(toLocal(Date.parse("2026-12-01T05:00:00Z"), "America/New_York")).toBe("2026-12-01T00:00");
  });
});

describe("appointment matcher", () => {
  const row = { status: "confirmed", startsAt: new Date("2026-12-08T21:00:00Z"), serviceName: "Teeth Cleaning", customerName: "Tom Baker", customerPhone: "+13125550101" };
  it("matches the local time, day, window, service and name", () => {
    expect(appointmentMatches(row, { at: "2026-12-08T15:00", service: "cleaning", name: "tom baker" }, "America/Chicago")).toBe(true);
    expect(appointmentMatches(row, { at: ["2026-12-01T15:00", "2026-12-08T15:00"] }, "America/Chicago")).toBe(true);
    expect(appointmentMatches(row, { on: "2026-12-08", from: "12:00", until: "17:00" }, "America/Chicago")).toBe(true);
  });
  it("refuses the coming Tuesday for the Tuesday after next, another service, another zone, a cancelled row", () => {
    expect(appointmentMatches(row, { at: "2026-12-01T15:00" }, "America/Chicago")).toBe(false);
    expect(appointmentMatches(row, { at: "2026-12-08T15:00", service: "Whitening" }, "America/Chicago")).toBe(false);
    expect(appointmentMatches(row, { at: "2026-12-08T15:00" }, "America/New_York")).toBe(false);
    expect(appointmentMatches({ ...row, status: "cancelled" }, { at: "2026-12-08T15:00" }, "America/Chicago")).toBe(false);
    expect(appointmentMatches({ ...row, status: "cancelled" }, { at: "2026-12-08T15:00", status: "cancelled" }, "America/Chicago")).toBe(true);
    expect(appointmentMatches(row, { on: "2026-12-08", until: "15:00" }, "America/Chicago")).toBe(false);
  });
});

describe("task matcher", () => {
  const task = { kind: "callback", title: "Call back Bill about a water heater", detail: "Call me at 720-555-0198", contactNumber: "+17205550304", contactName: "Bill Turner" };
  it("finds the caller's number, a number written in the task, the name and words", () => {
    expect(taskMatches(task, { phone: "+17205550304", nameContains: "bill" })).toBe(true);
    expect(taskMatches(task, { phone: "7205550198" })).toBe(true);
    expect(taskMatches(task, { kind: "callback", textContains: "water heater" })).toBe(true);
  });
  it("refuses another number, another kind, and urgency the task does not have", () => {
    expect(taskMatches(task, { phone: "+13125550100" })).toBe(false);
    expect(taskMatches(task, { kind: "message" })).toBe(false);
    expect(taskMatches(task, { urgent: true })).toBe(false);
    expect(taskMatches({ ...task, priority: "urgent" } as typeof task, { urgent: true })).toBe(true);
    expect(taskMatches({ ...task, urgent: true } as typeof task, { urgent: true })).toBe(true);
  });
});

describe("malformed scripts", () => {
  const ok = { name: "x", business: "dental-chicago", now: "2026-11-30T10:00:00-06:00", turns: ["hi"], expect: { tasks: 0 } };
  it("accepts a well-formed script", () => {
    expect(validate("x.yaml", ok as never)).toEqual([]);
  });
  it("names the file and the problem: unknown keys, bad times, bad regexes, missing businesses, bad digits", () => {
    expect(validate("x.yaml", { ...ok, expect: { taks: 0 } } as never).join()).toMatch(/x\.yaml: unknown expect key "taks"/);
    expect(validate("x.yaml", { ...ok, expect: { appointments: [{ at: "Dec 8 at 3" }] } } as never).join()).toMatch(/local "YYYY-MM-DDTHH:MM"/);
    expect(validate("x.yaml", { ...ok, expect: { replyMatches: ["(unclosed"] } } as never).join()).toMatch(/not a regular expression/);
    expect(validate("x.yaml", { ...ok, business: "nowhere" } as never).join()).toMatch(/no file eval\/businesses\/nowhere\.yaml/);
    expect(validate("x.yaml", { ...ok, turns: [{ digits: "12ab" }] } as never).join()).toMatch(/digits are 0-9/);
    expect(validate("x.yaml", { ...ok, caller: "5555550123" } as never).join()).toMatch(/E\.164/);
  });
  it("every caller of both sets is well-formed, with a unique name, and the held-out set has at least 60", () => {
    const all = [...loadSet("dev"), ...loadSet("held-out")];
    expect(all.flatMap(({ file, script }) => validate(file, script))).toEqual([]);
    expect(new Set(all.map((s) => s.script.name)).size).toBe(all.length);
    expect(loadSet("held-out").length).toBeGreaterThanOrEqual(60);
    expect(all.length).toBeGreaterThanOrEqual(200);
  });
});
