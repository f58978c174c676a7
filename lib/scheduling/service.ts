import "server-only";
import crypto from "node:crypto";
import { and, asc, eq, gt, gte, inArray, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { appointments, resources, serviceResources, services } from "@/db/schema";
import type { z } from "zod";
import { conflict, HttpError, notFound } from "@/lib/platform/http/errors";
import { validationError } from "@/lib/platform/http/parse";
import { getCalendarConnection, type CalendarUrls } from "@/lib/workspace/provider-selection/calendar";
import { computeSlots, type Interval, type ResourceSchedule } from "./availability";
import { storedMessaging, type AppointmentMessaging } from "./messaging";
import { scheduleFollowUps } from "./notifications";
import { blockedIntervals } from "./resources";
import { createAppointmentInput, holdSlotInput, normalizePhone, type BookingSource, type HoldSlotInput, type UpdateAppointmentInput } from "./schema";
import { getBookingSettings, organizationBooking, type OrganizationBooking } from "./settings";
import { describeInstant, toZoned } from "./time";
import { toAppointmentView, type AppointmentRow, type AppointmentView, type SlotView } from "./views";
import { errorForLog } from "@/lib/platform/database-errors";

/**
 * The appointment book's rules: free slots, holds, bookings, moves and cancellations. The
 * conversational layer (phone loop, chat), the routes and the MCP/A2A tools all call these; none of
 * them writes appointment rows itself. The database has the last word on overlaps (the exclusion
 * constraint `appointment_no_overlap`), so a slot that looked free and was taken a moment ago ends
 * in SlotTakenError (409) with alternatives, never in two bookings. See docs/appointments.md.
 */
export type BookingDeps = {
  /** The clock (tests fix it). Default: the system clock. */
  now?: () => Date;
  messaging?: AppointmentMessaging;
  /** Where Google Calendar is (tests aim it at a local fake). */
  calendarUrls?: CalendarUrls;
  /** Enqueue texts, reminders and calendar sync after a write (default true). */
  followUps?: boolean;
};

export const clockOf = (deps: BookingDeps) => deps.now?.() ?? new Date();
export const messagingOf = (deps: BookingDeps) => deps.messaging ?? storedMessaging;

/** The time is not (or no longer) free. `alternatives` are the nearest free slots to offer instead. */
export class SlotTakenError extends HttpError {
  constructor(
    message: string,
    readonly alternatives: SlotView[],
  ) {
    super(409, message);
  }
}

const MINUTE = 60_000;
const DAY = 86_400_000;
const EXCLUSION_VIOLATION = "23P01";
/**
 * An exclusion constraint is checked after the row is in the index, so two concurrent writers of
 * overlapping rows on PostgreSQL can each wait for the other; the deadlock detector then aborts one
 * (40P01) and the other goes on. For the aborted one the time was taken, exactly like 23P01.
 */
const DEADLOCK_DETECTED = "40P01";

function isPgError(error: unknown, code: string): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === code || e?.cause?.code === code;
}

/** The database refused the claim because someone else holds or is writing that time. */
function isClaimConflict(error: unknown): boolean {
  return isPgError(error, EXCLUSION_VIOLATION) || isPgError(error, DEADLOCK_DETECTED);
}

type ServiceRow = typeof services.$inferSelect;
type ResourceRow = typeof resources.$inferSelect;
type Bookable = { service: ServiceRow; resources: ResourceRow[]; usesBusinessCalendar: boolean };

/** The service and the resources that can deliver it (active ones). No linked resource: the business calendar. */
async function loadBookable(db: DbOrTx, organizationId: string, serviceId: string): Promise<Bookable> {
  const [service] = await db.select().from(services).where(and(eq(services.id, serviceId), eq(services.organizationId, organizationId)));
  if (!service) throw notFound("Service");
  const linked = await db
    .select({ resource: resources })
    .from(serviceResources)
    .innerJoin(resources, and(eq(resources.id, serviceResources.resourceId), eq(resources.organizationId, organizationId)))
    .where(and(eq(serviceResources.organizationId, organizationId), eq(serviceResources.serviceId, serviceId)))
    .orderBy(asc(resources.name), asc(resources.id));
  const active = linked.map((l) => l.resource).filter((r) => r.isActive && !r.archivedAt);
  return { service, resources: active, usesBusinessCalendar: linked.length === 0 };
}

