/**
 * Spoken days and times → a local date and time in the business's zone. chrono-node does the
 * parsing (its English and Spanish locales); this module only (1) rewrites the spoken forms chrono
 * does not know into ones it does ("half past two" → "2:30", "the Tuesday after next" → an ISO day,
 * "a las tres y media" → "a las 3:30"), (2) hands chrono the call's clock as a fixed UTC offset, so
 * the process's own zone never matters, and (3) applies the desk's rules on top: a time without
 * am/pm is a business hour (1–7 → PM, 8–11 → AM), a day that does not exist or is past is flagged,
 * never guessed.
 */
import * as chrono from "chrono-node";
import {
  addDays,
  compareDays,
  daysInMonth,
  hhmm,
  isoDay,
  localMoment,
  offsetMinutes,
  parseIsoDay,
  weekdayOf,
  type LocalDay,
} from "./clock";
import type { Language, SpokenWhen, UnderstandingContext } from "./types";

type WhenContext = Pick<UnderstandingContext, "now" | "timeZone" | "language">;

const EN_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const EN_MONTHS_SHORT = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const ES_MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"];
const EN_WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const ES_WEEKDAYS = ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"];

const EN_NUMBERS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
};
const ES_NUMBERS: Record<string, number> = {
  una: 1, uno: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, once: 11, doce: 12,
};
const EN_MINUTES: Record<string, number> = {
  "oh five": 5, "o five": 5, ten: 10, fifteen: 15, twenty: 20, "twenty five": 25, thirty: 30, "thirty five": 35, forty: 40,
  "forty five": 45, fifty: 50, "fifty five": 55,
};
const ES_MINUTES: Record<string, number> = {
  media: 30, cuarto: 15, cinco: 5, diez: 10, veinte: 20, veinticinco: 25, "treinta": 30, cuarenta: 40, "cuarenta y cinco": 45,
};
const EN_ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17,
  eighteenth: 18, nineteenth: 19, twentieth: 20, "twenty first": 21, "twenty second": 22, "twenty third": 23,
  "twenty fourth": 24, "twenty fifth": 25, "twenty sixth": 26, "twenty seventh": 27, "twenty eighth": 28,
  "twenty ninth": 29, thirtieth: 30, "thirty first": 31,
};

const EN_MONTH_PATTERN = `(${EN_MONTHS.join("|")}|${EN_MONTHS_SHORT.join("|")})\\.?`;
const ES_MONTH_PATTERN = `(${ES_MONTHS.join("|")})`;
/** "the 1st available", "the 2nd floor": an ordinal that is not a day of the month. */
const NOT_A_DAY = "(?!\\s+(?:available|appointment|slot|time|opening|one|thing|week|option|visit|floor|person|of\\s+(?:the|those|them)))";

/** A length of time with nothing saying when it starts ("for an hour", "a couple of days", "just a sec"). */
const DURATION_ONLY =
  /^(?:for\s+|durante\s+|por\s+)?(?:an?|one|a\s+couple(?:\s+of)?|a\s+few|few|several|un|una|unos|unas|\d+|two|three|four|five)?\s*(?:sec(?:ond)?s?|min(?:ute)?s?|moments?|hours?|days?|weeks?|months?|years?|segundos?|minutos?|momentos?|horas?|d[ií]as?|semanas?|meses|mes|a[nñ]os?)$/;

/** "Just a sec", "in a minute": a pause in the conversation, never an appointment time. */
const SHORT_WAIT = /^(?:just\s+|in\s+|within\s+|en\s+|dentro\s+de\s+)?(?:an?|one|un|una|\d)?\s*(?:sec(?:ond)?s?|min(?:ute)?s?|moments?|segundos?|minutos?|momentos?|ratito|rato)$/;

