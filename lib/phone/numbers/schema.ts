import { z } from "zod";
import { numberRouting } from "@/lib/phone/routing/schema";
import { forwardToNumber } from "./forward-to";

/**
 * Phone-number operations, shared by the route handlers and the forms. Messages name the problem
 * for a person.
 */
export const E164_PATTERN = /^\+[1-9]\d{7,14}$/;

export const e164 = z
  .string()
  .trim()
  .regex(E164_PATTERN, "Enter the number with + and the country code, e.g. +14155550123");

export const areaCode = z.string().trim().regex(/^[2-9]\d{2}$/, "Area code must be 3 digits, e.g. 415");

export const friendlyName = z
  .string()
  .trim()
  .min(1, "Friendly name is required")
  .max(64, "Friendly name must be at most 64 characters");

/** `?areaCode=415&limit=10` for GET /api/phone-numbers/available. */
export const searchAvailableQuery = z.object({
  areaCode: z.preprocess((v) => (v === "" ? undefined : v), areaCode.optional()),
  limit: z.coerce.number().int("Limit must be a whole number").min(1, "Limit must be at least 1").max(30, "Limit must be at most 30").default(10),
});
export type SearchAvailableQuery = z.infer<typeof searchAvailableQuery>;

/**
 * POST /api/phone-numbers. The contract's bare `{friendlyName, isActive}` provisions the first
 * available number; `areaCode` prefers an area code; `phoneNumber` with mode "new" buys that number
 * (from the search); mode "existing" with `phoneNumber` brings a number the caller already owns.
 */
export const createPhoneNumberInput = z
  .object({
    friendlyName,
    isActive: z.boolean("isActive must be true or false").default(true),
    mode: z.enum(["new", "existing"], "Mode must be \"new\" or \"existing\"").default("new"),
    areaCode: areaCode.optional(),
    phoneNumber: e164.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.mode === "existing" && !value.phoneNumber) {
      ctx.addIssue({
        code: "custom",
        path: ["phoneNumber"],
        message: "Enter the number you already own, with + and the country code, e.g. +14155550123",
      });
    }
  });
export type CreatePhoneNumberInput = z.infer<typeof createPhoneNumberInput>;
export type CreatePhoneNumberFormValues = z.input<typeof createPhoneNumberInput>;

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use a 24-hour time such as 09:00");

export const dayHours = z
  .object({ open: clock, close: clock })
  .refine((d) => d.open < d.close, { message: "Closing time must be after opening time", path: ["close"] })
  .nullable();

const day = dayHours.default(null);

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const businessHours = z.object({
  timezone: z
    .string()
    .trim()
    .min(1, "Time zone is required")
    .max(64, "Unknown time zone, e.g. America/New_York")
    .refine(isTimeZone, "Unknown time zone, e.g. America/New_York"),
  /** Each weekday is open/close times, or null when closed; a day left out is closed. */
  days: z.strictObject(
    { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
    "Days must be an object keyed mon, tue, wed, thu, fri, sat, sun",
  ),
});
export type BusinessHoursInput = z.infer<typeof businessHours>;

/** PATCH /api/phone-numbers/{id}: any subset; null clears assistantId, forwardTo and businessHours. */
export const updatePhoneNumberInput = z
  .object({
    friendlyName: friendlyName.optional(),
    isActive: z.boolean("isActive must be true or false").optional(),
    assistantId: z.string().trim().min(1, "Choose a voice assistant").max(200, "Choose a voice assistant").nullable().optional(),
    /** Typed the way people write numbers; stored in E.164 (lib/phone/numbers/forward-to.ts). */
    forwardTo: forwardToNumber.nullable().optional(),
    businessHours: businessHours.nullable().optional(),
    /** Calls use ConversationRelay through the WebSocket gateway (lower latency) instead of the Gather loop. */
    streaming: z.boolean("streaming must be true or false").optional(),
    /** Ring first or assistant first, and the routing rules in order (docs/telephony.md#routing); null resets. */
    routing: numberRouting.nullable().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type UpdatePhoneNumberInput = z.infer<typeof updatePhoneNumberInput>;
export type UpdatePhoneNumberFormValues = z.input<typeof updatePhoneNumberInput>;

/** POST /api/phone-numbers/{id}/ownership/answer: the digits keyed on the simulated handset. */
export const ownershipAnswerInput = z.object({
  digits: z.string({ error: "Enter the code shown on screen" }).trim().regex(/^\d{4,10}$/, "Enter the code shown on screen: digits only"),
});