function assertBookable(b: Bookable) {
  if (!b.service.isActive || !b.service.bookable) throw conflict(`${b.service.name} cannot be booked right now.`);
}

function schedulesOf(b: Bookable): ResourceSchedule[] {
  if (b.usesBusinessCalendar) return [{ id: null, followsBusinessHours: true, weeklyHours: null }];
  return b.resources.map((r) => ({ id: r.id, followsBusinessHours: r.followsBusinessHours, weeklyHours: r.weeklyHours ?? null }));
}

function toSlotView(slot: { startsAt: Date; endsAt: Date; resourceIds: (string | null)[] }, timezone: string): SlotView {
  const z = toZoned(slot.startsAt, timezone);
  return {
    start: slot.startsAt.toISOString(),
    end: slot.endsAt.toISOString(),
    resourceIds: slot.resourceIds,
    localDate: z.date,
    localTime: z.time,
    label: describeInstant(slot.startsAt, timezone),
  };
}

/** [a, b) minus [c, d) pieces. */
function subtract(intervals: Interval[], cut: Interval): Interval[] {
  const out: Interval[] = [];
  for (const i of intervals) {
    if (cut.end <= i.start || cut.start >= i.end) out.push(i);
    else {
      if (i.start < cut.start) out.push({ start: i.start, end: cut.start });
      if (cut.end < i.end) out.push({ start: cut.end, end: i.end });
    }
  }
  return out;
}

export type CalendarCheck = "not_connected" | "checked" | "unavailable";

type ComputeOptions = {
  now: Date;
  /** Leave this appointment (and holds that would move it) out of the busy time: it is the one being moved. */
  ignoreAppointment?: AppointmentRow | null;
  calendarUrls?: CalendarUrls;
  limit?: number;
};

async function computeFor(
  db: DbOrTx,
  organizationId: string,
  org: OrganizationBooking,
  b: Bookable,
  from: Date,
  to: Date,
  options: ComputeOptions,
): Promise<{ slots: SlotView[]; calendar: CalendarCheck }> {
  const settings = await getBookingSettings(db, organizationId);
  const schedules = schedulesOf(b);
  const resourceIds = schedules.map((s) => s.id).filter((id): id is string => id !== null);
  const wFrom = new Date(from.getTime() - DAY);
  const wTo = new Date(to.getTime() + DAY);
  const { now } = options;

  const whose: SQL = b.usesBusinessCalendar
    ? isNull(appointments.resourceId)
    : resourceIds.length
      ? inArray(appointments.resourceId, resourceIds)
      : sql`false`;
  const conditions: SQL[] = [
    eq(appointments.organizationId, organizationId),
    inArray(appointments.status, ["held", "confirmed"]),
    or(isNull(appointments.holdExpiresAt), gt(appointments.holdExpiresAt, now))!,
    lt(appointments.blockStart, wTo),
    gt(appointments.blockEnd, wFrom),
    whose,
  ];
  const ignore = options.ignoreAppointment;
  if (ignore) {
    conditions.push(ne(appointments.id, ignore.id));
    conditions.push(or(isNull(appointments.replacesAppointmentId), ne(appointments.replacesAppointmentId, ignore.id))!);
  }
  const taken = await db
    .select({ resourceId: appointments.resourceId, blockStart: appointments.blockStart, blockEnd: appointments.blockEnd })
    .from(appointments)
    .where(and(...conditions));

  const busyByResource = new Map<string, Interval[]>();
  const add = (key: string, i: Interval) => busyByResource.set(key, [...(busyByResource.get(key) ?? []), i]);
  for (const t of taken) add(t.resourceId ?? "", { start: t.blockStart.getTime(), end: t.blockEnd.getTime() });

  const busyForAll: Interval[] = [];
  for (const blk of await blockedIntervals(db, organizationId, resourceIds, wFrom, wTo)) {
    const i = { start: blk.startsAt.getTime(), end: blk.endsAt.getTime() };
    if (blk.resourceId) add(blk.resourceId, i);
    else busyForAll.push(i);
  }

  let calendar: CalendarCheck = "not_connected";
  const connection = await getCalendarConnection(db, organizationId, options.calendarUrls);
  if (connection) {
    try {
      let busy = (await connection.provider.freeBusy(connection.calendarId, wFrom, wTo)).map((x) => ({ start: x.start.getTime(), end: x.end.getTime() }));
      // The appointment being moved sits on the calendar as its own event: it must not block its new time.
      if (ignore && connection.resourceId && ignore.resourceId === connection.resourceId) {
        busy = subtract(busy, { start: ignore.startsAt.getTime(), end: ignore.endsAt.getTime() });
      }
      if (connection.resourceId) for (const i of busy) add(connection.resourceId, i);
      else busyForAll.push(...busy);
      calendar = "checked";
    } catch (error) {
      console.warn(`[appointments] Google Calendar free/busy failed for ${organizationId}:`, errorForLog(error));
      calendar = "unavailable";
    }
  }

  const slots = computeSlots({
    timeZone: org.timezone,
    weeklyHours: org.profile.weeklyHours ?? {},
    holidays: org.profile.holidays ?? [],
    resources: schedules,
    durationMinutes: b.service.durationMinutes,
    bufferBeforeMinutes: b.service.bufferBeforeMinutes,
    bufferAfterMinutes: b.service.bufferAfterMinutes,
    intervalMinutes: settings.slotIntervalMinutes,
    from,
    to,
    earliest: new Date(now.getTime() + settings.minNoticeMinutes * MINUTE),
    latest: new Date(now.getTime() + settings.maxAdvanceDays * DAY),
    busyByResource,
    busyForAll,
  });
  const limited = options.limit ? slots.slice(0, options.limit) : slots;
  return { slots: limited.map((s) => toSlotView(s, org.timezone)), calendar };
}

