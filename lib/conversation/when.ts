/**
 * The one reading of a spoken day and time for the whole product: the booking dialogue, the
 * language model's date tool and the engine all call `whenSaid`, so "the Tuesday after next" means
 * one thing everywhere. The day is read in the business's time zone against the call's clock
 * (`today` is the business's local date of the turn). A day that does not exist ("February 30th")
 * or has passed is returned as `invalid`: the caller is asked again, never guessed for.
 */
import { addDays, weekdayOf, WEEKDAYS } from "@/lib/appointments/time";
import { parseDay, parseDayPart, parseTime } from "@/lib/appointments/dialogue/parse";
import type { SpokenWhen } from "./understanding/types";

export type WhenContext = {
  /** The business's local date ("YYYY-MM-DD") at the call's clock. */
  today: string;
};

const MONTHS: Record<string, number> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6, july: 7, jul: 7,
  august: 8, aug: 8, september: 9, sept: 9, sep: 9, october: 10, oct: 10, november: 11, nov: 11, december: 12, dec: 12,
  enero: 1, febrero: 2, marzo: 3, abril: 4, mayo: 5, junio: 6, julio: 7, agosto: 8, septiembre: 9, setiembre: 9, octubre: 10, noviembre: 11, diciembre: 12,
};
/** Index in WEEKDAYS (Monday first). */
const WEEKDAY_WORDS: Record<string, number> = {
  monday: 0, tuesday: 1, wednesday: 2, thursday: 3, friday: 4, saturday: 5, sunday: 6,
  lunes: 0, martes: 1, miercoles: 2, miércoles: 2, jueves: 3, viernes: 4, sabado: 5, sábado: 5, domingo: 6,
};

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** "February 30th", "the 31st of April", "30 de febrero": a day the calendar does not have. */
function nonexistentDay(text: string, today: string): boolean {
  const t = text.toLowerCase();
  const names = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join("|");
  const year = Number(today.slice(0, 4));
  const check = (month: number, day: number) => day > 0 && day > Math.max(daysInMonth(year, month), daysInMonth(year + 1, month));
  const monthFirst = new RegExp(`\\b(${names})\\.? (?:the )?(\\d{1,2})(?:st|nd|rd|th)?\\b`).exec(t);
  if (monthFirst && check(MONTHS[monthFirst[1]], Number(monthFirst[2]))) return true;
  const dayFirst = new RegExp(`\\b(?:the )?(\\d{1,2})(?:st|nd|rd|th)? (?:of |de )?(${names})\\b`).exec(t);
  if (dayFirst && check(MONTHS[dayFirst[2]], Number(dayFirst[1]))) return true;
  return false;
}

/** "the Tuesday after next", "el martes de la semana que viene" → that weekday a week after the next one. */
function weekdayAfterNext(text: string, today: string): string | null {
  const t = text.toLowerCase();
  const names = Object.keys(WEEKDAY_WORDS).join("|");
  const m = new RegExp(`\\b(${names}) after next\\b`).exec(t) ?? new RegExp(`\\b(${names}) (?:de )?la (?:semana que viene|pr[oó]xima semana)\\b`).exec(t);
  if (!m) return null;
  const target = WEEKDAY_WORDS[m[1]];
  const current = WEEKDAYS.indexOf(weekdayOf(today));
  let ahead = (target - current + 7) % 7;
  if (ahead === 0) ahead = 7;
  return addDays(today, ahead + (/after next/.test(m[0]) ? 7 : 0));
}

const PAST = /\b(yesterday|last (monday|tuesday|wednesday|thursday|friday|saturday|sunday|week)|ayer)\b/i;
const SAME_TIME = /\b(same time|same hour|at the same time|a la misma hora|misma hora)\b/i;

/** The day and time the words name, or undefined when they name none. */
export function whenSaid(text: string, ctx: WhenContext): SpokenWhen | undefined {
  const said = text.trim();
  if (!said) return undefined;
  if (nonexistentDay(said, ctx.today)) return { text: said, invalid: "nonexistent" };
  if (PAST.test(said)) return { text: said, invalid: "past" };
  const date = weekdayAfterNext(said, ctx.today) ?? parseDay(said, ctx.today) ?? undefined;
  if (date && date < ctx.today) return { text: said, date, invalid: "past" };
  const sameTime = SAME_TIME.test(said);
  const time = sameTime ? undefined : (parseTime(said) ?? undefined);
  const partOfDay = time ? undefined : (parseDayPart(said) ?? undefined);
  if (!date && !time && !partOfDay && !sameTime) return undefined;
  return { text: said, ...(date ? { date } : {}), ...(time ? { time } : {}), ...(partOfDay ? { partOfDay } : {}), ...(sameTime ? { sameTime } : {}) };
}

const ORDINAL = (n: number) => {
  const s = ["th", "st", "nd", "rd"];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
};

/**
 * A read-back of a local date and time that names weekday and date: "Tuesday, December 8th at 3 PM"
 * (Spanish: "el martes 8 de diciembre a las 3 de la tarde").
 */
export function formatWhen(date: string, time: string | undefined, lang: "en" | "es" = "en"): string {
  const d = new Date(`${date}T12:00:00Z`);
  const day = d.getUTCDate();
  if (lang === "es") {
    const weekday = new Intl.DateTimeFormat("es-ES", { timeZone: "UTC", weekday: "long" }).format(d);
    const month = new Intl.DateTimeFormat("es-ES", { timeZone: "UTC", month: "long" }).format(d);
    if (!time) return `el ${weekday} ${day} de ${month}`;
    const [h, m] = time.split(":").map(Number);
    const hour = h % 12 === 0 ? 12 : h % 12;
    const part = h < 12 ? "de la mañana" : h < 20 ? "de la tarde" : "de la noche";
    return `el ${weekday} ${day} de ${month} a la${hour === 1 ? "" : "s"} ${hour}${m ? `:${String(m).padStart(2, "0")}` : ""} ${part}`;
  }
  const weekday = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "long" }).format(d);
  const month = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "long" }).format(d);
  if (!time) return `${weekday}, ${month} ${ORDINAL(day)}`;
  const [h, m] = time.split(":").map(Number);
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${weekday}, ${month} ${ORDINAL(day)} at ${hour}${m ? `:${String(m).padStart(2, "0")}` : ""} ${h < 12 ? "AM" : "PM"}`;
}
