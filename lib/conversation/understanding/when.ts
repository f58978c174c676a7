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

const PAST_MARKERS: Record<Language, RegExp> = {
  en: /\b(yesterday|ago|last\s+(?:sunday|monday|tuesday|wednesday|thursday|friday|saturday|week|month|night|time)|earlier\s+today|this\s+past)\b/,
  es: /\b(ayer|anteayer|anoche|hace\s+\d+|pasad[oa]s?|anterior)\b/,
};

type Flags = {
  partOfDay?: "morning" | "afternoon" | "evening";
  sameTime?: boolean;
  invalid?: "nonexistent" | "past";
  /** A day named by rewriting (an ISO day chrono reads back as certain). */
  explicitToday?: boolean;
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

/** A month and day ("February 30th", "30 de febrero"): flags a day the month does not have. */
function checkMonthDay(today: LocalDay, month: number, day: number, flags: Flags) {
  const ahead = compareDays({ year: today.year, month, day: Math.min(day, 28) }, today) >= 0;
  const year = ahead ? today.year : today.year + 1;
  if (day < 1 || day > daysInMonth(year, month)) flags.invalid = "nonexistent";
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
  text = text.replace(/\b(um+|uh+|er+|hmm+|like|you know|i guess|maybe)\b/g, " ");
  text = text.replace(/\b(same time|at the same time|same hour)\b/g, () => {
    flags.sameTime = true;
    return " ";
  });
  text = text.replace(/-/g, " ").replace(/\s+/g, " ");
  // Ordinals said as words: "the eighth", "march third", "the twenty first of december".
  text = text.replace(new RegExp(`\\b(the|${EN_MONTH_PATTERN.slice(1, -4)})\\s+(${words(EN_ORDINALS)})\\b`, "g"), (_m, lead: string, ordinal: string) => `${lead} ${EN_ORDINALS[ordinal]}th`);
  text = text.replace(new RegExp(`\\b(${words(EN_ORDINALS)})\\s+of\\b`, "g"), (_m, ordinal: string) => `${EN_ORDINALS[ordinal]}th of`);
  // Clock times said as words.
  text = text.replace(/\bmidday\b/g, "noon");
  text = text.replace(new RegExp(`\\bhalf past (${words(EN_NUMBERS)}|\\d{1,2})\\b`, "g"), (_m, h: string) => `at ${EN_NUMBERS[h] ?? h}:30`);
  text = text.replace(new RegExp(`\\bquarter (?:past|after) (${words(EN_NUMBERS)}|\\d{1,2})\\b`, "g"), (_m, h: string) => `at ${EN_NUMBERS[h] ?? h}:15`);
  text = text.replace(new RegExp(`\\bquarter (?:to|till|til|of) (${words(EN_NUMBERS)}|\\d{1,2})\\b`, "g"), (_m, h: string) => {
    const hour = Number(EN_NUMBERS[h] ?? h);
    return `at ${hour === 1 ? 12 : hour - 1}:45`;
  });
  text = text.replace(new RegExp(`\\b(${words(EN_NUMBERS)}|\\d{1,2}) (${words(EN_MINUTES)})\\b(?!\\s*(?:minutes|mins|days|weeks|months|hours))`, "g"), (m, h: string, mm: string) => {
    const hour = EN_NUMBERS[h] ?? Number(h);
    if (hour > 12) return m;
    return `${hour}:${String(EN_MINUTES[mm]).padStart(2, "0")}`;
  });
  text = text.replace(new RegExp(`\\b(${words(EN_NUMBERS)})\\b`, "g"), (_m, n: string) => String(EN_NUMBERS[n]));
  text = text.replace(/\b(\d{1,2})\s*ish\b/g, "$1");
  text = text.replace(/\b(around|about|approximately|roughly|say|by|like)\s+(?=\d)/g, "at ");
  text = text.replace(/\bo\s?clock\b/g, "o'clock");
  // "the Tuesday after next": the Tuesday after the coming one.
  text = text.replace(new RegExp(`\\b(?:the\\s+)?(${EN_WEEKDAYS.join("|")})\\s+after\\s+next\\b`, "g"), (_m, day: string) => ` on ${isoDay(addDays(nextWeekday(today, EN_WEEKDAYS.indexOf(day)), 7))} `);
  text = text.replace(new RegExp(`\\b(?:a|one)\\s+week\\s+from\\s+(?:this\\s+|next\\s+)?(${EN_WEEKDAYS.join("|")})\\b`, "g"), (_m, day: string) => ` on ${isoDay(addDays(nextWeekday(today, EN_WEEKDAYS.indexOf(day)), 7))} `);
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
  text = text.replace(/\besta\s+(tarde|noche|mañana)\b/g, (_m, part: string) => {
    flags.partOfDay = part === "tarde" ? "afternoon" : part === "noche" ? "evening" : "morning";
    return " hoy ";
  });
  text = text.replace(/\b(?:por|en|de|a)\s+la\s+(mañana|tarde|noche)\b/g, (_m, part: string) => {
    flags.partOfDay = part === "tarde" ? "afternoon" : part === "noche" ? "evening" : "morning";
    return " ";
  });
  text = text.replace(/\b(?:del|al)\s+mediod[ií]a\b/g, " ");
  text = text.replace(/\b(mediod[ií]a)\b/g, " a las 12:00 ");
  text = text.replace(new RegExp(`\\b(las?)\\s+(${words(ES_NUMBERS)})\\b`, "g"), (_m, article: string, n: string) => `${article} ${ES_NUMBERS[n]}`);
  text = text.replace(new RegExp(`\\b(las?)\\s+(\\d{1,2})\\s+y\\s+(${words(ES_MINUTES)}|\\d{1,2})\\b`, "g"), (_m, article: string, h: string, mm: string) => `${article} ${h}:${String(ES_MINUTES[mm] ?? mm).padStart(2, "0")}`);
  text = text.replace(/\b(las?)\s+(\d{1,2})\s+menos\s+(cuarto|\d{1,2})\b/g, (_m, article: string, h: string, mm: string) => {
    const hour = Number(h) === 1 ? 12 : Number(h) - 1;
    return `las ${hour}:${String(60 - (mm === "cuarto" ? 15 : Number(mm))).padStart(2, "0")}`;
  });
  text = text.replace(/\b(?:a\s+eso\s+de|sobre|como\s+a|alrededor\s+de|tipo)\s+(las?\s+\d)/g, "a $1");
  text = text.replace(/\ben\s+punto\b/g, " ");
  text = text.replace(new RegExp(`\\b(?:el\\s+)?(${ES_WEEKDAYS.join("|")})\\s+(?:despu[eé]s\\s+del\\s+pr[oó]ximo|de\\s+la\\s+otra\\s+semana)\\b`, "g"), (_m, day: string) => ` ${isoDay(addDays(nextWeekday(today, ES_WEEKDAYS.indexOf(day)), 7))} `);
  for (const match of text.matchAll(new RegExp(`\\b(\\d{1,2})\\s+de\\s+${ES_MONTH_PATTERN}`, "g"))) {
    checkMonthDay(today, ES_MONTHS.indexOf(match[2]) + 1, Number(match[1]), flags);
  }
  text = text.replace(/\bel\s+(?:d[ií]a\s+)?(\d{1,2})\b(?!\s*(?:de|:))/g, (_m, day: string) => {
    const iso = dayOfMonth(today, Number(day), flags);
    return iso ? ` ${iso} ` : " ";
  });
  return text.replace(/\s+/g, " ").trim();
}

function partOfDayIn(text: string, language: Language): Flags["partOfDay"] {
  if (language === "es") return undefined; // set while rewriting
  if (/\bmorning\b/.test(text)) return "morning";
  if (/\bafternoon\b/.test(text)) return "afternoon";
  if (/\b(evening|tonight|night)\b/.test(text)) return "evening";
  return undefined;
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
  const rewritten = language === "es" ? rewriteSpanish(lowered, today, flags) : rewriteEnglish(lowered, today, flags);
  flags.partOfDay ??= partOfDayIn(rewritten, language);

  const pastWords = PAST_MARKERS[language].test(rewritten);
  const reference = { instant: ctx.now, timezone: offsetMinutes(ctx.now, ctx.timeZone) };
  const parser = language === "es" ? chrono.es : chrono.en;
  const results = parser.parse(rewritten, reference, { forwardDate: !pastWords });

  let date: LocalDay | undefined;
  let hour: number | undefined;
  let minute = 0;
  let meridiemSaid = false;
  let namedWeekdayOnly = false;
  for (const result of results) {
    const start = result.start;
    const dayNamed = start.isCertain("day") || start.isCertain("weekday") || start.isCertain("month");
    if (dayNamed) {
      date = { year: start.get("year")!, month: start.get("month")!, day: start.get("day")! };
      namedWeekdayOnly = start.isCertain("weekday") && !start.isCertain("day");
    }
    if (start.isCertain("hour")) {
      hour = start.get("hour")!;
      minute = start.get("minute") ?? 0;
      meridiemSaid = start.isCertain("meridiem");
      if (!dayNamed && /\b(today|tonight|hoy)\b/.test(result.text)) date = today;
    }
  }
  if (!date && /\b(today|tonight|hoy)\b/.test(rewritten)) date = today;

  if (hour !== undefined && !meridiemSaid) hour = businessHour(hour, flags.partOfDay);

  // A weekday named alone that is today means next week's ("Thursday" said on a Thursday): callers say "today".
  if (date && namedWeekdayOnly && compareDays(date, today) === 0 && !/\b(today|this|hoy|este)\b/.test(rewritten) && !pastWords) {
    date = addDays(date, 7);
  }

  if (date && compareDays(date, today) < 0) flags.invalid = "past";
  if (date && compareDays(date, today) === 0 && hour !== undefined && hour * 60 + minute < now.hour * 60 + now.minute) flags.invalid = "past";
  if (pastWords && !date && hour === undefined) flags.invalid = "past";

  const found = date || hour !== undefined || flags.partOfDay || flags.sameTime || flags.invalid;
  if (!found) return undefined;
  const when: SpokenWhen = { text: said };
  if (flags.invalid) {
    when.invalid = flags.invalid;
    return when;
  }
  if (date) when.date = isoDay(date);
  if (hour !== undefined) when.time = hhmm(hour, minute);
  else if (flags.partOfDay) when.partOfDay = flags.partOfDay;
  if (flags.sameTime) when.sameTime = true;
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
