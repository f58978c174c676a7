import { spawnSync } from "node:child_process";
import path from "node:path";
import { formatWhen, resolveWhen } from "./when";

/**
 * Thursday 26 November 2026, noon at the business: the same local clock in two zones on either side
 * of UTC. The process runs in its own zone (UTC here); the last test repeats every phrase in child
 * processes running in other zones: what the caller means must not move.
 */
const businesses = [
  { timeZone: "America/Chicago", now: new Date("2026-11-26T18:00:00Z") },
  { timeZone: "Europe/Madrid", now: new Date("2026-11-26T11:00:00Z") },
];
describe("in the process's own zone", () => {
  describe.each(businesses)("a business in $timeZone on Thursday Nov 26, noon", ({ timeZone, now }) => {
    const en = (text: string) => resolveWhen(text, { now, timeZone, language: "en" });
    const es = (text: string) => resolveWhen(text, { now, timeZone, language: "es" });

    test("the Tuesday after next around 3 is the Tuesday after the coming one, at 3 PM", () => {
      expect(en("the Tuesday after next around 3")).toMatchObject({ date: "2026-12-08", time: "15:00" });
    });

    test("a month and day of the last weeks has passed (never next year's); one months ago is next year's", () => {
      expect(en("can i come in on november 23rd at 10")).toMatchObject({ invalid: "past" });
      expect(es("el 20 de noviembre a las 10")).toMatchObject({ invalid: "past" });
      expect(en("march 3rd at 10")).toMatchObject({ date: "2027-03-03", time: "10:00" });
      expect(en("august 2nd")).toMatchObject({ date: "2027-08-02" });
    });

    test("the part of the day it is now is not the part asked for", () => {
      expect(en("oh it's already afternoon huh, tomorrow at 8 then")).toMatchObject({ date: "2026-11-27", time: "08:00" });
      expect(en("tomorrow afternoon at 3")).toMatchObject({ date: "2026-11-27", time: "15:00" });
    });

    test("next Tuesday and this Friday", () => {
      expect(en("next Tuesday")).toMatchObject({ date: "2026-12-01" });
      expect(en("next Tuesday")?.time).toBeUndefined();
      expect(en("this Friday")).toMatchObject({ date: "2026-11-27" });
    });

    test("parts of the day said every way: this afternoon, late afternoon on Friday, first thing, after lunch", () => {
      expect(en("this afternoon")).toMatchObject({ date: "2026-11-26", partOfDay: "afternoon" });
      expect(en("late afternoon on friday")).toMatchObject({ date: "2026-11-27", partOfDay: "afternoon" });
      expect(en("first thing tomorrow")).toMatchObject({ date: "2026-11-27", partOfDay: "morning" });
      expect(en("after lunch on monday")).toMatchObject({ date: "2026-11-30", partOfDay: "afternoon" });
      expect(en("monday at 8 in the evening")).toMatchObject({ date: "2026-11-30", time: "20:00" });
      expect(en("at 9 tonight")).toMatchObject({ date: "2026-11-26", time: "21:00" });
      expect(es("mañana temprano")).toMatchObject({ date: "2026-11-27", partOfDay: "morning" });
      expect(es("hoy en la tarde")).toMatchObject({ date: "2026-11-26", partOfDay: "afternoon" });
      expect(es("mañana en la noche a las 7")).toMatchObject({ date: "2026-11-27", time: "19:00" });
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

    test("a day gone by mentioned in passing is not the answer", () => {
      expect(en("I was in last week, can I come Tuesday at 3")).toMatchObject({ date: "2026-12-01", time: "15:00" });
      expect(en("same as last time, Friday at 2")).toMatchObject({ date: "2026-11-27", time: "14:00" });
      expect(en("two days ago")?.invalid).toBe("past");
      expect(es("fui la semana pasada, puedo ir el martes")).toMatchObject({ date: "2026-12-01" });
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

    test("a day ruled out is not the answer; the one offered instead is", () => {
      expect(en("I can't do Tuesday")).toBeUndefined();
      expect(en("Tuesday doesn't work for me")).toBeUndefined();
      expect(en("I can't do Tuesday but Wednesday works")).toMatchObject({ date: "2026-12-02" });
      expect(en("Friday's no good, how about Saturday at 11")).toMatchObject({ date: "2026-11-28", time: "11:00" });
      expect(en("not Friday, Saturday")).toMatchObject({ date: "2026-11-28" });
      expect(en("no, Saturday at 11 instead")).toMatchObject({ date: "2026-11-28", time: "11:00" });
      expect(en("I can't come in until Friday")).toMatchObject({ date: "2026-11-27" });
      expect(es("el martes no puedo")).toBeUndefined();
      expect(es("no puedo el martes, el jueves sí")).toMatchObject({ date: "2026-12-03" });
      expect(es("no, el sábado a las 11")).toMatchObject({ date: "2026-11-28", time: "11:00" });
    });

    test("minutes to and past the hour, short weekday names", () => {
      expect(en("ten to three")).toMatchObject({ time: "14:50" });
      expect(en("twenty past four")).toMatchObject({ time: "16:20" });
      expect(en("a quarter after 2")).toMatchObject({ time: "14:15" });
      expect(en("tues at 3")).toMatchObject({ date: "2026-12-01", time: "15:00" });
      expect(es("a las tres menos diez")).toMatchObject({ time: "14:50" });
      expect(es("el miércoles 2 al mediodía")).toMatchObject({ date: "2026-12-02", time: "12:00" });
      expect(es("a la una del mediodía")).toMatchObject({ time: "13:00" });
    });

    test("in two weeks, December 8th, the 8th", () => {
      expect(en("in two weeks")).toMatchObject({ date: "2026-12-10" });
      expect(en("December 8th")).toMatchObject({ date: "2026-12-08" });
      expect(en("the 8th")).toMatchObject({ date: "2026-12-08" });
      expect(en("on the 28th at 10")).toMatchObject({ date: "2026-11-28", time: "10:00" });
      expect(en("the first available")).toBeUndefined();
    });

    test("a week-sized span is a range, not a guessed day; a day named inside it is that day", () => {
      const nextWeek = en("sometime next week");
      expect(nextWeek).toMatchObject({ range: { from: "2026-11-30", to: "2026-12-06" } });
      expect(nextWeek?.date).toBeUndefined();
      expect(en("this weekend")).toMatchObject({ range: { from: "2026-11-28", to: "2026-11-29" } });
      expect(en("Tuesday next week")).toMatchObject({ date: "2026-12-01" });
      expect(en("Tuesday next week")?.range).toBeUndefined();
      expect(es("la semana que viene")).toMatchObject({ range: { from: "2026-11-30", to: "2026-12-06" } });
      expect(es("el martes de la semana que viene")).toMatchObject({ date: "2026-12-01" });
    });

    test("weeks counted from a day", () => {
      expect(en("a week from today")).toMatchObject({ date: "2026-12-03" });
      expect(en("two weeks from Tuesday")).toMatchObject({ date: "2026-12-15" });
      expect(es("dentro de dos semanas")).toMatchObject({ date: "2026-12-10" });
    });

    test("a weekday with its day of the month, lunchtime", () => {
      expect(en("Friday the 4th")).toMatchObject({ date: "2026-12-04" });
      expect(es("el viernes 4")).toMatchObject({ date: "2026-12-04" });
      expect(en("tomorrow at lunchtime")).toMatchObject({ date: "2026-11-27", time: "12:00" });
      expect(en("tonight at 7")).toMatchObject({ date: "2026-11-26", time: "19:00" });
      expect(es("a las 8 de la noche")).toMatchObject({ time: "20:00" });
      expect(es("a la una")).toMatchObject({ time: "13:00" });
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

test("what a language model's tool passes (ISO days and times) reads the same", () => {
  const now = new Date("2026-11-26T18:00:00Z");
  const read = (text: string) => resolveWhen(text, { now, timeZone: "America/Chicago", language: "en" });
  expect(read("2026-12-08T15:00")).toMatchObject({ date: "2026-12-08", time: "15:00" });
  expect(read("2026-12-08 15:00")).toMatchObject({ date: "2026-12-08", time: "15:00" });
  expect(read("2026-12-08")).toMatchObject({ date: "2026-12-08" });
  expect(read("Tuesday December 8 2026 at 3:00 PM")).toMatchObject({ date: "2026-12-08", time: "15:00" });
  expect(read("2025-12-08")?.invalid).toBe("past");
});

test("how long something took, a pause, a month alone, a name: no day is guessed", () => {
  const now = new Date("2026-11-26T18:00:00Z");
  const en = (text: string) => resolveWhen(text, { now, timeZone: "America/Chicago", language: "en" });
  const es = (text: string) => resolveWhen(text, { now, timeZone: "America/Chicago", language: "es" });
  expect(en("it's been leaking for 3 days")).toBeUndefined();
  expect(en("I sat in the waiting room for an hour")).toBeUndefined();
  expect(en("just a sec")).toBeUndefined();
  expect(en("I'll be there in a minute")).toBeUndefined();
  expect(en("a couple of days")).toBeUndefined();
  expect(en("sometime in April")).toMatchObject({ range: { from: "2027-04-01", to: "2027-04-30" } });
  expect(en("sometime in April")?.date).toBeUndefined();
  expect(es("un mensaje para María López")).toBeUndefined();
  expect(es("lleva 3 días goteando")).toBeUndefined();
  expect(en("in two weeks")).toMatchObject({ date: "2026-12-10" });
});

test("nothing about a day or time is undefined", () => {
  const now = new Date("2026-11-26T18:00:00Z");
  expect(resolveWhen("good morning", { now, timeZone: "America/Chicago", language: "en" })).toBeUndefined();
  expect(resolveWhen("thanks, have a good night", { now, timeZone: "America/Chicago", language: "en" })).toBeUndefined();
  expect(resolveWhen("buenas tardes", { now, timeZone: "America/Chicago", language: "es" })).toBeUndefined();
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

const PHRASES = {
  en: [
    "the Tuesday after next around 3", "next Tuesday", "this Friday", "tomorrow morning", "Saturday at 11 instead",
    "February 30th", "March 3rd", "yesterday at 3", "last Monday", "move it to Thursday, same time", "at 3", "noon",
    "half past two", "quarter to five", "in two weeks", "December 8th", "the 8th", "today at 4",
  ],
  es: [
    "el martes a las tres de la tarde", "mañana por la mañana", "pasado mañana", "el 8 de diciembre",
    "el martes que viene", "a las 10 y media", "el 30 de febrero", "el lunes pasado",
  ],
};

function resolveAll() {
  return businesses.map(({ timeZone, now }) =>
    (["en", "es"] as const).map((language) => PHRASES[language].map((text) => resolveWhen(text, { now, timeZone, language }) ?? null)),
  );
}

test("the process's own time zone changes nothing (child processes in Auckland and Los Angeles)", () => {
  const expected = JSON.parse(JSON.stringify(resolveAll()));
  const whenModule = path.join(__dirname, "when.ts");
  const script = `
    const loaded = await import(${JSON.stringify(whenModule)});
    const resolveWhen = loaded.resolveWhen ?? loaded.default.resolveWhen;
    const businesses = ${JSON.stringify(businesses)}.map((b) => ({ ...b, now: new Date(b.now) }));
    const phrases = ${JSON.stringify(PHRASES)};
    const out = businesses.map(({ timeZone, now }) => ["en", "es"].map((language) =>
      phrases[language].map((text) => resolveWhen(text, { now, timeZone, language }) ?? null)));
    console.log(JSON.stringify({ offset: new Date("2026-11-26T18:00:00Z").getTimezoneOffset(), out }));
  `;
  for (const [zone, offset] of [["Pacific/Auckland", -780], ["America/Los_Angeles", 480]] as const) {
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { ...process.env, TZ: zone, NODE_OPTIONS: "" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stderr).not.toMatch(/Error/);
    const result = JSON.parse(child.stdout.trim().split("\n").pop()!);
    expect(result.offset).toBe(offset);
    expect(result.out).toEqual(expected);
  }
}, 120_000);

describe("spans, approximate hours, Spanish evenings and late cancellations (issue 27)", () => {
  const now = new Date("2026-12-02T17:00:00Z"); // Wednesday Dec 2, 10 AM in Los Angeles
  const timeZone = "America/Los_Angeles";
  const en = (text: string) => resolveWhen(text, { now, timeZone, language: "en" });
  const es = (text: string) => resolveWhen(text, { now, timeZone, language: "es" });

  test("the end of next week is Thursday to Saturday of next week, not the whole week", () => {
    expect(en("sometime at the end of next week if possible")).toMatchObject({ range: { from: "2026-12-10", to: "2026-12-12" } });
    expect(en("early next week")).toMatchObject({ range: { from: "2026-12-07", to: "2026-12-08" } });
  });

  test("\"like 9 ish\" is 9 o'clock", () => {
    expect(en("the day after tomorrow, like 9 ish")).toMatchObject({ date: "2026-12-04", time: "09:00" });
  });

  test("\"a las ocho de la noche, a nombre de…\" is 8 PM", () => {
    expect(es("el sábado a las ocho de la noche, a nombre de Carlos Méndez")).toMatchObject({ date: "2026-12-05", time: "20:00" });
  });

  test("cancelling \"last minute\" names no day gone by", () => {
    expect(en("is there a fee if i cancel my appointment last minute?")?.invalid).toBeUndefined();
  });
});

describe("a weekday said with next week, and an hour before its day (issue 27)", () => {
  const now = new Date("2026-11-30T16:00:00Z"); // Monday Nov 30, 10 AM in Chicago
  const en = (text: string) => resolveWhen(text, { now, timeZone: "America/Chicago", language: "en" });
  const es = (text: string) => resolveWhen(text, { now, timeZone: "America/Chicago", language: "es" });

  test("\"sometime next week, maybe Wednesday afternoon\" is next week's Wednesday", () => {
    expect(en("sometime next week, maybe wednesday afternoon?")).toMatchObject({ date: "2026-12-09", partOfDay: "afternoon" });
    expect(es("la próxima semana, el miércoles por la tarde")).toMatchObject({ date: "2026-12-09" });
    expect(en("this wednesday")).toMatchObject({ date: "2026-12-02" });
  });

  test("\"2 this afternoon\" is 2 PM today; \"a table for 2 tonight at 7\" is 7 PM", () => {
    expect(en("ok then 2 this afternoon")).toMatchObject({ date: "2026-11-30", time: "14:00" });
    expect(en("a table for 2 tonight at 7")).toMatchObject({ date: "2026-11-30", time: "19:00" });
  });
});

describe("an hour corrected mid-sentence (gen2)", () => {
  const now = new Date("2026-11-30T19:00:00Z"); // Monday Nov 30, noon in Denver
  const en = (text: string) => resolveWhen(text, { now, timeZone: "America/Denver", language: "en" });

  test("\"tomorrow at 10, sorry, 11\" is 11; \"Thursday at 3, no, I mean 4\" is 4 PM", () => {
    expect(en("a diagnostic tomorrow at 10, sorry, 11")).toMatchObject({ date: "2026-12-01", time: "11:00" });
    expect(en("thursday at 3, no, i mean 4")).toMatchObject({ date: "2026-12-03", time: "16:00" });
  });

  test("a correction of how many people is no hour", () => {
    expect(en("no, 2 people")).toBeUndefined();
  });
});

describe("an hour asked for bare (gen2)", () => {
  const now = new Date("2026-12-02T02:30:00Z"); // Tuesday Dec 1, 6:30 PM in Los Angeles
  const en = (text: string) => resolveWhen(text, { now, timeZone: "America/Los_Angeles", language: "en" });

  test("\"do you have 10?\" is 10 o'clock; \"do you have 3 tomorrow?\" is 3 PM tomorrow", () => {
    expect(en("i need a blowout, do you have 10?")).toMatchObject({ time: "10:00" });
    expect(en("do you have 3 tomorrow?")).toMatchObject({ date: "2026-12-02", time: "15:00" });
  });

  test("a count is no hour", () => {
    expect(en("do you have 2 people")).toBeUndefined();
    expect(en("do you have 2 openings tomorrow")).not.toHaveProperty("time");
  });
});

test("Spanish minutes before a name, and Spanglish 'a las N' in English words (gen3-es)", () => {
  // Wednesday 2 December 2026, 3 PM in New York.
  const now = new Date("2026-12-02T20:00:00Z");
  const en = (text: string) => resolveWhen(text, { now, timeZone: "America/New_York", language: "en" });
  const es = (text: string) => resolveWhen(text, { now, timeZone: "America/New_York", language: "es" });
  expect(es("una mesa este sábado a las ocho y media de la noche, a nombre de guadalupe ortega")).toMatchObject({ date: "2026-12-05", time: "20:30" });
  expect(es("el viernes a las siete y cuarto a nombre de ana")).toMatchObject({ date: "2026-12-04", time: "19:15" });
  expect(en("a haircut el saturday a las 2, my name is kevin")).toMatchObject({ date: "2026-12-05", time: "14:00" });
  expect(en("tomorrow a las 10:30 please")).toMatchObject({ date: "2026-12-03", time: "10:30" });
});
