/**
 * Times the way a business reads them (issue 30): in its own zone and in words — "Tue Dec 1, 2:00 PM",
 * never "2026-12-01 20:00 UTC". Pure, so the recap job, its e-mail and the Recaps page share it.
 */
function parts(at: Date, timeZone: string, withTime: boolean) {
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "short",
    month: "short",
    day: "numeric",
    ...(withTime ? { hour: "numeric", minute: "2-digit" } : {}),
  });
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  const day = `${p.weekday} ${p.month} ${p.day}`;
  return withTime ? `${day}, ${p.hour}:${p.minute} ${p.dayPeriod}` : day;
}

/** "Tue Dec 1, 2:00 PM" in the zone; an unknown zone falls back to UTC and says so. */
export function inZone(at: Date, timezone: string): string {
  try {
    return parts(at, timezone, true);
  } catch {
    return `${parts(at, "UTC", true)} UTC`;
  }
}

/** A local calendar date "2026-12-01" in words: "Tue Dec 1". */
export function dateInWords(date: string): string {
  const at = new Date(`${date}T12:00:00Z`);
  return Number.isNaN(at.getTime()) ? date : parts(at, "UTC", false);
}
