import { formatWhen, resolveWhen } from "./when";

/**
 * Thursday 26 November 2026, noon at the business. The same local clock in two zones on either side
 * of UTC, while the process itself runs in a third zone: what the caller means must not move.
 */
const businesses = [
  { timeZone: "America/Chicago", now: new Date("2026-11-26T18:00:00Z") },
  { timeZone: "Europe/Madrid", now: new Date("2026-11-26T11:00:00Z") },
];
const processZones = ["UTC", "Pacific/Auckland", "America/Los_Angeles"];

const originalZone = process.env.TZ;
afterAll(() => {
  process.env.TZ = originalZone;
});

describe.each(processZones)("with the process in %s", (processZone) => {
  beforeAll(() => {
    process.env.TZ = processZone;
  });

  test("the process really runs in that zone", () => {
    const offsets = { UTC: 0, "Pacific/Auckland": -780, "America/Los_Angeles": 480 } as Record<string, number>;
    expect(new Date("2026-11-26T18:00:00Z").getTimezoneOffset()).toBe(offsets[processZone]);
  });

  describe.each(businesses)("a business in $timeZone on Thursday Nov 26, noon", ({ timeZone, now }) => {
    const en = (text: string) => resolveWhen(text, { now, timeZone, language: "en" });
    const es = (text: string) => resolveWhen(text, { now, timeZone, language: "es" });

    test("the Tuesday after next around 3 is the Tuesday after the coming one, at 3 PM", () => {
      expect(en("the Tuesday after next around 3")).toMatchObject({ date: "2026-12-08", time: "15:00" });
    });

    test("next Tuesday and this Friday", () => {
      expect(en("next Tuesday")).toMatchObject({ date: "2026-12-01" });
      expect(en("next Tuesday")?.time).toBeUndefined();
      expect(en("this Friday")).toMatchObject({ date: "2026-11-27" });
    });

    test("tomorrow morning is a day and a part of the day, not a time", () => {
      const when = en("tomorrow morning");
      expect(when).toMatchObject({ date: "2026-11-27", partOfDay: "morning" });
      expect(when?.time).toBeUndefined();
    });

    test("Saturday at 11 instead is Saturday 11 AM", () => {
      expect(en("Saturday at 11 instead")).toMatchObject({ date: "2026-11-28", time: "11:00" });
      expect(en("no not friday saturday at 11 instead")).toMatchObject({ date: "2026-11-28", time: "11:00" });
    });

    test("February 30th does not exist: flagged, never a guessed day", () => {
      const when = en("February 30th");
      expect(when?.invalid).toBe("nonexistent");
      expect(when?.date).toBeUndefined();
      expect(en("can I come in on february thirtieth")?.invalid).toBe("nonexistent");
      expect(en("november 31st at 2")?.invalid).toBe("nonexistent");
    });

    test("a month and day already past this year is next year's; yesterday and last Monday are past", () => {
      expect(en("March 3rd")).toMatchObject({ date: "2027-03-03" });
      expect(en("yesterday at 3")?.invalid).toBe("past");
      expect(en("last Monday")?.invalid).toBe("past");
      expect(en("yesterday at 3")?.date).toBeUndefined();
    });

    test("move it to Thursday, same time: next Thursday, keeping the time", () => {
      const when = en("move it to Thursday, same time");
      expect(when).toMatchObject({ date: "2026-12-03", sameTime: true });
      expect(when?.time).toBeUndefined();
    });

    test("an hour without am/pm is a business hour: 1–7 PM, 8–11 AM, 12 noon", () => {
      expect(en("at 3")).toMatchObject({ time: "15:00" });
      expect(en("at 3")?.date).toBeUndefined();
      expect(en("around three")).toMatchObject({ time: "15:00" });
      expect(en("3 o'clock")).toMatchObject({ time: "15:00" });
      expect(en("at 7")).toMatchObject({ time: "19:00" });
      expect(en("at 8")).toMatchObject({ time: "08:00" });
      expect(en("at 11")).toMatchObject({ time: "11:00" });
      expect(en("at 12")).toMatchObject({ time: "12:00" });
      expect(en("at 9 pm")).toMatchObject({ time: "21:00" });
      expect(en("at 3 am")).toMatchObject({ time: "03:00" });
      expect(en("at 14:30")).toMatchObject({ time: "14:30" });
    });

    test("noon, half past two, quarter to five, 2:30", () => {
      expect(en("noon")).toMatchObject({ time: "12:00" });
      expect(en("half past two")).toMatchObject({ time: "14:30" });
      expect(en("quarter to five")).toMatchObject({ time: "16:45" });
      expect(en("2:30")).toMatchObject({ time: "14:30" });
      expect(en("friday at two thirty")).toMatchObject({ date: "2026-11-27", time: "14:30" });
    });

    test("in two weeks, December 8th, the 8th", () => {
      expect(en("in two weeks")).toMatchObject({ date: "2026-12-10" });
      expect(en("December 8th")).toMatchObject({ date: "2026-12-08" });
      expect(en("the 8th")).toMatchObject({ date: "2026-12-08" });
      expect(en("on the 28th at 10")).toMatchObject({ date: "2026-11-28", time: "10:00" });
      expect(en("the first available")).toBeUndefined();
    });

    test("today at a time already gone is past", () => {
      expect(en("today at 9")?.invalid).toBe("past");
      expect(en("today at 4")).toMatchObject({ date: "2026-11-26", time: "16:00" });
    });

    test("Spanish: el martes a las tres de la tarde", () => {
      expect(es("el martes a las tres de la tarde")).toMatchObject({ date: "2026-12-01", time: "15:00" });
    });

    test("Spanish: mañana por la mañana, pasado mañana", () => {
      const morning = es("mañana por la mañana");
      expect(morning).toMatchObject({ date: "2026-11-27", partOfDay: "morning" });
      expect(morning?.time).toBeUndefined();
      expect(es("pasado mañana")).toMatchObject({ date: "2026-11-28" });
    });

    test("Spanish: el 8 de diciembre, el martes que viene, a las 10 y media", () => {
      expect(es("el 8 de diciembre")).toMatchObject({ date: "2026-12-08" });
      expect(es("el martes que viene")).toMatchObject({ date: "2026-12-01" });
      expect(es("a las 10 y media")).toMatchObject({ time: "10:30" });
      expect(es("a las cinco menos cuarto")).toMatchObject({ time: "16:45" });
    });

    test("Spanish: impossible and past days, the same time", () => {
      expect(es("el 30 de febrero")?.invalid).toBe("nonexistent");
      expect(es("ayer a las 3")?.invalid).toBe("past");
      expect(es("el lunes pasado")?.invalid).toBe("past");
      expect(es("el jueves a la misma hora")).toMatchObject({ date: "2026-12-03", sameTime: true });
      expect(es("el día 8")).toMatchObject({ date: "2026-12-08" });
    });
  });
});

