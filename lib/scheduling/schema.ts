import { z } from "zod";
import { WEEKDAYS } from "./time";

/** Inputs of the appointment book, shared by the forms, the routes and the assistant's tools. */

const digits = /\d/g;

/**
 * A phone number in E.164, accepting what people type: "(415) 555-0123" and "415.555.0123" are
 * read as US numbers (+1), anything starting with + keeps its country code.
 */
export function normalizePhone(value: string): string | null {
  const trimmed = value.trim();
  const onlyDigits = (trimmed.match(digits) ?? []).join("");
  let e164: string;
  if (trimmed.startsWith("+")) e164 = `+${onlyDigits}`;
  else if (onlyDigits.length === 10) e164 = `+1${onlyDigits}`;
  else if (onlyDigits.length === 11 && onlyDigits.startsWith("1")) e164 = `+${onlyDigits}`;
  else return null;
  return /^\+[1-9]\d{7,14}$/.test(e164) ? e164 : null;
}

export const phoneInput = z
  .string("Enter the customer's phone number")
  .trim()
  .min(1, "Enter the customer's phone number")
  .transform((value, ctx) => {
    const e164 = normalizePhone(value);
    if (!e164) {
      ctx.addIssue({ code: "custom", message: "Enter a phone number such as +14155550123 or (415) 555-0123" });
      return z.NEVER;
    }
    return e164;
  });

export const customerName = z
  .string("Enter the customer's name")
  .trim()
  .min(1, "Enter the customer's name")
  .max(120, "Name must be at most 120 characters");

/** An ISO 8601 date-time: a real month, day, hour and minute, an optional zone within ±23:59. */
const ISO_INSTANT = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/;

export const instant = (label: string) =>
  z
    .string(`${label} is required`)
    .trim()
    .min(1, `${label} is required`)
    // One step: an invalid value never reaches the range checks below as an Invalid Date (it was a 500).
    .transform((v, ctx) => {
      const date = ISO_INSTANT.test(v) ? new Date(v) : null;
      if (!date || Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: "custom", message: `${label} must be an ISO date-time such as 2027-03-16T14:30:00Z` });
        return z.NEVER;
      }
      return date;
    });

const id = (label: string) => z.string(`${label} is required`).trim().min(1, `${label} is required`);

export const sources = ["manual", "api", "phone", "sms", "chat", "mcp", "a2a"] as const;
export type BookingSource = (typeof sources)[number];

const MAX_RANGE_DAYS = 62;

export const availabilityQuery = z
  .object({
    serviceId: id("serviceId"),
    from: instant("from"),
    to: instant("to"),
    resourceId: z.string().trim().min(1).optional(),
    limit: z.coerce.number().int("limit must be a whole number").min(1, "limit must be at least 1").max(500, "limit must be at most 500").optional(),
    /** The appointment being moved (the Move dialog): its own time does not count as busy. */
    excludeAppointmentId: z.uuid("excludeAppointmentId must be an appointment id").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.to <= v.from) ctx.addIssue({ code: "custom", path: ["to"], message: "to must be after from" });
    else if (v.to.getTime() - v.from.getTime() > MAX_RANGE_DAYS * 86_400_000) {
      ctx.addIssue({ code: "custom", path: ["to"], message: `Ask for at most ${MAX_RANGE_DAYS} days at a time` });
    }
  });
export type AvailabilityQuery = z.infer<typeof availabilityQuery>;

export const listAppointmentsQuery = z
  .object({
    from: instant("from"),
    to: instant("to"),
    includeCancelled: z.enum(["true", "false"], "includeCancelled must be true or false").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.to <= v.from) ctx.addIssue({ code: "custom", path: ["to"], message: "to must be after from" });
    else if (v.to.getTime() - v.from.getTime() > 366 * 86_400_000) ctx.addIssue({ code: "custom", path: ["to"], message: "Ask for at most a year at a time" });
  });

/** POST /api/appointments: books a free slot at once (the owner's screen, the API, the tools). */
export const createAppointmentInput = z.object({
  serviceId: id("serviceId"),
  start: instant("start"),
  customerName,
  customerPhone: phoneInput,
  resourceId: z.string().trim().min(1).optional(),
  notes: z.string("Notes must be text").trim().max(1000, "Notes must be at most 1,000 characters").default(""),
});
export type CreateAppointmentInput = z.infer<typeof createAppointmentInput>;
export type CreateAppointmentFormValues = z.input<typeof createAppointmentInput>;

