import "server-only";
import { and, asc, eq, ilike } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { services } from "@/db/schema";
import { conflict, notFound } from "@/lib/platform/http/errors";
import { validationError } from "@/lib/platform/http/parse";
import { customerName, instant, phoneInput } from "./schema";
import { bookSlot, cancelAppointment, findSlots, getAppointment, type BookingDeps } from "./service";
import { organizationBooking } from "./settings";
import { addDays, fromZoned, toZoned } from "./time";

/**
 * The appointment book as tools, for the MCP server and the A2A agent to wrap: each has a name, a
 * description for the model, a zod input schema, and `run(db, organizationId, input)`. They call
 * the same booking service as the screens, so the same rules and the same database constraint hold.
 * A failure is an HttpError (404 unknown service, 409 time taken — with `alternatives`).
 */
const dateOnly = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "date must be YYYY-MM-DD");

export const listServicesToolInput = z.object({});

export const findSlotsToolInput = z.object({
  service: z.string("service is required").trim().min(1, "service is required").describe("The service's id or its name"),
  date: dateOnly.optional().describe("A day in the business's time zone (YYYY-MM-DD); default: from today"),
  days: z.number().int().min(1).max(14).default(7).describe("How many days from `date` to search"),
  limit: z.number().int().min(1).max(50).default(10),
});

export const bookAppointmentToolInput = z.object({
  serviceId: z.string().trim().min(1, "serviceId is required"),
  start: instant("start").describe("A slot's `start` from find_slots (ISO date-time)"),
  customerName,
  customerPhone: phoneInput,
  notes: z.string().trim().max(1000).default(""),
});

export const cancelAppointmentToolInput = z.object({
  appointmentId: z.string().trim().min(1, "appointmentId is required"),
  customerPhone: phoneInput.describe("The phone number the appointment was booked with"),
});

function parse<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export async function listServicesTool(db: Db, organizationId: string) {
  const rows = await db
    .select({ id: services.id, name: services.name, description: services.description, durationMinutes: services.durationMinutes, priceCents: services.priceCents, priceText: services.priceText })
    .from(services)
    .where(and(eq(services.organizationId, organizationId), eq(services.isActive, true), eq(services.bookable, true)))
    .orderBy(asc(services.name));
  return { services: rows };
}

async function resolveService(db: Db, organizationId: string, idOrName: string): Promise<string> {
  const [byId] = await db.select({ id: services.id }).from(services).where(and(eq(services.organizationId, organizationId), eq(services.id, idOrName)));
  if (byId) return byId.id;
  const byName = await db
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.organizationId, organizationId), ilike(services.name, idOrName.replace(/[%_\\]/g, (c) => `\\${c}`))));
  if (byName.length === 1) return byName[0].id;
  throw notFound("Service");
}

export async function findSlotsTool(db: Db, organizationId: string, raw: unknown, deps: BookingDeps = {}) {
  const input = parse(findSlotsToolInput, raw);
  const serviceId = await resolveService(db, organizationId, input.service);
  const org = await organizationBooking(db, organizationId);
  const now = deps.now?.() ?? new Date();
  const firstDay = input.date ?? toZoned(now, org.timezone).date;
  const from = fromZoned(firstDay, "00:00", org.timezone);
  const to = fromZoned(addDays(firstDay, input.days), "00:00", org.timezone);
  return findSlots(db, organizationId, { serviceId, from, to, limit: input.limit }, deps);
}

export async function bookAppointmentTool(db: Db, organizationId: string, raw: unknown, deps: BookingDeps & { source?: "mcp" | "a2a" } = {}) {
  const input = parse(bookAppointmentToolInput, raw);
  return bookSlot(db, organizationId, { ...input, source: deps.source ?? "mcp" }, deps);
}

export async function cancelAppointmentTool(db: Db, organizationId: string, raw: unknown, deps: BookingDeps = {}) {
  const input = parse(cancelAppointmentToolInput, raw);
  const appointment = await getAppointment(db, organizationId, input.appointmentId);
  // An agent acting for a customer cancels only that customer's appointment.
  if (appointment.customerPhone !== input.customerPhone) throw notFound("Appointment");
  if (appointment.status === "held") throw conflict("That is a hold, not a booking.");
  return cancelAppointment(db, organizationId, input.appointmentId, { reason: "Cancelled through an agent" }, deps);
}

export const appointmentTools = [
  {
    name: "list_services",
    description: "List the services customers can book, with their duration and price.",
    inputSchema: listServicesToolInput,
    run: (db: Db, organizationId: string) => listServicesTool(db, organizationId),
  },
  {
    name: "find_slots",
    description: "Find free appointment times for a service. Offer only times returned here.",
    inputSchema: findSlotsToolInput,
    run: findSlotsTool,
  },
  {
    name: "book_appointment",
    description: "Book a free time from find_slots for a customer. Answers the booking, or 409 with alternatives when the time was just taken.",
    inputSchema: bookAppointmentToolInput,
    run: bookAppointmentTool,
  },
  {
    name: "cancel_appointment",
    description: "Cancel a customer's appointment, identified by its id and the customer's phone number.",
    inputSchema: cancelAppointmentToolInput,
    run: cancelAppointmentTool,
  },
] as const;
