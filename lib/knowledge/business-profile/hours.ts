import type { BusinessProfile, TimeRange } from "@/db/schema/organizations";
import { addDays, toZoned, weekdayOf } from "@/lib/scheduling/time";
import { WEEKDAYS, WEEKDAY_NAMES, type Weekday } from "./schema";

/**
 * Opening hours read in the business's time zone: what day and time it is there, which hours apply
 * on a date (a holiday's hours replace the weekday's), whether it is open now, and the words the
 * assistant says ("Monday to Friday 8 AM–6 PM"). Pure functions of the profile and a clock, so tests
 * fix the clock. Daylight saving is handled by lib/scheduling/time (wall-clock time read through Intl).
 */

export type LocalMoment = { date: string; weekday: Weekday; minutes: number };

/** The wall-clock date, weekday and minute of the day at `now` in `timeZone` (read by lib/scheduling/time). */
export function localMoment(now: Date, timeZone: string): LocalMoment {
  const { date, time, weekday } = toZoned(now, timeZone);
  return { date, weekday, minutes: toMinutes(time) };
}

export function toMinutes(clock: string): number {
  const [h, m] = clock.split(":").map(Number);
  return h * 60 + m;
}

/** "YYYY-MM-DD" plus n days, and the weekday of a date: calendar arithmetic, no time zone involved. */
export { addDays, weekdayOf };

export type DayHours = { date: string; weekday: Weekday; ranges: TimeRange[]; holiday: { name?: string } | null };

/** The hours that apply on a date: a holiday's (closed when it lists none), else the weekday's. */
export function hoursOn(profile: BusinessProfile, date: string): DayHours {
  const weekday = weekdayOf(date);
  const holiday = profile.holidays?.find((h) => h.date === date);
  if (holiday) return { date, weekday, ranges: holiday.hours ?? [], holiday: { name: holiday.name } };
  return { date, weekday, ranges: profile.weeklyHours?.[weekday] ?? [], holiday: null };
}

export function hasWeeklyHours(profile: BusinessProfile): boolean {
  return WEEKDAYS.some((d) => (profile.weeklyHours?.[d]?.length ?? 0) > 0);
}

/** "09:00" → "9 AM", "13:30" → "1:30 PM", "12:00" → "12 PM", "24:00"/"00:00" → "midnight". */
export function formatClock(clock: string): string {
  if (clock === "24:00" || clock === "00:00") return "midnight";
  const [h, m] = clock.split(":").map(Number);
  const suffix = h < 12 ? "AM" : "PM";
  const hour = h % 12 === 0 ? 12 : h % 12;
  return m === 0 ? `${hour} ${suffix}` : `${hour}:${String(m).padStart(2, "0")} ${suffix}`;
}

export function formatRange(range: TimeRange): string {
  if (range.open === "00:00" && range.close === "24:00") return "open 24 hours";
  return `${formatClock(range.open)}–${formatClock(range.close)}`;
}

/** "8 AM–12 PM and 1 PM–6 PM"; no ranges → "closed". */
export function formatRanges(ranges: TimeRange[] | undefined): string {
  if (!ranges || ranges.length === 0) return "closed";
  const parts = ranges.map(formatRange);
  return parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** Consecutive weekdays with the same hours, grouped: "Monday to Friday 8 AM–6 PM; Saturday 9 AM–1 PM; Sunday closed". */
export function summarizeWeek(weeklyHours: BusinessProfile["weeklyHours"]): string {
  const groups: { from: Weekday; to: Weekday; hours: string }[] = [];
  for (const day of WEEKDAYS) {
    const hours = formatRanges(weeklyHours?.[day]);
    const last = groups[groups.length - 1];
    if (last && last.hours === hours) last.to = day;
    else groups.push({ from: day, to: day, hours });
  }
  return groups
    .map(({ from, to, hours }) => {
      const fromIndex = WEEKDAYS.indexOf(from);
      const toIndex = WEEKDAYS.indexOf(to);
      const days =
        from === to
          ? WEEKDAY_NAMES[from]
          : toIndex === fromIndex + 1
            ? `${WEEKDAY_NAMES[from]} and ${WEEKDAY_NAMES[to]}`
            : `${WEEKDAY_NAMES[from]} to ${WEEKDAY_NAMES[to]}`;
      return `${days} ${hours}`;
    })
    .join("; ");
}

export type OpenStatus = {
  openNow: boolean;
  /** For people: "Open now until 6 PM", "Closed now; opens tomorrow at 8 AM". */
  label: string;
  /** When it closes today ("HH:MM"), while open. */
  closesAt: string | null;
  /** The next opening: date, weekday and time, while closed (null when none within two weeks). */
  nextOpen: { date: string; weekday: Weekday; time: string } | null;
  local: LocalMoment;
  timezone: string;
};

function dayWord(date: string, today: string): string {
  if (date === today) return "today";
  if (date === addDays(today, 1)) return "tomorrow";
  return WEEKDAY_NAMES[weekdayOf(date)];
}

/**
 * Open or closed at `now` in the profile's time zone, and until/from when. Null when the profile
 * has no time zone or no hours at all (nothing to say).
 */
export function openStatus(profile: BusinessProfile, now: Date): OpenStatus | null {
  const timezone = profile.timezone;
  if (!timezone || (!hasWeeklyHours(profile) && !(profile.holidays ?? []).some((h) => h.hours?.length))) return null;
  const local = localMoment(now, timezone);
  const today = hoursOn(profile, local.date);
  const current = today.ranges.find((r) => toMinutes(r.open) <= local.minutes && local.minutes < toMinutes(r.close));
  if (current) {
    // Ranges that touch (9–12, 12–17) read as one stretch.
    let closes = current.close;
    for (const r of today.ranges) if (r.open === closes) closes = r.close;
    return {
      openNow: true,
      label: `Open now until ${formatClock(closes)}`,
      closesAt: closes,
      nextOpen: null,
      local,
      timezone,
    };
  }
  for (let i = 0; i < 14; i++) {
    const date = addDays(local.date, i);
    const day = hoursOn(profile, date);
    const next = day.ranges.find((r) => i > 0 || toMinutes(r.open) > local.minutes);
    if (next) {
      const when = dayWord(date, local.date);
      const closedToday = today.holiday && i > 0 ? ` (${today.holiday.name ?? "holiday"})` : "";
      return {
        openNow: false,
        label: `Closed now${closedToday}; opens ${when} at ${formatClock(next.open)}`,
        closesAt: null,
        nextOpen: { date, weekday: day.weekday, time: next.open },
        local,
        timezone,
      };
    }
  }
  return { openNow: false, label: "Closed now", closesAt: null, nextOpen: null, local, timezone };
}