/** PATCH /api/appointments/{id}: move (start, optionally another resource) and/or edit the customer's details. */
export const updateAppointmentInput = z
  .object({
    start: instant("start").optional(),
    resourceId: z.string().trim().min(1).nullable().optional(),
    customerName: customerName.optional(),
    customerPhone: phoneInput.optional(),
    notes: z.string("Notes must be text").trim().max(1000, "Notes must be at most 1,000 characters").optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type UpdateAppointmentInput = z.infer<typeof updateAppointmentInput>;

export const cancelAppointmentInput = z.object({
  reason: z.string("Reason must be text").trim().max(300, "Reason must be at most 300 characters").optional(),
});

/** The conversational layer's hold: the slot it offered and the caller chose. */
export const holdSlotInput = z.object({
  serviceId: id("serviceId"),
  start: instant("start"),
  customerName,
  customerPhone: phoneInput,
  resourceId: z.string().trim().min(1).optional(),
  notes: z.string().trim().max(1000).default(""),
  source: z.enum(sources).default("phone"),
  sourceRef: z.string().trim().max(200).optional(),
  /** Hold a new time for this appointment: confirming the hold moves it. */
  rescheduleOf: z.string().trim().min(1).optional(),
});
export type HoldSlotInput = z.input<typeof holdSlotInput>;

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use a 24-hour time such as 09:00");
const range = z
  .object({ open: clock, close: clock })
  .refine((r) => r.open < r.close, { message: "Closing time must be after opening time", path: ["close"] });
const dayRanges = z.array(range).max(6, "At most 6 ranges a day");
export const weeklySchedule = z.strictObject(
  Object.fromEntries(WEEKDAYS.map((d) => [d, dayRanges.optional()])) as Record<(typeof WEEKDAYS)[number], z.ZodOptional<typeof dayRanges>>,
  "Weekly hours must be an object keyed mon … sun",
);

const resourceFields = {
  name: z.string("Name is required").trim().min(1, "Name is required").max(80, "Name must be at most 80 characters"),
  kind: z.enum(["staff", "room", "equipment"], "Kind must be staff, room or equipment"),
  followsBusinessHours: z.boolean("followsBusinessHours must be true or false"),
  weeklyHours: weeklySchedule.nullable(),
  isActive: z.boolean("isActive must be true or false"),
};

export const createResourceInput = z.object({
  name: resourceFields.name,
  kind: resourceFields.kind.default("staff"),
  followsBusinessHours: resourceFields.followsBusinessHours.default(true),
  weeklyHours: resourceFields.weeklyHours.default(null),
  isActive: resourceFields.isActive.default(true),
});
export type CreateResourceInput = z.infer<typeof createResourceInput>;

export const updateResourceInput = z
  .object({
    name: resourceFields.name.optional(),
    kind: resourceFields.kind.optional(),
    followsBusinessHours: resourceFields.followsBusinessHours.optional(),
    weeklyHours: resourceFields.weeklyHours.optional(),
    isActive: resourceFields.isActive.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type UpdateResourceInput = z.infer<typeof updateResourceInput>;

export const createBlockedTimeInput = z
  .object({
    resourceId: z.string().trim().min(1).nullable().default(null),
    start: instant("start"),
    end: instant("end"),
    reason: z.string("Reason must be text").trim().max(200, "Reason must be at most 200 characters").default(""),
  })
  .refine((v) => v.end > v.start, { message: "end must be after start", path: ["end"] });
export type CreateBlockedTimeInput = z.infer<typeof createBlockedTimeInput>;

export const updateBookingSettingsInput = z
  .object({
    slotIntervalMinutes: z.number().int().min(5, "Slots must be at least 5 minutes apart").max(240, "Slots must be at most 240 minutes apart").optional(),
    holdMinutes: z.number().int().min(1, "Hold for at least 1 minute").max(30, "Hold for at most 30 minutes").optional(),
    minNoticeMinutes: z.number().int().min(0, "Notice cannot be negative").max(30 * 1440, "Notice must be at most 30 days").optional(),
    maxAdvanceDays: z.number().int().min(1, "Allow booking at least 1 day ahead").max(365, "Allow booking at most 365 days ahead").optional(),
    confirmationSms: z.boolean("confirmationSms must be true or false").optional(),
    reminderSms: z.boolean("reminderSms must be true or false").optional(),
    reminderMinutesBefore: z
      .number("Reminder time must be a number of minutes")
      .int("Reminder time must be whole minutes")
      .min(15, "Remind at least 15 minutes before")
      .max(7 * 1440, "Remind at most 7 days before")
      .optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type UpdateBookingSettingsInput = z.infer<typeof updateBookingSettingsInput>;
