import { z } from "zod";

/**
 * Services a business offers (name, duration, buffers, price) and which staff or rooms can deliver
 * them. One schema per operation, shared by the forms and /api/services.
 */
const minutes = (label: string, min: number, max: number) =>
  z
    .number(`${label} must be a number of minutes`)
    .int(`${label} must be a whole number of minutes`)
    .min(min, `${label} must be at least ${min} minutes`)
    .max(max, `${label} must be at most ${max} minutes`);

const serviceFields = {
  name: z.string("Name is required").trim().min(1, "Name is required").max(80, "Name must be at most 80 characters"),
  description: z.string("Description must be text").trim().max(500, "Description must be at most 500 characters"),
  durationMinutes: minutes("Duration", 5, 720),
  bufferBeforeMinutes: minutes("Buffer before", 0, 240),
  bufferAfterMinutes: minutes("Buffer after", 0, 240),
  priceCents: z.number("Price must be a number of cents").int("Price must be whole cents").min(0, "Price cannot be negative").max(100_000_000, "Price is too large").nullable(),
  priceText: z.string("Price text must be text").trim().max(60, "Price text must be at most 60 characters").nullable(),
  bookable: z.boolean("bookable must be true or false"),
  isActive: z.boolean("isActive must be true or false"),
  /** The staff or rooms that can deliver it; an appointment takes one. Empty: the business's own calendar. */
  resourceIds: z.array(z.string().trim().min(1), "resourceIds must be a list of resource ids").max(50, "At most 50 resources per service"),
};

export const createServiceInput = z.object({
  name: serviceFields.name,
  description: serviceFields.description.default(""),
  durationMinutes: serviceFields.durationMinutes.default(30),
  bufferBeforeMinutes: serviceFields.bufferBeforeMinutes.default(0),
  bufferAfterMinutes: serviceFields.bufferAfterMinutes.default(0),
  priceCents: serviceFields.priceCents.optional(),
  priceText: serviceFields.priceText.optional(),
  bookable: serviceFields.bookable.default(true),
  isActive: serviceFields.isActive.default(true),
  resourceIds: serviceFields.resourceIds.default([]),
});
export type CreateServiceInput = z.infer<typeof createServiceInput>;
export type CreateServiceFormValues = z.input<typeof createServiceInput>;

export const updateServiceInput = z
  .object({
    name: serviceFields.name.optional(),
    description: serviceFields.description.optional(),
    durationMinutes: serviceFields.durationMinutes.optional(),
    bufferBeforeMinutes: serviceFields.bufferBeforeMinutes.optional(),
    bufferAfterMinutes: serviceFields.bufferAfterMinutes.optional(),
    priceCents: serviceFields.priceCents.optional(),
    priceText: serviceFields.priceText.optional(),
    bookable: serviceFields.bookable.optional(),
    isActive: serviceFields.isActive.optional(),
    resourceIds: serviceFields.resourceIds.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: "Nothing to update" });
export type UpdateServiceInput = z.infer<typeof updateServiceInput>;
