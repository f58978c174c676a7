import type { TimeRange } from "@/db/schema/organizations";
import { WEEKDAYS, type Weekday } from "../schema";

/**
 * Opening hours in the words websites use: "Mon–Fri 9am–5pm", "Monday - Friday: 8:00 AM - 6:00 PM",
 * "Sat 9–1", "Sunday: Closed", "Tue, Thu 10:00–14:00, 15:00–18:00", "Weekdays 8-12 & 1-5",
 * "Open daily 7am to 3pm", "Open 24 hours", table rows "Monday | 9:00 AM | 5:00 PM", and
 * schema.org's "Mo-Fr 09:00-17:00". Deterministic; what it cannot read it leaves out.
 */

const DAY_PATTERNS: [Weekday, string][] = [
  ["mon", "mon(?:day)?s?|mo"],
  ["tue", "tue(?:s(?:day)?)?s?|tu"],
  ["wed", "wed(?:nesday)?s?|we"],
  ["thu", "thu(?:r(?:s(?:day)?)?)?s?|th"],
  ["fri", "fri(?:day)?s?|fr"],
  ["sat", "sat(?:urday)?s?|sa"],
  ["sun", "sun(?:day)?s?|su"],
];
const DAY = `(?:${DAY_PATTERNS.map(([, p]) => p).join("|")})\\.?`;
const DAY_RANGE_SEP = `\\s*(?:-|–|—|to|through|thru|until|till)\\s*`;
const DAY_SPEC = new RegExp(
  `\\b(?:(${DAY})(?:${DAY_RANGE_SEP}(${DAY}))?|(weekdays?|week ?days|weekends?|daily|every ?day|7 days(?: a week)?|seven days(?: a week)?|all week)|(monday to friday|mon-fri))(?![a-z])`,
  "gi",
);

const MERIDIEM = `(?:a\\.?\\s?m\\.?|p\\.?\\s?m\\.?|am|pm)`;
const TIME = `(?:(\\d{1,2})(?:[:.h](\\d{2}))?\\s*(${MERIDIEM})?|noon|midday|midnight)`;
const RANGE = new RegExp(`(${TIME})\\s*(?:-|–|—|~|\\||to|until|till|'til)\\s*(${TIME})`, "gi");

export function dayOf(word: string): Weekday | null {
  const w = word.toLowerCase().replace(/\.$/, "");
  for (const [day, pattern] of DAY_PATTERNS) if (new RegExp(`^(?:${pattern})$`).test(w)) return day;
  return null;
}

function expand(from: Weekday, to: Weekday): Weekday[] {
  const a = WEEKDAYS.indexOf(from);
  const b = WEEKDAYS.indexOf(to);
  if (a <= b) return WEEKDAYS.slice(a, b + 1);
  return [...WEEKDAYS.slice(a), ...WEEKDAYS.slice(0, b + 1)];
}

type ParsedTime = { minutes: number; meridiem: "am" | "pm" | null; explicit24: boolean };

function parseTime(text: string): ParsedTime | null {
  const t = text.trim().toLowerCase();
  if (t === "noon" || t === "midday") return { minutes: 12 * 60, meridiem: "pm", explicit24: false };
  if (t === "midnight") return { minutes: 24 * 60, meridiem: null, explicit24: true };
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?\s*(a\.?\s?m\.?|p\.?\s?m\.?|am|pm)?$/.exec(t);
  if (!m) return null;
  const hour = Number(m[1]);
  const minute = m[2] ? Number(m[2]) : 0;
  if (hour > 24 || minute > 59) return null;
  const meridiem = m[3] ? (m[3].startsWith("a") ? "am" : "pm") : null;
  if (meridiem && (hour === 0 || hour > 12)) return null;
  const explicit24 = !meridiem && (hour > 12 || hour === 0 || /^0\d/.test(m[1]));
  return { minutes: hour * 60 + minute, meridiem, explicit24 };
}

function applyMeridiem(t: ParsedTime, meridiem: "am" | "pm"): number {
  const hour = Math.floor(t.minutes / 60) % 12;
  return (hour + (meridiem === "pm" ? 12 : 0)) * 60 + (t.minutes % 60);
}