/** Words just before a day or time that rule it out ("not", "can't do", "except"); a bare "no" does not ("no, Saturday"). */
const RULED_OUT_BEFORE: Record<Language, RegExp> = {
  en: /(?:\bnot|n't\s+(?:do|make|come(?:\s+in)?)|\bcannot\s+(?:do|make|come(?:\s+in)?)|\bexcept|\bother\s+than|\banything\s+but|\bbut\s+not)\s+(?:on\s+|at\s+|the\s+|this\s+|next\s+)?$/,
  es: /\b(?:no\s+puedo|no\s+me\s+(?:va|sirve|viene|queda)|menos|excepto|salvo)\s+(?:el\s+|los\s+|la\s+|a\s+las\s+|este\s+)?$/,
};
/** Words just after a day or time that rule it out ("Friday's no good", "Tuesday doesn't work"). */
const RULED_OUT_AFTER: Record<Language, RegExp> = {
  en: /^\s*(?:'s|is|would be|will be)?\s*(?:no good|not good|bad|out|not great|impossible|tough|doesn't work|does not work|won't work|isn't good|is not good|won't do|doesn't suit|is a no)\b/,
  es: /^\s*(?:no\s+(?:me\s+(?:va|sirve|viene|queda)|puedo)|no\b|imposible|me\s+queda\s+mal)/,
};

/** A day gone by: in the words chrono matched, or just around them ("el lunes pasado"). */
const PAST_MARKERS: Record<Language, { within: RegExp; before: RegExp; after: RegExp }> = {
  en: {
    within: /\b(yesterday|ago|last|earlier\s+today)\b/,
    before: /\b(last|this\s+past)\s+$/,
    after: /^\s*ago\b/,
  },
  es: {
    within: /\b(ayer|anteayer|anoche|hace)\b/,
    before: /\b(hace)\s+$/,
    after: /^\s*(pasad[oa]s?|anterior)\b/,
  },
};

type Flags = {
  partOfDay?: "morning" | "afternoon" | "evening";
  sameTime?: boolean;
  invalid?: "nonexistent" | "past";
  range?: { from: LocalDay; to: LocalDay };
};

function words(map: Record<string, number>): string {
  return Object.keys(map)
    .sort((a, b) => b.length - a.length)
    .join("|");
}

/** The next `weekday` strictly after `today`. */
function nextWeekday(today: LocalDay, weekday: number): LocalDay {
  const ahead = (weekday - weekdayOf(today) + 7) % 7 || 7;
  return addDays(today, ahead);
}

/** A day of the month named alone ("the 8th", "el 8"): this month if still ahead, else next month. */
function dayOfMonth(today: LocalDay, day: number, flags: Flags): string | undefined {
  let { year, month } = today;
  if (day < today.day) {
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  if (day < 1 || day > daysInMonth(year, month)) {
    flags.invalid = "nonexistent";
    return undefined;
  }
  return isoDay({ year, month, day });
}

/** A month and day this many days gone is a past day ("November 27th" on the 30th), not next year's. */
const RECENT_PAST_DAYS = 62;

/** A month and day ("February 30th", "30 de febrero"): flags a day the month does not have. */
function checkMonthDay(today: LocalDay, month: number, day: number, flags: Flags) {
  const ahead = compareDays({ year: today.year, month, day: Math.min(day, 28) }, today) >= 0;
  const year = ahead ? today.year : today.year + 1;
  if (day < 1 || day > daysInMonth(year, month)) flags.invalid = "nonexistent";
}

/** Monday of the week `day` is in (weeks start on Monday, as callers count "next week"). */
function mondayOf(day: LocalDay): LocalDay {
  return addDays(day, -((weekdayOf(day) + 6) % 7));
}

type Span = "this week" | "next week" | "this weekend" | "next weekend" | "end of this week" | "end of next week" | "early next week";

/** The days a week-sized phrase covers, from today on. */
function spanDays(today: LocalDay, span: Span): { from: LocalDay; to: LocalDay } {
  const monday = mondayOf(today);
  switch (span) {
    case "this week":
      return { from: today, to: addDays(monday, 6) };
    case "next week":
      return { from: addDays(monday, 7), to: addDays(monday, 13) };
    case "this weekend": {
      const saturday = addDays(monday, 5);
      return { from: compareDays(saturday, today) < 0 ? today : saturday, to: addDays(monday, 6) };
    }
    case "next weekend":
      return { from: addDays(monday, 12), to: addDays(monday, 13) };
    // The end of a working week: Thursday to Saturday (Friday in the middle).
    case "end of this week": {
      const thursday = addDays(monday, 3);
      return { from: compareDays(thursday, today) < 0 ? today : thursday, to: addDays(monday, 5) };
    }
    case "end of next week":
      return { from: addDays(monday, 10), to: addDays(monday, 12) };
    case "early next week":
      return { from: addDays(monday, 7), to: addDays(monday, 8) };
  }
}

const SPANS: Record<Language, [RegExp, Span][]> = {
  en: [
    [/\b(?:sometime\s+|some\s+time\s+|any\s*time\s+)?(?:at\s+)?(?:the\s+)?(?:end|tail\s+end|back\s+end)\s+of\s+next\s+week\b|\blate\s+next\s+week\b/, "end of next week"],
    [/\b(?:sometime\s+|some\s+time\s+|any\s*time\s+)?(?:at\s+)?(?:the\s+)?(?:end|tail\s+end)\s+of\s+(?:the|this)\s+week\b|\blater\s+this\s+week\b/, "end of this week"],
    [/\b(?:sometime\s+|some\s+time\s+)?(?:early\s+next\s+week|(?:the\s+)?(?:beginning|start)\s+of\s+next\s+week)\b/, "early next week"],
    [/\b(?:sometime\s+|some\s+time\s+|any\s*time\s+|early\s+|later\s+)?next\s+week(?:end)?\b/, "next week"],
    [/\b(?:sometime\s+|any\s*time\s+|later\s+)?this\s+week\b/, "this week"],
    [/\b(?:this|the)\s+weekend\b/, "this weekend"],
  ],
  es: [
    [/\b(?:a\s+)?finales\s+de\s+(?:la\s+)?(?:pr[oó]xima\s+semana|semana\s+que\s+viene)\b/, "end of next week"],
    [/\b(?:a\s+)?principios\s+de\s+(?:la\s+)?(?:pr[oó]xima\s+semana|semana\s+que\s+viene)\b/, "early next week"],
    [/\b(?:la\s+)?(?:pr[oó]xima\s+semana|semana\s+que\s+viene|otra\s+semana)\b/, "next week"],
    [/\besta\s+semana\b/, "this week"],
    [/\b(?:este|el)\s+fin\s+de\s+semana\b/, "this weekend"],
    [/\bel\s+pr[oó]ximo\s+fin\s+de\s+semana\b/, "next weekend"],
  ],
};

/**
 * "Sometime next week", "this weekend": a span, not a day — unless a day is named inside it
 * ("Tuesday next week", "el martes de la semana que viene"), which chrono reads as that day.
 */
function takeSpan(text: string, language: Language, today: LocalDay, flags: Flags): string {
  const weekday = language === "es" ? /\b(lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo)\b/ : /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/;
  const named = text.match(new RegExp(weekday.source, "g"));
  if (named) {
    // "Sometime next week, maybe Wednesday afternoon": that Wednesday of next week, not the coming one.
    const nextWeek = language === "es" ? /\b(?:la\s+)?(?:pr[oó]xima\s+semana|semana\s+que\s+viene)\b/ : /\bnext\s+week\b(?!end)/;
    if (new Set(named).size === 1 && nextWeek.test(text) && !/\b(?:this|este|esta)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo)\b/.test(text)) {
      const names = language === "es" ? ES_WEEKDAYS : EN_WEEKDAYS;
      const index = names.findIndex((n) => n.normalize("NFD").replace(/[\u0300-\u036f]/g, "") === named[0].normalize("NFD").replace(/[\u0300-\u036f]/g, ""));
      if (index >= 0) {
        const day = addDays(mondayOf(today), 7 + ((index + 6) % 7));
        return text.replace(nextWeek, " ").replace(weekday, ` ${isoDay(day)} `);
      }
    }
    return text;
  }
  for (const [pattern, span] of SPANS[language]) {
    const match = pattern.exec(text);
    if (!match) continue;
    const named = span === "next week" && /weekend/.test(match[0]) ? "next weekend" : span;
    flags.range = spanDays(today, named);
    return text.replace(pattern, " ");
  }
  return text;
}

function clean(text: string): string {
  return text
    .toLowerCase()
    .replace(/[“”"¿¡!?,;]/g, " ")
    .replace(/\.(?=\s|$)/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function rewriteEnglish(input: string, today: LocalDay, flags: Flags): string {
  let text = ` ${input} `;
  text = text.replace(/\b(um+|uh+|er+|hmm+|you know|i guess|maybe)\b/g, " ");
  // Spanglish: "el saturday a las 2", "tomorrow a las 10:30" — the Spanish "a las N" is "at N".
  text = text.replace(/\ba\s+las?\s+(\d{1,2}(?::\d{2})?)\b/g, "at $1");
  // "The first one is fine", "the second one": a choice among times offered, not the 1st or 2nd of a month.
  text = text.replace(/\b(?:the\s+)?(first|second|third|last)\s+(one|option|time)\b/g, " ");
  // "Cancel last minute", "at the last second": how late, not a day gone by.
  text = text.replace(/\b(?:at\s+the\s+)?last[\s-](?:minute|second|moment)\b/g, " ");
  // "like 9 ish" is "around 9"; "like" elsewhere is a filler.
  text = text.replace(/\blike\b(?!\s+\d|\s+(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon)\b)/g, " ");
  text = text.replace(/\b(same time|at the same time|same hour)\b/g, () => {
    flags.sameTime = true;
    return " ";
  });
  text = text.replace(/(?<=\p{L})-(?=\p{L})/gu, " ").replace(/\s+/g, " ");
  // Ordinals said as words: "the eighth", "march third", "the twenty first of december".
  text = text.replace(new RegExp(`\\b(the|${EN_MONTH_PATTERN.slice(1, -4)})\\s+(${words(EN_ORDINALS)})\\b`, "g"), (_m, lead: string, ordinal: string) => `${lead} ${EN_ORDINALS[ordinal]}th`);
  text = text.replace(new RegExp(`\\b(${words(EN_ORDINALS)})\\s+of\\b`, "g"), (_m, ordinal: string) => `${EN_ORDINALS[ordinal]}th of`);
  // Clock times said as words.
  // Parts of the day become a flag, the day they name stays for chrono ("this afternoon" → today):
  // chrono reads "afternoon on friday" as no day at all.
  text = text.replace(/\b(?:good|have a (?:good|nice|great))\s+(?:morning|afternoon|evening|night|day)\b/g, " ");
  // "2 this afternoon", "9 tomorrow morning": a bare hour before the day it is on (not "a table for 2 tonight").
  text = text.replace(/(?<!\b(?:for|of|party of|table for|us|guests|people)\s)\b(\d{1,2}(?::\d{2})?)\s+(?=(?:this|tomorrow|tonight|today|in the)\b)/g, "at $1 ");
  const part = (word: string): Flags["partOfDay"] => (word === "morning" ? "morning" : word === "afternoon" ? "afternoon" : "evening");
  // "it's already afternoon, tomorrow at 8 then": the part of the day it is now, not the one asked for.
  text = text.replace(/\b(?:it'?s|it is|its|is it|already|still)\s+(?:already\s+|still\s+|the\s+)*(?:morning|afternoon|evening|night)\b/g, " ");
  text = text.replace(/\b(?:first thing(?: in the morning)?|before (?:noon|lunch))\b/g, () => {
    flags.partOfDay = "morning";
    return " ";
  });
  text = text.replace(/\b(?:after lunch|(?:at the )?end of the day)\b/g, () => {
    flags.partOfDay = "afternoon";
    return " ";
  });
  text = text.replace(/\btonight\b/g, () => {
    flags.partOfDay = "evening";
    return " today ";
  });
  text = text.replace(/\bthis\s+(?:early\s+|late\s+)?(morning|afternoon|evening)\b/g, (_m, word: string) => {
    flags.partOfDay = part(word);
    return " today ";
  });
  text = text.replace(/\b(?:(?:in|during)\s+the\s+|early\s+|late\s+|mid\s+)*(morning|afternoon|evening|night)s?\b/g, (_m, word: string) => {
    flags.partOfDay = part(word);
    return " ";
  });
  text = text.replace(/\b(midday|noonish|lunch\s*time|lunch)\b/g, "noon");
  text = text.replace(new RegExp(`\\bhalf past (${words(EN_NUMBERS)}|\\d{1,2})\\b`, "g"), (_m, h: string) => `at ${EN_NUMBERS[h] ?? h}:30`);
  text = text.replace(new RegExp(`\\bquarter (?:past|after) (${words(EN_NUMBERS)}|\\d{1,2})\\b`, "g"), (_m, h: string) => `at ${EN_NUMBERS[h] ?? h}:15`);
  text = text.replace(new RegExp(`\\bquarter (?:to|till|til|of) (${words(EN_NUMBERS)}|\\d{1,2})\\b`, "g"), (_m, h: string) => {
    const hour = Number(EN_NUMBERS[h] ?? h);
    return `at ${hour === 1 ? 12 : hour - 1}:45`;
  });
  // "ten to three", "twenty past four" (not "from ten to three", a span).
  text = text.replace(new RegExp(`(^|\\s)(?<!from\\s)(five|ten|twenty|twenty five|5|10|20|25) (past|after|to|till|til|of) (${words(EN_NUMBERS)}|\\d{1,2})\\b(?!\\s*(?::|minutes|mins))`, "g"), (m, lead: string, mm: string, way: string, h: string) => {
    const minutes = ({ five: 5, ten: 10, twenty: 20, "twenty five": 25 } as Record<string, number>)[mm] ?? Number(mm);
    const hour = Number(EN_NUMBERS[h] ?? h);
    if (hour < 1 || hour > 12) return m;
    if (way === "past" || way === "after") return `${lead}at ${hour}:${String(minutes).padStart(2, "0")}`;
    return `${lead}at ${hour === 1 ? 12 : hour - 1}:${String(60 - minutes).padStart(2, "0")}`;
  });
  // "I sat in the waiting room": the verb, not Saturday.
  text = text.replace(/\b(i|we|you|he|she|they|just|had|have|was|were|been)\s+sat\b/g, "$1 seated");
  text = text.replace(/\b(tues|thur|weds)\b\.?/g, (_m, day: string) => ({ tues: "tuesday", thur: "thursday", weds: "wednesday" })[day]!);
  text = text.replace(new RegExp(`\\b(${words(EN_NUMBERS)}|\\d{1,2}) (${words(EN_MINUTES)})\\b(?!\\s*(?:minutes|mins|days|weeks|months|hours))`, "g"), (m, h: string, mm: string) => {
    const hour = EN_NUMBERS[h] ?? Number(h);
    if (hour > 12) return m;
    return `${hour}:${String(EN_MINUTES[mm]).padStart(2, "0")}`;
  });
  text = text.replace(new RegExp(`\\b(${words(EN_NUMBERS)})\\b`, "g"), (_m, n: string) => String(EN_NUMBERS[n]));
  text = text.replace(/\b(\d{1,2})\s*-?\s*ish\b/g, "around $1");
  text = text.replace(/\b(around|about|approximately|roughly|say|by|like)\s+(?=\d)/g, "at ");
  // "make it 4 instead", "how about 5", "push it back to 5": a new hour, which chrono does not read bare.
  const bareHour = String.raw`(?=\d{1,2}(?::\d{2})?\b(?!\s*(?:people|persons|guests|of us|minutes|mins|hours|days|weeks|months|st|nd|rd|th)\b|\s*[/-]\s*\d))`;
  text = text.replace(new RegExp(String.raw`\b(make it|how about|what about|back to|up to|forward to|later to|earlier to|(?:move|push|change|switch|bump)\s+(?:it|that|this)\s+to)\s+${bareHour}`, "g"), "$1 at ");
  text = text.replace(/(^|\s)(\d{1,2}(?::\d{2})?)\s+instead\b/g, "$1at $2 instead");
  // "Do you have 10?", "anything at 4 tomorrow?": an hour asked for, said bare.
  text = text.replace(/\b(do you have|have you got|you got|got|is there|anything|something|available)\s+(?:at\s+)?(\d{1,2}(?::\d{2})?)(?=\s*(?:[?.!,]|$|o'?clock|am\b|pm\b|a\.m|p\.m|today|tomorrow|tonight|on\b|this\b|next\b|or\b))/g, "$1 at $2");
  // "tomorrow at 10, sorry, 11", "at 3 — no, I mean 4": the corrected hour, said bare, is the time.
  text = text.replace(new RegExp(String.raw`\b(sorry|i mean|no wait|wait no|wait|no|actually|rather|scratch that|make that)[,.\s]+${bareHour}`, "g"), "$1 at ");
  text = text.replace(/\bo\s?clock\b/g, "o'clock");
  // "the Tuesday after next": the Tuesday after the coming one.
  text = text.replace(new RegExp(`\\b(?:the\\s+)?(${EN_WEEKDAYS.join("|")})\\s+after\\s+next\\b`, "g"), (_m, day: string) => ` on ${isoDay(addDays(nextWeekday(today, EN_WEEKDAYS.indexOf(day)), 7))} `);
  text = text.replace(new RegExp(`\\b(?:a|one)\\s+week\\s+from\\s+(?:this\\s+|next\\s+)?(${EN_WEEKDAYS.join("|")})\\b`, "g"), (_m, day: string) => ` on ${isoDay(addDays(nextWeekday(today, EN_WEEKDAYS.indexOf(day)), 7))} `);
  // "a week from today", "two weeks from Tuesday".
  text = text.replace(new RegExp(`\\b(a|one|1|two|2|three|3)\\s+weeks?\\s+from\\s+(today|tomorrow|${EN_WEEKDAYS.join("|")})\\b`, "g"), (_m, count: string, from: string) => {
    const weeks = ({ a: 1, one: 1, "1": 1, two: 2, "2": 2, three: 3, "3": 3 } as Record<string, number>)[count];
    const start = from === "today" ? today : from === "tomorrow" ? addDays(today, 1) : nextWeekday(today, EN_WEEKDAYS.indexOf(from));
    return ` on ${isoDay(addDays(start, 7 * weeks))} `;
  });
  // A month and day: flag days the month does not have (chrono drops them silently).
  for (const match of text.matchAll(new RegExp(`\\b${EN_MONTH_PATTERN}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, "g"))) {
    checkMonthDay(today, monthIndex(match[1]), Number(match[2]), flags);
  }
  for (const match of text.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+of\\s+${EN_MONTH_PATTERN}`, "g"))) {
    checkMonthDay(today, monthIndex(match[2]), Number(match[1]), flags);
  }
  // "the 8th", "on the 8th" without a month.
  text = text.replace(new RegExp(`\\b(?:on\\s+)?the\\s+(\\d{1,2})(?:st|nd|rd|th)\\b(?!\\s+of\\b)${NOT_A_DAY}`, "g"), (_m, day: string) => {
    const iso = dayOfMonth(today, Number(day), flags);
    return iso ? ` on ${iso} ` : " ";
  });
  return text.replace(/\s+/g, " ").trim();
}

function monthIndex(name: string): number {
  const index = EN_MONTHS.indexOf(name);
  return (index >= 0 ? index : EN_MONTHS_SHORT.indexOf(name.slice(0, 3))) + 1;
}

function rewriteSpanish(input: string, today: LocalDay, flags: Flags): string {
  let text = ` ${input} `;
  text = text.replace(/\b(eh+|em+|mmm+|pues|o sea)\b/g, " ");
  text = text.replace(/\b(a la misma hora|la misma hora|misma hora)\b/g, () => {
    flags.sameTime = true;
    return " ";
  });
  text = text.replace(/\bpasado\s+mañana\b/g, ` ${isoDay(addDays(today, 2))} `);
  text = text.replace(/\b(?:a\s+primera\s+hora|temprano|tempranito)\b/g, () => {
    flags.partOfDay = "morning";
    return " ";
  });
  text = text.replace(/\besta\s+(tarde|noche|mañana)\b/g, (_m, part: string) => {
    flags.partOfDay = part === "tarde" ? "afternoon" : part === "noche" ? "evening" : "morning";
    return " hoy ";
  });
  text = text.replace(/\b(?:por|en|de|a)\s+la\s+(mañana|tarde|noche)\b/g, (_m, part: string) => {
    flags.partOfDay = part === "tarde" ? "afternoon" : part === "noche" ? "evening" : "morning";
    return " ";
  });
  // "a las 8 de la noche a nombre de Morales": with "de la noche" gone, chrono reads "8 a" as 8 AM.
  text = text.replace(/(\d)\s+(a|al)\s+(?=[a-zñáéíóú]{2,})/g, "$1, $2 ");
  // "a la una del mediodía" is 1 PM; "al mediodía" alone is noon.
  text = text.replace(/(\d|una|dos|doce)\s+del\s+mediod[ií]a\b/g, (_m, h: string) => {
    flags.partOfDay ??= "afternoon";
    return `${h} `;
  });
  text = text.replace(/\b(?:al|a|del|el)?\s*mediod[ií]a\b/g, " a las 12:00 ");
  text = text.replace(new RegExp(`\\b(las?)\\s+(${words(ES_NUMBERS)})\\b`, "g"), (_m, article: string, n: string) => `${article} ${ES_NUMBERS[n]}`);
  // Again now that "las ocho" is "las 8": "a las 8 a nombre de…" is not 8 AM.
  text = text.replace(/(\d)\s+(a|al)\s+(?=[a-zñáéíóú]{2,})/g, "$1, $2 ");
  text = text.replace(new RegExp(`\\b(las?)\\s+(\\d{1,2})\\s+y\\s+(${words(ES_MINUTES)}|\\d{1,2})\\b`, "g"), (_m, article: string, h: string, mm: string) => `${article} ${h}:${String(ES_MINUTES[mm] ?? mm).padStart(2, "0")}`);
  text = text.replace(new RegExp(`\\b(las?)\\s+(\\d{1,2})\\s+menos\\s+(${words(ES_MINUTES)}|\\d{1,2})\\b`, "g"), (_m, article: string, h: string, mm: string) => {
    const hour = Number(h) === 1 ? 12 : Number(h) - 1;
    return `las ${hour}:${String(60 - (ES_MINUTES[mm] ?? Number(mm))).padStart(2, "0")}`;
  });
  // Once more now that "las 8 y media" is "las 8:30": "a las 8:30 a nombre de…" is not 8:30 AM.
  text = text.replace(/(\d)\s+(a|al)\s+(?=[a-zñáéíóú]{2,})/g, "$1, $2 ");
  text = text.replace(/\b(?:a\s+eso\s+de|sobre|como\s+a|alrededor\s+de|tipo)\s+(las?\s+\d)/g, "a $1");
  text = text.replace(/\ben\s+punto\b/g, " ");
  text = text.replace(new RegExp(`\\b(?:el\\s+)?(${ES_WEEKDAYS.join("|")})\\s+(?:despu[eé]s\\s+del\\s+pr[oó]ximo|de\\s+la\\s+otra\\s+semana)\\b`, "g"), (_m, day: string) => ` ${isoDay(addDays(nextWeekday(today, ES_WEEKDAYS.indexOf(day)), 7))} `);
  for (const match of text.matchAll(new RegExp(`\\b(\\d{1,2})\\s+de\\s+${ES_MONTH_PATTERN}`, "g"))) {
    checkMonthDay(today, ES_MONTHS.indexOf(match[2]) + 1, Number(match[1]), flags);
  }
  // "el viernes 4": the 4th (chrono reads only the weekday).
  text = text.replace(new RegExp(`\\b(?:el\\s+)?(?:${ES_WEEKDAYS.join("|")})\\s+(\\d{1,2})\\b(?!\\s*(?:de\\s+${ES_MONTH_PATTERN}|:))`, "g"), (_m, day: string) => {
    const iso = dayOfMonth(today, Number(day), flags);
    return iso ? ` ${iso} ` : " ";
  });
  text = text.replace(/\bel\s+(?:d[ií]a\s+)?(\d{1,2})\b(?!\s*(?:de|:))/g, (_m, day: string) => {
    const iso = dayOfMonth(today, Number(day), flags);
    return iso ? ` ${iso} ` : " ";
  });
  return text.replace(/\s+/g, " ").trim();
}

/** A business hour: an hour said without am/pm is read as the desk's hours make likely. */
function businessHour(hour: number, partOfDay: Flags["partOfDay"]): number {
  if (partOfDay === "afternoon" || partOfDay === "evening") return hour < 12 ? hour + 12 : hour;
  if (partOfDay === "morning") return hour === 12 ? 12 : hour;
  return hour >= 1 && hour <= 7 ? hour + 12 : hour;
}

export function resolveWhen(text: string, ctx: WhenContext): SpokenWhen | undefined {
  const said = text.trim();
  if (!said) return undefined;
  const language: Language = ctx.language ?? "en";
  const now = localMoment(ctx.now, ctx.timeZone);
  const today: LocalDay = { year: now.year, month: now.month, day: now.day };
  const flags: Flags = {};
  const lowered = clean(said);
  const rewritten = takeSpan(language === "es" ? rewriteSpanish(lowered, today, flags) : rewriteEnglish(lowered, today, flags), language, today, flags);

  const reference = { instant: ctx.now, timezone: offsetMinutes(ctx.now, ctx.timeZone) };
  const parser = language === "es" ? chrono.es : chrono.en;
  // Accents off for chrono: its Spanish patterns take both spellings, and it reads "mar" (martes) in
  // "María" because a regex word boundary falls before "í".
  const forChrono = language === "es" ? rewritten.normalize("NFD").replace(/[\u0300-\u036f]/g, "") : rewritten;
  const results = parser.parse(forChrono, reference, { forwardDate: true });

  let date: LocalDay | undefined;
  let hour: number | undefined;
  let minute = 0;
  let meridiemSaid = false;
  let namedWeekdayOnly = false;
  let pastNamed = false;
  for (const result of results) {
    const before = forChrono.slice(0, result.index);
    const after = forChrono.slice(result.index + result.text.length);
    // "for an hour", "a couple of days", "just a sec": how long, not when.
    if (DURATION_ONLY.test(result.text.trim()) || SHORT_WAIT.test(result.text.trim())) continue;
    // "I can't do Tuesday", "Friday's no good", "el martes no puedo": a day ruled out is not an answer.
    if (RULED_OUT_BEFORE[language].test(before) || RULED_OUT_AFTER[language].test(after)) continue;
    // "yesterday at 3", "last Monday", "el lunes pasado": a day gone by. It is the answer only if
    // nothing else is named ("I was in last week, can I come Tuesday?" asks for Tuesday).
    const past = PAST_MARKERS[language];
    if (past.within.test(result.text) || past.before.test(before) || past.after.test(after)) {
      pastNamed = true;
      continue;
    }
    // "move my cleaning from Tuesday to Wednesday at 9": the day it moves to, not the day it leaves.
    const moving = result.end && /\b(move|moving|push|change|switch|bump|reschedul\w*|cambiar|mover|pasar)\b/.test(forChrono);
    const start = moving && result.end ? result.end : result.start;
    const dayNamed = start.isCertain("day") || start.isCertain("weekday");
    if (dayNamed) {
      date = { year: start.get("year")!, month: start.get("month")!, day: start.get("day")! };
      namedWeekdayOnly = start.isCertain("weekday") && !start.isCertain("day");
      // "November 27th" said on November 30th: a day of the last two months has passed (chrono moves it
      // to next year); "March 3rd" said in November is next year's.
      if (start.isCertain("month") && start.isCertain("day") && !start.isCertain("year") && compareDays(date, addDays(today, 300)) > 0) {
        const lastYear = { ...date, year: date.year - 1 };
        if (compareDays(lastYear, addDays(today, -RECENT_PAST_DAYS)) >= 0 && compareDays(lastYear, today) < 0) date = lastYear;
      }
    } else if (start.isCertain("month") && !start.isCertain("hour")) {
      // "sometime in March": the month, not its first day.
      const year = start.get("year")!;
      const month = start.get("month")!;
      const first = { year, month, day: 1 };
      flags.range = { from: compareDays(first, today) < 0 ? today : first, to: { year, month, day: daysInMonth(year, month) } };
    }
    if (start.isCertain("hour")) {
      hour = start.get("hour")!;
      minute = start.get("minute") ?? 0;
      meridiemSaid = start.isCertain("meridiem");
      if (!dayNamed && /\b(today|tonight|hoy)\b/.test(result.text)) date = today;
    }
  }
  if (!date && /\b(today|tonight|hoy)\b/.test(rewritten)) date = today;

  const meridiemGuessed = hour !== undefined && !meridiemSaid && !flags.partOfDay && hour >= 1 && hour <= 11;
  if (hour !== undefined && !meridiemSaid) hour = businessHour(hour, flags.partOfDay);

  // A weekday named alone that is today means next week's ("Thursday" said on a Thursday): callers say "today".
  if (date && namedWeekdayOnly && compareDays(date, today) === 0 && !/\b(today|this|hoy|este)\b/.test(rewritten)) {
    date = addDays(date, 7);
  }

  if (date && compareDays(date, today) < 0) flags.invalid = "past";
  if (date && compareDays(date, today) === 0 && hour !== undefined && hour * 60 + minute < now.hour * 60 + now.minute) flags.invalid = "past";
  if (pastNamed && !date && hour === undefined) flags.invalid = "past";

  const found = date || hour !== undefined || flags.partOfDay || flags.sameTime || flags.invalid || flags.range;
  if (!found) return undefined;
  const when: SpokenWhen = { text: said };
  if (flags.invalid) {
    when.invalid = flags.invalid;
    return when;
  }
  if (date) when.date = isoDay(date);
  else if (flags.range) when.range = { from: isoDay(flags.range.from), to: isoDay(flags.range.to) };
  if (hour !== undefined) when.time = hhmm(hour, minute);
  else if (flags.partOfDay) when.partOfDay = flags.partOfDay;
  if (flags.sameTime) when.sameTime = true;
  if (meridiemGuessed && when.time) when.meridiemGuessed = true;
  return when;
}

const EN_WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const EN_MONTH_NAMES = EN_MONTHS.map((name) => name[0].toUpperCase() + name.slice(1));

function englishOrdinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${["th", "st", "nd", "rd"][day % 10] ?? "th"}`;
}

function englishTime(time: string): string {
  const [hour, minute] = time.split(":").map(Number);
  const suffix = hour >= 12 ? "PM" : "AM";
  const twelve = hour % 12 === 0 ? 12 : hour % 12;
  return minute ? `${twelve}:${String(minute).padStart(2, "0")} ${suffix}` : `${twelve} ${suffix}`;
}

function spanishTime(time: string): string {
  const [hour, minute] = time.split(":").map(Number);
  const twelve = hour % 12 === 0 ? 12 : hour % 12;
  const clock = minute === 30 ? `${twelve} y media` : minute === 15 ? `${twelve} y cuarto` : minute ? `${twelve}:${String(minute).padStart(2, "0")}` : `${twelve}`;
  const article = twelve === 1 ? "a la" : "a las";
  const part = hour === 12 && minute === 0 ? "del mediodía" : hour < 12 ? "de la mañana" : hour < 20 ? "de la tarde" : "de la noche";
  return `${article} ${clock} ${part}`;
}

/** The read-back: always the weekday and the date ("Tuesday, December 8th at 3 PM"). */
export function formatWhen(date: string, time: string | undefined, language: Language): string {
  const day = parseIsoDay(date);
  const weekday = weekdayOf(day);
  if (language === "es") {
    const base = `${ES_WEEKDAYS[weekday]} ${day.day} de ${ES_MONTHS[day.month - 1]}`;
    return time ? `${base} ${spanishTime(time)}` : base;
  }
  const base = `${EN_WEEKDAY_NAMES[weekday]}, ${EN_MONTH_NAMES[day.month - 1]} ${englishOrdinal(day.day)}`;
  return time ? `${base} at ${englishTime(time)}` : base;
}
