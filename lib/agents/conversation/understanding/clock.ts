/**
 * Wall-clock arithmetic in the business's time zone, with nothing but Intl. A "local day" is a
 * { year, month (1–12), day } triple; all day arithmetic happens in UTC on those numbers, so the
 * process's own zone (UTC on servers, anything on a laptop) never leaks in.
 */

export type LocalDay = { year: number; month: number; day: number };
export type LocalMoment = LocalDay & { hour: number; minute: number; weekday: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock in `timeZone` at `instant`. */
export function localMoment(instant: Date, timeZone: string): LocalMoment {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const day = { year: parts.year, month: parts.month, day: parts.day };
  return { ...day, hour: parts.hour % 24, minute: parts.minute, weekday: weekdayOf(day) };
}

/** Minutes east of UTC of `timeZone` at `instant` (Chicago in winter: -360). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  const local = localMoment(instant, timeZone);
  const seconds = instant.getUTCSeconds();
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, seconds);
  return Math.round((asUtc - (instant.getTime() - instant.getUTCMilliseconds())) / 60000);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(day: LocalDay): number {
  return new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
}

export function addDays(day: LocalDay, days: number): LocalDay {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function compareDays(a: LocalDay, b: LocalDay): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

export function isoDay(day: LocalDay): string {
  return `${day.year}-${String(day.month).padStart(2, "0")}-${String(day.day).padStart(2, "0")}`;
}

export function parseIsoDay(text: string): LocalDay {
  const [year, month, day] = text.split("-").map(Number);
  return { year, month, day };
}

export function hhmm(hour: number, minute: number): string {
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}
