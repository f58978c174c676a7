import type { ImportFactInput } from "@/lib/knowledge/business-profile/facts";
import { formatRanges } from "@/lib/knowledge/business-profile/hours";
import { WEEKDAYS, WEEKDAY_NAMES } from "@/lib/knowledge/business-profile/schema";
import { formatDuration, formatPrice } from "@/lib/knowledge/services/schema";

/** How the Business screen and the import review show facts and services. */

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export function timeZones(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf("timeZone");
  } catch {
    zones = ["America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles", "Europe/London", "UTC"];
  }
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}

export function servicePrice(service: { priceCents: number | null; priceText: string | null }, currency = "USD"): string {
  if (service.priceCents != null) return formatPrice(service.priceCents, currency);
  return service.priceText ?? "No price";
}

/** "Thu, Nov 26, 2026" for "2026-11-26" (read as a calendar date, not a moment). */
export function formatDate(date: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  return d.toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
}

export const FACT_GROUPS: { kind: ImportFactInput["kind"]; title: string }[] = [
  { kind: "name", title: "Business name" },
  { kind: "address", title: "Address" },
  { kind: "phone", title: "Phone" },
  { kind: "website", title: "Website" },
  { kind: "timezone", title: "Time zone" },
  { kind: "hours", title: "Opening hours" },
  { kind: "holiday", title: "Holidays and special hours" },
  { kind: "service", title: "Services" },
  { kind: "policy", title: "Policies" },
  { kind: "faq", title: "Questions and answers" },
];

/** A fact in a line or two: the label and the value as the owner confirms it. */
export function describeFact(fact: ImportFactInput, currency = "USD"): { label: string; detail: string } {
  switch (fact.kind) {
    case "name":
    case "address":
    case "phone":
    case "website":
    case "timezone":
      return { label: fact.value, detail: "" };
    case "hours":
      return {
        label: "Weekly hours",
        detail: WEEKDAYS.filter((d) => fact.weeklyHours[d] !== undefined)
          .map((d) => `${WEEKDAY_NAMES[d]}: ${formatRanges(fact.weeklyHours[d])}`)
          .join(" · "),
      };
    case "holiday":
      return { label: `${formatDate(fact.date)}${fact.name ? ` — ${fact.name}` : ""}`, detail: formatRanges(fact.hours) };
    case "service": {
      const price = fact.priceCents !== undefined ? formatPrice(fact.priceCents, currency) : (fact.priceText ?? "no price given");
      const parts = [price, fact.durationMinutes ? formatDuration(fact.durationMinutes) : null].filter(Boolean);
      return { label: fact.name, detail: [parts.join(" · "), fact.description].filter(Boolean).join(" — ") };
    }
    case "policy":
      return { label: fact.title, detail: fact.text };
    case "faq":
      return { label: fact.question, detail: fact.answer };
  }
}

/** "2 hours ago", "3 days ago" for an ISO time (the gap list's "last asked"). */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  const units: [number, string][] = [
    [86400 * 30, "month"],
    [86400 * 7, "week"],
    [86400, "day"],
    [3600, "hour"],
    [60, "minute"],
  ];
  for (const [size, unit] of units) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
  }
  return "just now";
}

export const SOURCE_LABELS: Record<string, string> = {
  call: "a call",
  sms: "a text",
  voice_test: "a voice test",
  chat: "a chat",
};