export type FindSlotsInput = {
  serviceId: string;
  from: Date;
  to: Date;
  resourceId?: string;
  limit?: number;
  /**
   * The booked appointment being moved: its own time (and holds that would move it) is not busy
   * for it, so it can move to a time that overlaps its current one (10:00 → 10:15). Everyone
   * else's appointments still count.
   */
  excludeAppointmentId?: string;
};
export type FindSlotsResult = {
  timezone: string;
  service: { id: string; name: string; durationMinutes: number };
  slots: SlotView[];
  /** Whether the connected Google Calendar's busy times were taken into account. */
  calendar: CalendarCheck;
};

/** Free slots of a service in [from, to): only times that can really be held right now. */
export async function findSlots(db: DbOrTx, organizationId: string, input: FindSlotsInput, deps: BookingDeps = {}): Promise<FindSlotsResult> {
  const b = await loadBookable(db, organizationId, input.serviceId);
  const org = await organizationBooking(db, organizationId);
  const service = { id: b.service.id, name: b.service.name, durationMinutes: b.service.durationMinutes };
  if (!b.service.isActive || !b.service.bookable) return { timezone: org.timezone, service, slots: [], calendar: "not_connected" };
  if (input.resourceId) {
    if (!b.resources.some((r) => r.id === input.resourceId)) throw notFound("Resource");
    b.resources = b.resources.filter((r) => r.id === input.resourceId);
  }
  const moving = input.excludeAppointmentId ? await findRow(db, organizationId, input.excludeAppointmentId) : null;
  const { slots, calendar } = await computeFor(db, organizationId, org, b, input.from, input.to, {
    now: clockOf(deps),
    // Only a booked appointment can be moved; a hold or a cancelled row gets no exemption.
    ignoreAppointment: moving && moving.status === "confirmed" && !moving.replacesAppointmentId ? moving : null,
    calendarUrls: deps.calendarUrls,
    limit: input.limit,
  });
  return { timezone: org.timezone, service, slots, calendar };
}

/** The free slots nearest to a wanted time (within a week either side), to offer instead. */
async function alternativesNear(db: DbOrTx, organizationId: string, org: OrganizationBooking, b: Bookable, wanted: Date, options: ComputeOptions, count = 3): Promise<SlotView[]> {
  const from = new Date(Math.max(options.now.getTime(), wanted.getTime() - 7 * DAY));
  const { slots } = await computeFor(db, organizationId, org, b, from, new Date(wanted.getTime() + 7 * DAY), { ...options, limit: undefined });
  return slots
    .filter((s) => s.start !== wanted.toISOString())
    .sort((x, y) => Math.abs(Date.parse(x.start) - wanted.getTime()) - Math.abs(Date.parse(y.start) - wanted.getTime()))
    .slice(0, count)
    .sort((x, y) => Date.parse(x.start) - Date.parse(y.start));
}

