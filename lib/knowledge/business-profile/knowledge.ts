import type { BusinessProfile } from "@/db/schema/organizations";
import type { BusinessInfo, KnowledgeDay, KnowledgeService } from "@/lib/platform/providers/llm/interface";
import { formatDuration, formatPrice } from "@/lib/knowledge/services/schema";
import { addDays, formatClock, formatRanges, hasWeeklyHours, hoursOn, localMoment, openStatus, summarizeWeek, weekdayOf } from "./hours";
import { WEEKDAYS, WEEKDAY_NAMES } from "./schema";

/**
 * The business's knowledge rendered for the assistant (lib/platform/providers/llm BusinessInfo): hours per
 * day and "open now?" computed here, in the organization's time zone at the moment of the turn, so
 * the providers (pure) only read words. Pure: the caller loads the rows and passes the clock.
 */
export type KnowledgeServiceRow = {
  name: string;
  description: string;
  durationMinutes: number;
  priceCents: number | null;
  priceText: string | null;
  bookable: boolean;
  isActive: boolean;
};

/** How far ahead holidays and special hours are told (today's and the next days' are always in `nextDays`). */
export const SPECIAL_DAYS_AHEAD = 120;

function spokenStatus(profile: BusinessProfile, now: Date): BusinessInfo["now"] | undefined {
  const status = openStatus(profile, now);
  if (!status) return undefined;
  const weekday = WEEKDAY_NAMES[status.local.weekday];
  const time = formatClock(`${String(Math.floor(status.local.minutes / 60)).padStart(2, "0")}:${String(status.local.minutes % 60).padStart(2, "0")}`).replace(
    "midnight",
    "12 AM",
  );
  let sentence: string;
  if (status.openNow) sentence = `We're open right now, until ${formatClock(status.closesAt!)}.`;
  else if (status.nextOpen) {
    const when =
      status.nextOpen.date === status.local.date
        ? "later today"
        : status.nextOpen.date === addDays(status.local.date, 1)
          ? "tomorrow"
          : `on ${WEEKDAY_NAMES[status.nextOpen.weekday]}`;
    sentence = `We're closed right now; we open ${when} at ${formatClock(status.nextOpen.time)}.`;
  } else sentence = "We're closed right now.";
  return { date: status.local.date, weekday, time, openNow: status.openNow, status: sentence };
}

function day(profile: BusinessProfile, date: string, today: string): KnowledgeDay {
  const hours = hoursOn(profile, date);
  const label = date === today ? "today" : date === addDays(today, 1) ? "tomorrow" : WEEKDAY_NAMES[weekdayOf(date)];
  return {
    date,
    weekday: WEEKDAY_NAMES[hours.weekday],
    label,
    hours: formatRanges(hours.ranges),
    ...(hours.holiday ? { note: hours.holiday.name || "holiday" } : {}),
  };
}

export function renderService(service: KnowledgeServiceRow, currency = "USD"): KnowledgeService {
  const price = service.priceCents != null ? formatPrice(service.priceCents, currency) : service.priceText || undefined;
  return {
    name: service.name,
    ...(service.description ? { description: service.description } : {}),
    duration: formatDuration(service.durationMinutes),
    ...(price ? { price } : {}),
    bookable: service.bookable,
  };
}

export function renderKnowledge(name: string, profile: BusinessProfile, services: KnowledgeServiceRow[], now: Date): BusinessInfo {
  const active = services.filter((s) => s.isActive);
  const info: BusinessInfo = { name };
  if (profile.address) info.address = profile.address;
  if (profile.phone) info.phone = profile.phone;
  if (profile.website) info.website = profile.website;
  if (profile.timezone) info.timezone = profile.timezone;

  const structured = hasWeeklyHours(profile) || (profile.holidays?.length ?? 0) > 0;
  if (hasWeeklyHours(profile)) {
    info.hours = summarizeWeek(profile.weeklyHours);
    info.weeklyHours = WEEKDAYS.map((d) => ({ day: WEEKDAY_NAMES[d], hours: formatRanges(profile.weeklyHours?.[d]) }));
  } else if (profile.hours) {
    info.hours = profile.hours;
  }
  if (structured && profile.timezone) {
    const today = localMoment(now, profile.timezone).date;
    info.now = spokenStatus(profile, now);
    info.nextDays = Array.from({ length: 7 }, (_, i) => day(profile, addDays(today, i), today));
    const horizon = addDays(today, SPECIAL_DAYS_AHEAD);
    const special = (profile.holidays ?? []).filter((h) => h.date >= today && h.date <= horizon).map((h) => day(profile, h.date, today));
    if (special.length) info.specialDays = special;
  }

  const names = active.map((s) => s.name);
  for (const legacy of profile.services ?? []) if (!names.some((n) => n.toLowerCase() === legacy.toLowerCase())) names.push(legacy);
  if (names.length) info.services = names;
  if (active.length) info.serviceDetails = active.map((s) => renderService(s, profile.currency));
  if (profile.policies?.length) info.policies = profile.policies;
  if (profile.faqs?.length) info.faqs = profile.faqs;
  return info;
}
