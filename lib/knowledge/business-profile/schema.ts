import { z } from "zod";

/**
 * The business profile (db/schema/organizations.ts `BusinessProfile`) as the Business screen's form
 * and `PUT /api/business-profile` validate it. Messages name the problem for a person.
 */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: "Monday",
  tue: "Tuesday",
  wed: "Wednesday",
  thu: "Thursday",
  fri: "Friday",
  sat: "Saturday",
  sun: "Sunday",
};

export const MAX_RANGES_PER_DAY = 4;
export const MAX_HOLIDAYS = 100;
export const MAX_POLICIES = 40;
export const MAX_FAQS = 200;

/** True when `Intl` knows the IANA time zone ("America/New_York"). */
export function isTimeZone(value: string): boolean {
  if (!value || !/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** "HH:MM", 24 h; "24:00" is allowed as a closing time (open until midnight). */
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
export const clockTime = z.string().trim().regex(CLOCK, "Use a 24-hour time such as 09:00");
const closingTime = z
  .string()
  .trim()
  .refine((v) => CLOCK.test(v) || v === "24:00", "Use a 24-hour time such as 17:30");

const bothTimes = (value: unknown) => {
  const v = value as { open?: unknown; close?: unknown } | null;
  const open = typeof v?.open === "string" ? v.open.trim() : "";
  const close = typeof v?.close === "string" ? v.close.trim() : "";
  return CLOCK.test(open) && (CLOCK.test(close) || close === "24:00");
};

export const timeRange = z.object({ open: clockTime, close: closingTime }).refine((r) => r.open < r.close, {
  message: "Closing time must be after opening time",
  path: ["close"],
  // Compare only once both times are readable; otherwise the format message says it all.
  when: (payload) => bothTimes(payload.value),
});
export type TimeRangeInput = z.infer<typeof timeRange>;

/** One day's ranges: sorted, at most four, none overlapping. Empty = closed. */
export const dayRanges = z
  .array(timeRange, "Hours must be a list of {open, close} ranges")
  .max(MAX_RANGES_PER_DAY, `At most ${MAX_RANGES_PER_DAY} time ranges per day`)
  .superRefine((ranges, ctx) => {
    const sorted = ranges.map((r, i) => ({ ...r, i })).sort((a, b) => a.open.localeCompare(b.open));
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k].open < sorted[k - 1].close) {
        ctx.addIssue({ code: "custom", path: [sorted[k].i, "open"], message: "This range overlaps another one on the same day" });
      }
    }
  })
  .transform((ranges) => [...ranges].sort((a, b) => a.open.localeCompare(b.open)));

export const weeklyHours = z.strictObject(
  {
    mon: dayRanges.optional(),
    tue: dayRanges.optional(),
    wed: dayRanges.optional(),
    thu: dayRanges.optional(),
    fri: dayRanges.optional(),
    sat: dayRanges.optional(),
    sun: dayRanges.optional(),
  },
  "Weekly hours must be an object keyed mon, tue, wed, thu, fri, sat, sun",
);

/** A real calendar date "YYYY-MM-DD". */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export const isoDate = z.string().trim().refine(isIsoDate, "Use a date such as 2026-12-25");

export const holiday = z.object({
  date: isoDate,
  name: z.string().trim().max(80, "Name must be at most 80 characters").optional(),
  /** Left out or empty: closed all day. */
  hours: dayRanges.optional(),
});

export const policy = z.object({
  title: z.string().trim().min(1, "Give the policy a title").max(80, "Title must be at most 80 characters"),
  text: z.string().trim().min(1, "Write the policy").max(2000, "Policy must be at most 2000 characters"),
});

export const faq = z.object({
  question: z.string().trim().min(1, "Write the question").max(300, "Question must be at most 300 characters"),
  answer: z.string().trim().min(1, "Write the answer").max(2000, "Answer must be at most 2000 characters"),
});

/** Text that may be cleared: "" or null clears it (null), left out keeps it (undefined). */
const clearableText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => (v === "" ? null : v));

/** "example.com" → "https://example.com"; only http(s). */
export function normalizeWebsite(value: string): string {
  const trimmed = value.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

/** A website address, normalised; "" → null. */
export const website = z
  .string()
  .trim()
  .max(300, "Website must be at most 300 characters")
  .transform((v, ctx) => {
    if (!v) return null;
    const normalized = normalizeWebsite(v);
    try {
      const url = new URL(normalized);
      if ((url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".") && !url.username && !url.password) {
        return url.toString();
      }
    } catch {
      // reported below
    }
    ctx.addIssue({ code: "custom", message: "Enter your website's address, e.g. https://example.com" });
    return z.NEVER;
  });

export function looksLikePhone(v: string): boolean {
  return /^[+()\d\s.\-–]{7,40}$/.test(v) && (v.match(/\d/g) ?? []).length >= 7;
}

export const businessPhone = z
  .string()
  .trim()
  .max(40, "Phone must be at most 40 characters")
  .refine((v) => v === "" || looksLikePhone(v), "Enter a phone number, e.g. +1 503 555 0142")
  .transform((v) => (v === "" ? null : v));

export const currencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine((v) => {
    if (!/^[A-Z]{3}$/.test(v)) return false;
    try {
      new Intl.NumberFormat("en-US", { style: "currency", currency: v });
      return true;
    } catch {
      return false;
    }
  }, "Use a 3-letter currency code such as USD");

/**
 * PUT /api/business-profile. Every field is optional: fields sent replace what is stored, fields left
 * out are kept; "" or null clears a text field. Hours need a time zone (sent or stored) — checked in
 * the service, which sees both.
 */
export const businessProfileInput = z
  .object({
    name: z.string().trim().min(1, "Business name is required").max(100, "Business name must be at most 100 characters").optional(),
    timezone: z
      .string()
      .trim()
      .refine((v) => v === "" || isTimeZone(v), "Unknown time zone; choose one such as America/New_York")
      .transform((v) => (v === "" ? null : v))
      .nullable()
      .optional(),
    address: clearableText(300, "Address"),
    phone: businessPhone.nullable().optional(),
    website: website.nullable().optional(),
    currency: currencyCode.optional(),
    weeklyHours: weeklyHours.optional(),
    holidays: z
      .array(holiday)
      .max(MAX_HOLIDAYS, `At most ${MAX_HOLIDAYS} holidays`)
      .superRefine((list, ctx) => {
        const seen = new Map<string, number>();
        list.forEach((h, i) => {
          if (seen.has(h.date)) ctx.addIssue({ code: "custom", path: [i, "date"], message: "This date is listed twice" });
          seen.set(h.date, i);
        });
      })
      .transform((list) => [...list].sort((a, b) => a.date.localeCompare(b.date)))
      .optional(),
    policies: z.array(policy).max(MAX_POLICIES, `At most ${MAX_POLICIES} policies`).optional(),
    faqs: z.array(faq).max(MAX_FAQS, `At most ${MAX_FAQS} questions`).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });

export type BusinessProfileInput = z.infer<typeof businessProfileInput>;
export type BusinessProfileFormValues = z.input<typeof businessProfileInput>;