test("late in the evening the business's tomorrow is still its own (UTC is already on the next day)", () => {
  // 20:30 in Chicago on Nov 26 is 02:30 UTC on Nov 27.
  const now = new Date("2026-11-27T02:30:00Z");
  expect(resolveWhen("tomorrow at 10", { now, timeZone: "America/Chicago", language: "en" })).toMatchObject({ date: "2026-11-27", time: "10:00" });
  expect(resolveWhen("friday", { now, timeZone: "America/Chicago", language: "en" })).toMatchObject({ date: "2026-11-27" });
});

test("nothing about a day or time is undefined", () => {
  const now = new Date("2026-11-26T18:00:00Z");
  expect(resolveWhen("how much is a haircut", { now, timeZone: "America/Chicago", language: "en" })).toBeUndefined();
  expect(resolveWhen("someone will call me", { now, timeZone: "America/Chicago", language: "en" })).toBeUndefined();
});

describe("formatWhen", () => {
  test("names the weekday and the date, with the time when there is one", () => {
    expect(formatWhen("2026-12-08", "15:00", "en")).toBe("Tuesday, December 8th at 3 PM");
    expect(formatWhen("2026-12-08", undefined, "en")).toBe("Tuesday, December 8th");
    expect(formatWhen("2026-12-01", "14:30", "en")).toBe("Tuesday, December 1st at 2:30 PM");
    expect(formatWhen("2026-12-03", "09:00", "en")).toBe("Thursday, December 3rd at 9 AM");
    expect(formatWhen("2026-12-11", "12:00", "en")).toBe("Friday, December 11th at 12 PM");
    expect(formatWhen("2026-12-22", "10:00", "en")).toBe("Tuesday, December 22nd at 10 AM");
  });

  test("in Spanish", () => {
    expect(formatWhen("2026-12-08", "15:00", "es")).toBe("martes 8 de diciembre a las 3 de la tarde");
    expect(formatWhen("2026-12-08", undefined, "es")).toBe("martes 8 de diciembre");
    expect(formatWhen("2026-12-01", "10:30", "es")).toBe("martes 1 de diciembre a las 10 y media de la mañana");
    expect(formatWhen("2026-12-04", "13:00", "es")).toBe("viernes 4 de diciembre a la 1 de la tarde");
  });
});