async function slotTaken(db: DbOrTx, organizationId: string, org: OrganizationBooking, b: Bookable, wanted: Date, options: ComputeOptions, message?: string) {
  const alternatives = await alternativesNear(db, organizationId, org, b, wanted, options);
  return new SlotTakenError(message ?? "That time is no longer free. Please choose another time.", alternatives);
}

/** The resources free at exactly `start` (in the order to try), or a SlotTakenError. */
async function freeResourcesAt(
  db: DbOrTx,
  organizationId: string,
  org: OrganizationBooking,
  b: Bookable,
  start: Date,
  wantedResource: string | null | undefined,
  options: ComputeOptions,
): Promise<(string | null)[]> {
  const { slots } = await computeFor(db, organizationId, org, b, start, new Date(start.getTime() + 1), options);
  const slot = slots.find((s) => s.start === start.toISOString());
  const free = slot ? slot.resourceIds.filter((id) => wantedResource === undefined || id === wantedResource) : [];
  if (free.length === 0) throw await slotTaken(db, organizationId, org, b, start, options);
  return free;
}

function rowTimes(service: ServiceRow, start: Date) {
  const endsAt = new Date(start.getTime() + service.durationMinutes * MINUTE);
  return {
    startsAt: start,
    endsAt,
    blockStart: new Date(start.getTime() - service.bufferBeforeMinutes * MINUTE),
    blockEnd: new Date(endsAt.getTime() + service.bufferAfterMinutes * MINUTE),
  };
}

async function resourceNameOf(db: DbOrTx, organizationId: string, resourceId: string | null): Promise<string | null> {
  if (!resourceId) return null;
  const [r] = await db.select({ name: resources.name }).from(resources).where(and(eq(resources.id, resourceId), eq(resources.organizationId, organizationId)));
  return r?.name ?? null;
}

async function findRow(db: DbOrTx, organizationId: string, id: string): Promise<AppointmentRow> {
  const [row] = await db.select().from(appointments).where(and(eq(appointments.id, id), eq(appointments.organizationId, organizationId)));
  if (!row) throw notFound("Appointment");
  return row;
}

async function view(db: DbOrTx, organizationId: string, row: AppointmentRow, timezone?: string): Promise<AppointmentView> {
  const tz = timezone ?? (await organizationBooking(db, organizationId)).timezone;
  return toAppointmentView(row, await resourceNameOf(db, organizationId, row.resourceId), tz);
}

function parse<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** Tries each free resource in turn; the database refuses any that was taken in the meantime. */
async function insertClaim(
  db: DbOrTx,
  candidates: (string | null)[],
  values: (resourceId: string | null) => typeof appointments.$inferInsert,
): Promise<AppointmentRow | null> {
  for (const resourceId of candidates) {
    try {
      const [row] = await db.insert(appointments).values(values(resourceId)).returning();
      return row;
    } catch (error) {
      if (!isClaimConflict(error)) throw error;
    }
  }
  return null;
}

export type HoldView = AppointmentView & { holdId: string; expiresAt: string };

/**
 * Holds the slot the caller chose for the organization's hold time (5 minutes by default), so
 * nobody else can take it while the assistant reads it back. Nothing is booked yet: say "booked"
 * only after confirmHold answers. The caller's earlier unconfirmed holds are released.
 * With `rescheduleOf`, the hold is a new time for that appointment (confirmHold moves it).
 */
export async function holdSlot(db: DbOrTx, organizationId: string, raw: HoldSlotInput, deps: BookingDeps = {}): Promise<HoldView> {
  const input = parse(holdSlotInput, raw);
  const now = clockOf(deps);
  const original = input.rescheduleOf ? await findRow(db, organizationId, input.rescheduleOf) : null;
  if (original && (original.status !== "confirmed" || original.replacesAppointmentId)) throw conflict("Only a booked appointment can be moved.");
  const b = await loadBookable(db, organizationId, input.serviceId);
  assertBookable(b);
  const org = await organizationBooking(db, organizationId);
  const settings = await getBookingSettings(db, organizationId);
  const options: ComputeOptions = { now, ignoreAppointment: original, calendarUrls: deps.calendarUrls };
  const free = await freeResourcesAt(db, organizationId, org, b, input.start, input.resourceId, options);

  await db
    .update(appointments)
    .set({ status: "cancelled", cancelledAt: now, cancelReason: "Replaced by a newer hold", updatedAt: now })
    .where(
      and(
        eq(appointments.organizationId, organizationId),
        eq(appointments.customerPhone, input.customerPhone),
        eq(appointments.status, "held"),
      ),
    );

  const times = rowTimes(b.service, input.start);
  const expiresAt = new Date(now.getTime() + settings.holdMinutes * MINUTE);
  const row = await insertClaim(db, free, (resourceId) => ({
    id: crypto.randomUUID(),
    organizationId,
    serviceId: b.service.id,
    serviceName: b.service.name,
    resourceId,
    status: "held",
    ...times,
    claimedAt: now,
    holdExpiresAt: expiresAt,
    replacesAppointmentId: original?.id ?? null,
    customerName: input.customerName,
    customerPhone: input.customerPhone,
    notes: input.notes,
    source: input.source,
    sourceRef: input.sourceRef ?? null,
    createdAt: now,
    updatedAt: now,
  }));
  if (!row) throw await slotTaken(db, organizationId, org, b, input.start, options);
  const v = await view(db, organizationId, row, org.timezone);
  return { ...v, holdId: row.id, expiresAt: expiresAt.toISOString() };
}

