import type { BusinessHours } from "@/db/schema";
import { isTimeZone, toZoned } from "@/lib/scheduling/time";
import { WEEKDAYS, type Weekday } from "./schema";

/**
 * A number's business hours ({timezone, days: {mon: {open: "07:00", close: "15:00"} | null, …}})
 * as words and as "open at this moment". Pure: the voice service (lib/phone/voice/context.ts) and call
 * routing use the same reading.
 */

const DAY_LABEL: Record<Weekday, string> = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };

/** "07:00" → "7 AM", "15:30" → "3:30 PM", "12:00" → "12 PM", "00:00" → "12 AM". */
export function spokenTime(clock: string): string {
  const [h, m] = clock.split(":").map(Number);
  const suffix = h < 12 ? "AM" : "PM";
  const hour = h % 12 === 0 ? 12 : h % 12;
  return m ? `${hour}:${String(m).padStart(2, "0")} ${suffix}` : `${hour} ${suffix}`;
}

/**
 * "Tue–Sun 7 AM–3 PM", "Mon–Fri 9 AM–5 PM, Sat 10 AM–2 PM": consecutive days with the same hours are
 * one range; closed days are left out. Null when no day is open.
 */
export function describeBusinessHours(hours: BusinessHours | null | undefined): string | null {
  if (!hours?.days) return null;
  const groups: { from: Weekday; to: Weekday; span: string }[] = [];
  for (const day of WEEKDAYS) {
    const slot = hours.days[day];
    if (!slot) continue;
    const span = `${spokenTime(slot.open)}–${spokenTime(slot.close)}`;
    const last = groups[groups.length - 1];
    const previous = WEEKDAYS[WEEKDAYS.indexOf(day) - 1];
    if (last && last.span === span && last.to === previous) last.to = day;
    else groups.push({ from: day, to: day, span });
  }
  if (groups.length === 0) return null;
  return groups
    .map((g) => {
      if (g.from === g.to) return `${DAY_LABEL[g.from]} ${g.span}`;
      const adjacent = WEEKDAYS.indexOf(g.to) - WEEKDAYS.indexOf(g.from) === 1;
      return `${DAY_LABEL[g.from]}${adjacent ? ", " : "–"}${DAY_LABEL[g.to]} ${g.span}`;
    })
    .join(", ");
}

/** Whether `at` falls inside the hours, read in the hours' own time zone. Null when the zone is unknown. */
export function isOpenAt(hours: BusinessHours, at: Date): boolean | null {
  if (!isTimeZone(hours.timezone)) return null;
  const { weekday, time } = toZoned(at, hours.timezone);
  const slot = hours.days?.[weekday];
  return Boolean(slot && slot.open <= time && time < slot.close);
}