function clock(minutes: number): string {
  if (minutes >= 24 * 60) return "24:00";
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** "9am", "5pm" → 09:00–17:00; "9-5" → 09:00–17:00; "1-5" → 13:00–17:00; "12-8" → 12:00–20:00. */
export function parseRange(openText: string, closeText: string): TimeRange | null {
  const a = parseTime(openText);
  const b = parseTime(closeText);
  if (!a || !b) return null;
  let open: number;
  let close: number;
  if (a.explicit24 || b.explicit24) {
    open = a.meridiem ? applyMeridiem(a, a.meridiem) : a.minutes;
    close = b.meridiem ? applyMeridiem(b, b.meridiem) : b.minutes;
  } else if (a.meridiem && b.meridiem) {
    open = applyMeridiem(a, a.meridiem);
    close = applyMeridiem(b, b.meridiem);
    if (b.meridiem === "am" && close === 0) close = 24 * 60; // "6pm–12am"
  } else if (b.meridiem) {
    close = applyMeridiem(b, b.meridiem);
    open = applyMeridiem(a, b.meridiem);
    if (open >= close) open = applyMeridiem(a, "am"); // "9-5pm"
  } else if (a.meridiem) {
    open = applyMeridiem(a, a.meridiem);
    close = applyMeridiem(b, "pm");
    if (close <= open) close = applyMeridiem(b, "am");
  } else {
    // No meridiem at all: business hours are daytime. "9-5" → 9–17, "1-5" → 13–17, "12-8" → 12–20.
    open = a.minutes;
    close = b.minutes;
    if (open < 7 * 60) {
      open += 12 * 60;
      close += 12 * 60;
    } else if (close <= open) close += 12 * 60;
  }
  if (close === 0) close = 24 * 60;
  if (!(open < close) || open < 0 || close > 24 * 60) return null;
  return { open: clock(open), close: clock(close) };
}

export type DayHoursMatch = { days: Weekday[]; ranges: TimeRange[]; closed: boolean };

/** The time ranges written in a piece of text, in order. */
export function findRanges(text: string): TimeRange[] {
  if (/\b(open )?24 ?(hours|hrs|\/7)\b/i.test(text)) return [{ open: "00:00", close: "24:00" }];
  const out: TimeRange[] = [];
  RANGE.lastIndex = 0;
  for (let m = RANGE.exec(text); m; m = RANGE.exec(text)) {
    const range = parseRange(m[1], m[5]);
    if (range && !out.some((r) => r.open === range.open && r.close === range.close)) out.push(range);
  }
  return out;
}

function daysOfSpec(m: RegExpExecArray): Weekday[] {
  if (m[3]) {
    const w = m[3].toLowerCase();
    if (w.startsWith("weekend")) return ["sat", "sun"];
    if (w.startsWith("week")) return ["mon", "tue", "wed", "thu", "fri"];
    return [...WEEKDAYS];
  }
  if (m[4]) return ["mon", "tue", "wed", "thu", "fri"];
  const from = dayOf(m[1]);
  const to = m[2] ? dayOf(m[2]) : null;
  if (!from) return [];
  return to ? expand(from, to) : [from];
}

/** Two-letter day codes ("mo", "sa") only count in schema.org's compact form, never in prose. */
const SHORT_CODE = /^(mo|tu|we|th|fr|sa|su)$/i;

/**
 * The days and hours written on one line: "Mon–Fri 9–5, Sat 10–2, Sun closed" →
 * [{days: mon…fri, ranges: [09:00–17:00]}, {days: [sat], …}, {days: [sun], closed: true}].
 * Each group of days takes the times (or "closed") written after it, before the next days.
 */
export function parseHoursLine(line: string, options: { compactCodes?: boolean } = {}): DayHoursMatch[] {
  const specs: { days: Weekday[]; start: number; end: number }[] = [];
  DAY_SPEC.lastIndex = 0;
  for (let m = DAY_SPEC.exec(line); m; m = DAY_SPEC.exec(line)) {
    const word = m[1] ?? "";
    if (!options.compactCodes && SHORT_CODE.test(word.replace(/\.$/, ""))) continue;
    // "Sun" or "Sat" in a sentence ("the sun", "we sat") is not a day unless times or a list follow.
    const days = daysOfSpec(m);
    if (days.length) specs.push({ days, start: m.index, end: m.index + m[0].length });
  }
  if (specs.length === 0) return [];
  // Days joined by commas, "and", "&" or "/" share the times that follow them.
  const groups: { days: Weekday[]; end: number; start: number }[] = [];
  for (const spec of specs) {
    const last = groups[groups.length - 1];
    const between = last ? line.slice(last.end, spec.start) : "";
    if (last && /^\s*(,|&|and|\/|\+|or)?\s*$/i.test(between)) {
      last.days.push(...spec.days.filter((d) => !last.days.includes(d)));
      last.end = spec.end;
    } else groups.push({ days: [...spec.days], start: spec.start, end: spec.end });
  }
  const out: DayHoursMatch[] = [];
  groups.forEach((group, i) => {
    const tail = line.slice(group.end, groups[i + 1]?.start ?? line.length);
    let ranges = findRanges(tail);
    // "9am–5pm Monday to Friday", "Open 24 hours, 7 days a week": times written before the only days.
    if (ranges.length === 0 && groups.length === 1) ranges = findRanges(line.slice(0, group.start));
    const closed = ranges.length === 0 && /\b(closed|by appointment only|no hours)\b/i.test(tail);
    out.push({ days: group.days, ranges, closed });
  });
  return out;
}

/** True when a line is only times ("9:00 AM – 5:00 PM"): hours for the days on the line before. */
export function isTimesOnly(line: string): boolean {
  const ranges = findRanges(line);
  if (ranges.length === 0) return /^\s*closed\s*$/i.test(line);
  const rest = line.replace(RANGE, "").replace(/\b(open|hours?|from|and|&|,|\||:)\b/gi, "").replace(/[\s,&|:;.-]/g, "");
  return rest.length <= 3;
}

/** schema.org openingHours strings: "Mo-Fr 09:00-17:00", "Sa 10:00-14:00", "Mo,We 09:00-12:00". */
export function parseSchemaOpeningHours(value: string): DayHoursMatch[] {
  return parseHoursLine(value, { compactCodes: true });
}
