import { formatWhen, whenSaid } from "./when";

// Tuesday, December 1, 2026 in the business's zone.
const ctx = { today: "2026-12-01" };

describe("whenSaid: one reading of a spoken day and time", () => {
  it.each([
    ["the Tuesday after next around 3", { date: "2026-12-15", time: "15:00" }],
    ["Saturday at 11 instead", { date: "2026-12-05", time: "11:00" }],
    ["tomorrow morning", { date: "2026-12-02", partOfDay: "morning" }],
    ["December 8 at 3pm", { date: "2026-12-08", time: "15:00" }],
    ["move it to Thursday, same time", { date: "2026-12-03", sameTime: true }],
  ])("%s", (text, expected) => expect(whenSaid(text, ctx)).toMatchObject(expected));

  it("reads the call's clock in the business's zone", () => {
    // 02:00 UTC on Dec 2 is still Dec 1 in Chicago: "tomorrow" is Dec 2 there.
    expect(whenSaid("tomorrow at 10", { today: "2026-12-01", now: new Date("2026-12-02T02:00:00Z"), timeZone: "America/Chicago" })).toMatchObject({ date: "2026-12-02", time: "10:00" });
  });

  it("marks a day the calendar does not have, or one that has passed, instead of guessing", () => {
    expect(whenSaid("February 30th at 2", ctx)).toMatchObject({ invalid: "nonexistent" });
    expect(whenSaid("the 31st of April", ctx)).toMatchObject({ invalid: "nonexistent" });
    expect(whenSaid("yesterday at 3", ctx)).toMatchObject({ invalid: "past" });
    expect(whenSaid("what are your hours?", ctx)).toBeUndefined();
  });
});

describe("formatWhen: read-backs name weekday and date", () => {
  it("in English and Spanish", () => {
    expect(formatWhen("2026-12-08", "15:00", "en")).toBe("Tuesday, December 8th at 3 PM");
    expect(formatWhen("2026-12-01", "09:30", "en")).toBe("Tuesday, December 1st at 9:30 AM");
    expect(formatWhen("2026-12-08", "15:00", "es")).toMatch(/martes 8 de diciembre a las 3 de la tarde/);
  });
});