/** The caller said no: the hold ends now. Idempotent. */
export async function releaseHold(db: DbOrTx, organizationId: string, holdId: string, deps: BookingDeps = {}): Promise<{ released: boolean }> {
  const now = clockOf(deps);
  const rows = await db
    .update(appointments)
    .set({ status: "cancelled", cancelledAt: now, cancelReason: "Hold released", updatedAt: now })
    .where(and(eq(appointments.id, holdId), eq(appointments.organizationId, organizationId), eq(appointments.status, "held")))
    .returning({ id: appointments.id });
  if (rows.length === 0) await findRow(db, organizationId, holdId);
  return { released: rows.length > 0 };
}

export type BookingResult = { booked: true; moved: boolean; appointment: AppointmentView };

/**
 * The caller said yes: writes the booking and answers only after it is committed. A hold that
 * expired is still booked if nobody took the time meanwhile (the database decides); otherwise
 * SlotTakenError with alternatives. Confirming twice answers the same booking.
 */
export async function confirmHold(db: Db, organizationId: string, holdId: string, deps: BookingDeps = {}): Promise<BookingResult> {
  const now = clockOf(deps);
  const hold = await findRow(db, organizationId, holdId);
  if (hold.status === "confirmed") return { booked: true, moved: false, appointment: await view(db, organizationId, hold) };
  if (hold.status === "cancelled") {
    // A confirmed move drops its hold: confirming it again answers the moved appointment.
    if (hold.replacesAppointmentId && hold.cancelReason === "Moved") {
      return { booked: true, moved: true, appointment: await view(db, organizationId, await findRow(db, organizationId, hold.replacesAppointmentId)) };
    }
    throw conflict("This hold was released. Find a new time.");
  }

  let written: AppointmentRow;
  let moved = false;
  try {
    if (hold.replacesAppointmentId) {
      moved = true;
      written = await db.transaction(async (tx) => {
        await tx
          .update(appointments)
          .set({ status: "cancelled", cancelledAt: now, cancelReason: "Moved", updatedAt: now })
          .where(and(eq(appointments.id, hold.id), eq(appointments.organizationId, organizationId)));
        const [row] = await tx
          .update(appointments)
          .set({
            resourceId: hold.resourceId,
            startsAt: hold.startsAt,
            endsAt: hold.endsAt,
            blockStart: hold.blockStart,
            blockEnd: hold.blockEnd,
            customerConfirmedAt: null,
            rescheduleOffer: null,
            updatedAt: now,
          })
          .where(and(eq(appointments.id, hold.replacesAppointmentId!), eq(appointments.organizationId, organizationId), eq(appointments.status, "confirmed")))
          .returning();
        if (!row) throw conflict("The appointment to move was cancelled meanwhile.");
        return row;
      });
    } else {
      const [row] = await db
        .update(appointments)
        .set({ status: "confirmed", claimedAt: now, holdExpiresAt: null, updatedAt: now })
        .where(and(eq(appointments.id, hold.id), eq(appointments.organizationId, organizationId), eq(appointments.status, "held")))
        .returning();
      if (!row) return confirmHold(db, organizationId, holdId, deps); // confirmed or released meanwhile: answer that
      written = row;
    }
  } catch (error) {
    if (!isClaimConflict(error)) throw error;
    await releaseHold(db, organizationId, hold.id, deps);
    const b = await loadBookable(db, organizationId, hold.serviceId ?? "");
    const org = await organizationBooking(db, organizationId);
    const original = hold.replacesAppointmentId ? await findRow(db, organizationId, hold.replacesAppointmentId) : null;
    throw await slotTaken(db, organizationId, org, b, hold.startsAt, { now, ignoreAppointment: original, calendarUrls: deps.calendarUrls }, "The hold ran out and that time was taken meanwhile. Please choose another time.");
  }
  await scheduleFollowUps(db, written, moved ? "moved" : "booked", deps);
  return { booked: true, moved, appointment: await view(db, organizationId, written) };
}

