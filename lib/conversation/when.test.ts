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

  it("marks a day the calendar does not have, or one that has passed, instead of guessing", () => {
    expect(whenSaid("February 30th at 2", ctx)).toMatchObject({ invalid: "nonexistent" });
    expect(whenSaid("the 31st of April", ctx)).toMatchObject({ invalid: "nonexistent" });
    expect(whenSaid("yesterday at 3", ctx)).toMatchObject({ invalid: "past" });
    expect(whenSaid("what are your hours?", ctx)).toBeUndefined();
  });
});

describe("formatWhen: read-backs name weekday and date", () => {
  it("in English and Spanish", () => {
    expect(formatWhen("2026-12-08", "15:00")).toBe("Tuesday, December 8th at 3 PM");
    expect(formatWhen("2026-12-01", "09:30")).toBe("Tuesday, December 1st at 9:30 AM");
    expect(formatWhen("2026-12-08", "15:00", "es")).toBe("el martes 8 de diciembre a las 3 de la tarde");
  });
});
