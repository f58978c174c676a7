import { z } from "zod";

/**
 * What a business offers (the `service` table) and which staff or rooms can deliver it: shared by the
 * Business screen's and the Appointments screen's service forms and GET/POST/PATCH/DELETE /api/services. Durations and buffers in minutes; a price in cents, or the
 * business's own words when it varies ("from $80").
 */
const minutes = (label: string, min: number, max: number) =>
  z
    .number(`${label} must be a number of minutes`)
    .int(`${label} must be a whole number of minutes`)
    .min(min, `${label} must be at least ${min} minutes`)
    .max(max, `${label} must be at most ${max} minutes`);

const fields = {
  name: z.string().trim().min(1, "Service name is required").max(80, "Service name must be at most 80 characters"),
  description: z.string().trim().max(500, "Description must be at most 500 characters"),
  durationMinutes: minutes("Duration", 5, 24 * 60),
  bufferBeforeMinutes: minutes("Buffer before", 0, 240),
  bufferAfterMinutes: minutes("Buffer after", 0, 240),
  priceCents: z
    .number("Price must be a number of cents")
    .int("Price must be a whole number of cents")
    .min(0, "Price cannot be negative")
    .max(100_000_000, "Price is too large")
    .nullable(),
  priceText: z
    .string()
    .trim()
    .max(60, "Price text must be at most 60 characters")
    .nullable()
    .transform((v) => (v === "" ? null : v)),
  bookable: z.boolean("bookable must be true or false"),
  isActive: z.boolean("isActive must be true or false"),
  /** The staff or rooms that can deliver it; an appointment takes one. Empty: the business's own calendar. */
  resourceIds: z.array(z.string().trim().min(1), "resourceIds must be a list of resource ids").max(50, "At most 50 resources per service"),
};

export const createServiceInput = z.object({
  name: fields.name,
  description: fields.description.default(""),
  durationMinutes: fields.durationMinutes.default(30),
  bufferBeforeMinutes: fields.bufferBeforeMinutes.default(0),
  bufferAfterMinutes: fields.bufferAfterMinutes.default(0),
  priceCents: fields.priceCents.optional().default(null),
  priceText: fields.priceText.optional().default(null),
  bookable: fields.bookable.default(true),
  isActive: fields.isActive.default(true),
  resourceIds: fields.resourceIds.default([]),
});
export type CreateServiceInput = z.infer<typeof createServiceInput>;
export type CreateServiceFormValues = z.input<typeof createServiceInput>;

export const updateServiceInput = z
  .object({
    name: fields.name.optional(),
    description: fields.description.optional(),
    durationMinutes: fields.durationMinutes.optional(),
    bufferBeforeMinutes: fields.bufferBeforeMinutes.optional(),
    bufferAfterMinutes: fields.bufferAfterMinutes.optional(),
    priceCents: fields.priceCents.optional(),
    priceText: fields.priceText.optional(),
    bookable: fields.bookable.optional(),
    isActive: fields.isActive.optional(),
    resourceIds: fields.resourceIds.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type UpdateServiceInput = z.infer<typeof updateServiceInput>;

/**
 * A price as an owner types it: "120", "$120", "120.50" → cents; anything else ("from $80",
 * "varies") is kept as words; "" → no price.
 */
export function parsePriceInput(value: string): { priceCents: number | null; priceText: string | null } {
  const v = value.trim();
  if (!v) return { priceCents: null, priceText: null };
  const amount = /^[$€£]?\s*(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(v.replace(/,(?=\d{3}\b)/g, ""));
  if (amount) {
    const cents = Number(amount[1]) * 100 + Number((amount[2] ?? "0").padEnd(2, "0"));
    return { priceCents: cents, priceText: null };
  }
  return { priceCents: null, priceText: v.slice(0, 60) };
}

/** "$120", "$120.50" in the business's currency. */
export function formatPrice(cents: number, currency = "USD"): string {
  const whole = cents % 100 === 0;
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: whole ? 0 : 2,
    }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(whole ? 0 : 2)} ${currency}`;
  }
}

/** "45 minutes", "1 hour", "1 hour 30 minutes". */
export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const hours = h ? `${h} hour${h === 1 ? "" : "s"}` : "";
  const mins = m ? `${m} minute${m === 1 ? "" : "s"}` : "";
  return [hours, mins].filter(Boolean).join(" ") || "0 minutes";
}