export type BookSlotInput = {
  serviceId: string;
  start: Date | string;
  customerName: string;
  customerPhone: string;
  resourceId?: string;
  notes?: string;
  source?: BookingSource;
  sourceRef?: string;
};

/** Books a free slot in one step (the owner's screen, POST /api/appointments, the MCP/A2A tools). */
export async function bookSlot(db: DbOrTx, organizationId: string, raw: BookSlotInput, deps: BookingDeps = {}): Promise<AppointmentView> {
  const input = parse(createAppointmentInput, { ...raw, start: raw.start instanceof Date ? raw.start.toISOString() : raw.start });
  const now = clockOf(deps);
  const b = await loadBookable(db, organizationId, input.serviceId);
  assertBookable(b);
  const org = await organizationBooking(db, organizationId);
  const options: ComputeOptions = { now, calendarUrls: deps.calendarUrls };
  const free = await freeResourcesAt(db, organizationId, org, b, input.start, input.resourceId, options);
  const row = await insertClaim(db, free, (resourceId) => ({
    id: crypto.randomUUID(),
    organizationId,
    serviceId: b.service.id,
    serviceName: b.service.name,
    resourceId,
    status: "confirmed",
    ...rowTimes(b.service, input.start),
    claimedAt: now,
    holdExpiresAt: null,
    customerName: input.customerName,
    customerPhone: input.customerPhone,
    notes: input.notes,
    source: raw.source ?? "api",
    sourceRef: raw.sourceRef ?? null,
    createdAt: now,
    updatedAt: now,
  }));
  if (!row) throw await slotTaken(db, organizationId, org, b, input.start, options);
  await scheduleFollowUps(db, row, "booked", deps);
  return view(db, organizationId, row, org.timezone);
}

/** Moves a booked appointment to a free time (optionally to another of the service's resources). */
export async function rescheduleAppointment(
  db: DbOrTx,
  organizationId: string,
  id: string,
  to: { start: Date; resourceId?: string | null },
  deps: BookingDeps = {},
): Promise<AppointmentView> {
  const now = clockOf(deps);
  const current = await findRow(db, organizationId, id);
  if (current.status !== "confirmed") throw conflict(current.status === "held" ? "Confirm the hold before moving it." : "A cancelled appointment cannot be moved.");
  if (!current.serviceId) throw conflict("This appointment's service was deleted: cancel it and book a new one.");
  const b = await loadBookable(db, organizationId, current.serviceId);
  const org = await organizationBooking(db, organizationId);
  const options: ComputeOptions = { now, ignoreAppointment: current, calendarUrls: deps.calendarUrls };
  const wanted = to.resourceId === undefined ? undefined : to.resourceId;
  const free = await freeResourcesAt(db, organizationId, org, b, to.start, wanted, options);
  // Keep the same resource when it is free at the new time.
  const order = free.includes(current.resourceId) ? [current.resourceId, ...free.filter((r) => r !== current.resourceId)] : free;
  for (const resourceId of order) {
    try {
      const [row] = await db
        .update(appointments)
        .set({ resourceId, ...rowTimes(b.service, to.start), customerConfirmedAt: null, rescheduleOffer: null, updatedAt: now })
        .where(and(eq(appointments.id, id), eq(appointments.organizationId, organizationId), eq(appointments.status, "confirmed")))
        .returning();
      if (!row) throw conflict("The appointment was cancelled meanwhile.");
      await scheduleFollowUps(db, row, "moved", deps);
      return view(db, organizationId, row, org.timezone);
    } catch (error) {
      if (!isClaimConflict(error)) throw error;
    }
  }
  throw await slotTaken(db, organizationId, org, b, to.start, options);
}

