import { addDays, fromZoned, minutesOf, toZoned, weekdayOf, type Weekday } from "./time";

/**
 * Free slots, computed from plain data (no database): opening hours in the business's zone,
 * holidays, each resource's schedule, and what is already busy. lib/scheduling/service.ts loads
 * the data and calls it; the same rules hold a slot (the database constraint then has the last word).
 */
export type ClockRange = { open: string; close: string };
export type WeeklyHours = Partial<Record<Weekday, ClockRange[]>>;
export type Holiday = { date: string; name?: string; hours?: ClockRange[] };
export type Interval = { start: number; end: number };

export type ResourceSchedule = {
  /** null: the business's own calendar (a service with no linked resource). */
  id: string | null;
  followsBusinessHours: boolean;
  weeklyHours: WeeklyHours | null;
};

export type AvailabilityInput = {
  timeZone: string;
  weeklyHours: WeeklyHours;
  holidays: Holiday[];
  resources: ResourceSchedule[];
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  intervalMinutes: number;
  /** Slots starting in [from, to). */
  from: Date;
  to: Date;
  /** No slot before this (now + minimum notice) or after this (now + maximum advance). */
  earliest: Date;
  latest: Date;
  /** Busy intervals per resource id ("" for the business calendar). */
  busyByResource: Map<string, Interval[]>;
  /** Busy for everyone: business-wide blocked time, the connected calendar's busy times. */
  busyForAll: Interval[];
};

export type Slot = { startsAt: Date; endsAt: Date; resourceIds: (string | null)[] };

const MINUTE = 60_000;

/** The opening ranges of one local date for a resource, after holidays. */
export function windowsFor(date: string, input: Pick<AvailabilityInput, "weeklyHours" | "holidays">, resource: ResourceSchedule): ClockRange[] {
  const holiday = input.holidays.find((h) => h.date === date);
  const weekday = weekdayOf(date);
  const business = holiday ? (holiday.hours ?? []) : (input.weeklyHours[weekday] ?? []);
  if (resource.followsBusinessHours) return business;
  const own = resource.weeklyHours?.[weekday] ?? [];
  if (!holiday) return own;
  // A holiday closes everyone; special hours limit everyone to them.
  return intersectClock(own, business);
}

function intersectClock(a: ClockRange[], b: ClockRange[]): ClockRange[] {
  const out: ClockRange[] = [];
  for (const x of a) {
    for (const y of b) {
      const open = x.open > y.open ? x.open : y.open;
      const close = x.close < y.close ? x.close : y.close;
      if (open < close) out.push({ open, close });
    }
  }
  return out;
}

function overlapsAny(start: number, end: number, busy: Interval[]): boolean {
  for (const b of busy) if (b.start < end && start < b.end) return true;
  return false;
}

export function computeSlots(input: AvailabilityInput): Slot[] {
  const from = Math.max(input.from.getTime(), input.earliest.getTime());
  const to = Math.min(input.to.getTime(), input.latest.getTime() + 1);
  if (from >= to || input.durationMinutes <= 0 || input.intervalMinutes <= 0) return [];
  const duration = input.durationMinutes * MINUTE;
  const before = input.bufferBeforeMinutes * MINUTE;
  const after = input.bufferAfterMinutes * MINUTE;
  const step = input.intervalMinutes * MINUTE;
  const byStart = new Map<number, Slot>();
  // Local dates that can hold a slot starting in [from, to): a day either side covers every offset.
  const first = addDays(toZoned(new Date(from), input.timeZone).date, -1);
  const last = addDays(toZoned(new Date(to), input.timeZone).date, 1);
  for (const resource of input.resources) {
    const busy = [...(input.busyByResource.get(resource.id ?? "") ?? []), ...input.busyForAll];
    for (let date = first; date <= last; date = addDays(date, 1)) {
      for (const w of windowsFor(date, input, resource)) {
        if (minutesOf(w.close) <= minutesOf(w.open)) continue;
        const open = fromZoned(date, w.open, input.timeZone).getTime();
        const close = fromZoned(date, w.close, input.timeZone).getTime();
        for (let s = open; s + duration <= close; s += step) {
          if (s < from || s >= to) continue;
          if (overlapsAny(s - before, s + duration + after, busy)) continue;
          const slot = byStart.get(s);
          if (slot) slot.resourceIds.push(resource.id);
          else byStart.set(s, { startsAt: new Date(s), endsAt: new Date(s + duration), resourceIds: [resource.id] });
        }
      }
    }
  }
  return [...byStart.values()].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
}
