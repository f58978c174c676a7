/**
 * Wall-clock time in an IANA time zone, with daylight saving handled, on nothing but Intl (no date
 * library). Dates are "YYYY-MM-DD", clock times "HH:MM" (24 h). Pure: used by the server and screens.
 */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const MINUTE = 60_000;
const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "short",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

type Fields = { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: Weekday };

function fieldsAt(instant: Date, timeZone: string): Fields {
  const parts: Record<string, string> = {};
  for (const p of partsFormatter(timeZone).formatToParts(instant)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: parts.weekday.slice(0, 3).toLowerCase() as Weekday,
  };
}

/** The zone's offset from UTC at an instant, in minutes (New York in winter: −300). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  const f = fieldsAt(instant, timeZone);
  const asUtc = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / MINUTE);
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The local date, time and weekday of an instant in a zone. */
export function toZoned(instant: Date, timeZone: string): { date: string; time: string; weekday: Weekday } {
  const f = fieldsAt(instant, timeZone);
  return { date: `${f.year}-${pad(f.month)}-${pad(f.day)}`, time: `${pad(f.hour)}:${pad(f.minute)}`, weekday: f.weekday };
}

function parseDate(date: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new Error(`Not a date: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function parseTime(time: string): [number, number] {
  const m = /^(\d{2}):(\d{2})$/.exec(time);
  if (!m) throw new Error(`Not a time: ${time}`);
  return [Number(m[1]), Number(m[2])];
}

/**
 * The instant a local date and time happen in a zone. A time skipped by a spring-forward gap is
 * moved forward by the gap (02:30 → 03:30); a time that happens twice at a fall-back takes the
 * first (like Temporal's "compatible").
 */
export function fromZoned(date: string, time: string, timeZone: string): Date {
  const [y, mo, d] = parseDate(date);
  const [h, mi] = parseTime(time);
  const local = Date.UTC(y, mo - 1, d, h, mi);
  const before = offsetMinutes(new Date(local - DAY), timeZone);
  const after = offsetMinutes(new Date(local + DAY), timeZone);
  const candidates = [...new Set([local - before * MINUTE, local - after * MINUTE])].sort((a, b) => a - b);
  const wanted = `${date} ${time}`;
  for (const t of candidates) {
    const z = toZoned(new Date(t), timeZone);
    if (`${z.date} ${z.time}` === wanted) return new Date(t);
  }
  // In a gap: the offset before the change, which lands after it by the gap's length.
  return new Date(local - before * MINUTE);
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = parseDate(date);
  return new Date(Date.UTC(y, m - 1, d) + days * DAY).toISOString().slice(0, 10);
}

export function weekdayOf(date: string): Weekday {
  const [y, m, d] = parseDate(date);
  return WEEKDAYS[(new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7];
}

/** Minutes since midnight of "HH:MM". */
export function minutesOf(time: string): number {
  const [h, m] = parseTime(time);
  return h * 60 + m;
}

const describers = new Map<string, Intl.DateTimeFormat[]>();

/**
 * How an instant is read back to a caller in the business's zone: "Tuesday", "March 16, 2027",
 * "2:30 PM". Always en-US for now: the assistant speaks English.
 */
export function describeInstant(instant: Date, timeZone: string): { day: string; date: string; time: string; zone: string } {
  let f = describers.get(timeZone);
  if (!f) {
    f = [
      new Intl.DateTimeFormat("en-US", { timeZone, weekday: "long" }),
      new Intl.DateTimeFormat("en-US", { timeZone, month: "long", day: "numeric", year: "numeric" }),
      new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit" }),
      new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }),
    ];
    describers.set(timeZone, f);
  }
  const zone = f[3].formatToParts(instant).find((p) => p.type === "timeZoneName")?.value ?? timeZone;
  return { day: f[0].format(instant), date: f[1].format(instant), time: f[2].format(instant), zone };
}