/** PATCH /api/appointments/{id}: a move and/or the customer's details (the move first: a 409 changes nothing). */
export async function updateAppointment(db: DbOrTx, organizationId: string, id: string, input: UpdateAppointmentInput, deps: BookingDeps = {}): Promise<AppointmentView> {
  const current = await findRow(db, organizationId, id);
  if (current.status === "cancelled") throw conflict("A cancelled appointment cannot be changed.");
  if (input.start !== undefined || input.resourceId !== undefined) {
    await rescheduleAppointment(db, organizationId, id, { start: input.start ?? current.startsAt, resourceId: input.resourceId }, deps);
  }
  const details = {
    ...(input.customerName !== undefined ? { customerName: input.customerName } : {}),
    ...(input.customerPhone !== undefined ? { customerPhone: input.customerPhone } : {}),
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
  };
  if (Object.keys(details).length) {
    await db
      .update(appointments)
      .set({ ...details, updatedAt: clockOf(deps) })
      .where(and(eq(appointments.id, id), eq(appointments.organizationId, organizationId)));
  }
  return view(db, organizationId, await findRow(db, organizationId, id));
}

/** Cancels a booking (or releases a hold); the customer is told by text. Idempotent. */
export async function cancelAppointment(
  db: DbOrTx,
  organizationId: string,
  id: string,
  options: { reason?: string } = {},
  deps: BookingDeps = {},
): Promise<AppointmentView> {
  const now = clockOf(deps);
  const current = await findRow(db, organizationId, id);
  if (current.status === "cancelled") return view(db, organizationId, current);
  const [row] = await db
    .update(appointments)
    .set({ status: "cancelled", cancelledAt: now, cancelReason: options.reason ?? null, rescheduleOffer: null, updatedAt: now })
    .where(and(eq(appointments.id, id), eq(appointments.organizationId, organizationId), ne(appointments.status, "cancelled")))
    .returning();
  if (!row) return view(db, organizationId, await findRow(db, organizationId, id));
  if (current.status === "confirmed") await scheduleFollowUps(db, row, "cancelled", deps);
  return view(db, organizationId, row);
}

export async function getAppointment(db: DbOrTx, organizationId: string, id: string): Promise<AppointmentView> {
  return view(db, organizationId, await findRow(db, organizationId, id));
}

/** The calendar: bookings (and live holds) overlapping [from, to), by start. */
export async function listAppointments(
  db: DbOrTx,
  organizationId: string,
  range: { from: Date; to: Date; includeCancelled?: boolean },
  deps: BookingDeps = {},
): Promise<AppointmentView[]> {
  const now = clockOf(deps);
  const org = await organizationBooking(db, organizationId);
  const statusClause = range.includeCancelled
    ? undefined
    : or(eq(appointments.status, "confirmed"), and(eq(appointments.status, "held"), gt(appointments.holdExpiresAt, now)));
  const rows = await db
    .select({ appointment: appointments, resourceName: resources.name })
    .from(appointments)
    .leftJoin(resources, and(eq(resources.id, appointments.resourceId), eq(resources.organizationId, organizationId)))
    .where(and(eq(appointments.organizationId, organizationId), lt(appointments.startsAt, range.to), gt(appointments.endsAt, range.from), statusClause))
    .orderBy(asc(appointments.startsAt), asc(appointments.id));
  return rows.map((r) => toAppointmentView(r.appointment, r.resourceName, org.timezone));
}

/** A caller recognised by number: their booked appointments from now on, soonest first. */
export async function upcomingAppointmentsForPhone(db: DbOrTx, organizationId: string, phone: string, deps: BookingDeps = {}): Promise<AppointmentView[]> {
  const e164 = normalizePhone(phone);
  if (!e164) return [];
  const now = clockOf(deps);
  const org = await organizationBooking(db, organizationId);
  const rows = await db
    .select({ appointment: appointments, resourceName: resources.name })
    .from(appointments)
    .leftJoin(resources, and(eq(resources.id, appointments.resourceId), eq(resources.organizationId, organizationId)))
    .where(
      and(
        eq(appointments.organizationId, organizationId),
        eq(appointments.customerPhone, e164),
        eq(appointments.status, "confirmed"),
        gte(appointments.endsAt, now),
      ),
    )
    .orderBy(asc(appointments.startsAt))
    .limit(20);
  return rows.map((r) => toAppointmentView(r.appointment, r.resourceName, org.timezone));
}

