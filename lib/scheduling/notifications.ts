import "server-only";
import { and, eq, gt, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { appointments, bookingSettings, resources } from "@/db/schema";
import { queueProviderDeliveries } from "@/lib/platform/outbound/provider-queue";
import { enqueue } from "@/lib/platform/jobs/queue";
import { defineJob } from "@/lib/platform/jobs/types";
import { calendarSyncJob, hasCalendarConnection } from "./calendar-sync";
import { storedMessaging, type AppointmentMessaging, type SmsResult } from "./messaging";
import { getBookingSettings, organizationBooking } from "./settings";
import { describeInstant } from "./time";
import type { AppointmentRow } from "./views";
import { errorForLog } from "@/lib/platform/database-errors";

/**
 * After a booking, a move or a cancellation: a text to the customer (never to an opted-out number),
 * a reminder at the organization's chosen time before the start, and the calendar sync — all as
 * jobs (lib/platform/jobs), so they survive restarts and run at their instant with nothing else happening.
 */
type Deps = { now?: () => Date; messaging?: AppointmentMessaging; followUps?: boolean };

const MINUTE = 60_000;
export type TextEvent = "booked" | "moved" | "cancelled";

function whenText(row: Pick<AppointmentRow, "startsAt">, timezone: string): string {
  const t = describeInstant(row.startsAt, timezone);
  return `${t.day}, ${t.date} at ${t.time} ${t.zone}`;
}

/** The texts, in one place (docs/appointments.md quotes them). */
export function appointmentText(kind: TextEvent | "reminder", row: AppointmentRow, business: string, timezone: string, resourceName?: string | null): string {
  const what = `${row.serviceName}${resourceName ? ` with ${resourceName}` : ""}`;
  const when = whenText(row, timezone);
  switch (kind) {
    case "booked":
      return `${business}: you're booked for ${what} on ${when}. Reply C to confirm or R to reschedule. Reply STOP to opt out.`;
    case "moved":
      return `${business}: your ${what} is moved to ${when}. Reply C to confirm or R to reschedule.`;
    case "cancelled":
      return `${business}: your ${what} on ${when} is cancelled. Call us to book another time.`;
    case "reminder":
      return `${business} reminder: ${what} on ${when}. Reply C to confirm or R to reschedule.`;
  }
}

export function reminderInstant(startsAt: Date, minutesBefore: number): Date {
  return new Date(startsAt.getTime() - minutesBefore * MINUTE);
}

export type TextJobData = { organizationId: string; appointmentId: string; event: TextEvent; startsAt: string };
export type ReminderJobData = { organizationId: string; appointmentId: string; startsAt: string };

export type TextOutcome = SmsResult | { status: "skipped"; reason: "disabled" | "stale" | "already_sent" | "early" | "too_late" | "not_found" };

async function load(db: DbOrTx, organizationId: string, id: string): Promise<AppointmentRow | undefined> {
  const [row] = await db.select().from(appointments).where(and(eq(appointments.id, id), eq(appointments.organizationId, organizationId)));
  return row;
}

async function resourceName(db: DbOrTx, organizationId: string, resourceId: string | null) {
  if (!resourceId) return null;
  const [r] = await db.select({ name: resources.name }).from(resources).where(and(eq(resources.id, resourceId), eq(resources.organizationId, organizationId)));
  return r?.name ?? null;
}

/** The booked / moved / cancelled text. Skips a stale job (the appointment changed since). */
export async function sendAppointmentText(db: DbOrTx, data: TextJobData, deps: Deps = {}): Promise<TextOutcome> {
  const row = await load(db, data.organizationId, data.appointmentId);
  if (!row) return { status: "skipped", reason: "not_found" };
  const settings = await getBookingSettings(db, data.organizationId);
  if (!settings.confirmationSms) return { status: "skipped", reason: "disabled" };
  const current = data.event === "cancelled" ? row.status === "cancelled" : row.status === "confirmed" && row.startsAt.toISOString() === data.startsAt;
  if (!current) return { status: "skipped", reason: "stale" };
  if (data.event === "booked") {
    const claimed = await db
      .update(appointments)
      .set({ confirmationSentAt: deps.now?.() ?? new Date() })
      .where(and(eq(appointments.id, row.id), eq(appointments.organizationId, data.organizationId), isNull(appointments.confirmationSentAt)))
      .returning({ id: appointments.id });
    if (claimed.length === 0) return { status: "skipped", reason: "already_sent" };
  }
  const org = await organizationBooking(db, data.organizationId);
  const body = appointmentText(data.event, row, org.name, org.timezone, await resourceName(db, data.organizationId, row.resourceId));
  return (deps.messaging ?? storedMessaging).sendSms(db, data.organizationId, { to: row.customerPhone, body });
}

/**
 * The reminder. Sent once per start time (a move sends a new one), only while the appointment is
 * booked and has not started; a job that runs early is put back for its instant.
 */
export async function sendReminder(db: DbOrTx, data: ReminderJobData, deps: Deps = {}): Promise<TextOutcome> {
  const now = deps.now?.() ?? new Date();
  const row = await load(db, data.organizationId, data.appointmentId);
  if (!row) return { status: "skipped", reason: "not_found" };
  if (row.status !== "confirmed" || row.startsAt.toISOString() !== data.startsAt) return { status: "skipped", reason: "stale" };
  const settings = await getBookingSettings(db, data.organizationId);
  if (!settings.reminderSms) return { status: "skipped", reason: "disabled" };
  if (now >= row.startsAt) return { status: "skipped", reason: "too_late" };
  const at = reminderInstant(row.startsAt, settings.reminderMinutesBefore);
  if (now.getTime() < at.getTime() - MINUTE) {
    await enqueue(null, reminderJob, data, { startAfter: at });
    return { status: "skipped", reason: "early" };
  }
  const claimed = await db
    .update(appointments)
    .set({ reminderSentFor: row.startsAt })
    .where(
      and(
        eq(appointments.id, row.id),
        eq(appointments.organizationId, data.organizationId),
        or(isNull(appointments.reminderSentFor), ne(appointments.reminderSentFor, row.startsAt)),
      ),
    )
    .returning({ id: appointments.id });
  if (claimed.length === 0) return { status: "skipped", reason: "already_sent" };
  const org = await organizationBooking(db, data.organizationId);
  const body = appointmentText("reminder", row, org.name, org.timezone, await resourceName(db, data.organizationId, row.resourceId));
  return (deps.messaging ?? storedMessaging).sendSms(db, data.organizationId, { to: row.customerPhone, body });
}

export const appointmentTextJob = defineJob<TextJobData>({
  name: "appointments.text",
  retryLimit: 3,
  retryDelaySeconds: 30,
  handler: async (data, { db }) => {
    await sendAppointmentText(db, data);
  },
});

export const reminderJob = defineJob<ReminderJobData>({
  name: "appointments.reminder",
  retryLimit: 3,
  retryDelaySeconds: 60,
  handler: async (data, { db }) => {
    await sendReminder(db, data);
  },
});

/**
 * Every 5 minutes: sends any reminder that is due and was never queued (a crash between the commit
 * and the enqueue), and marks long-expired holds as cancelled. Neither is needed for correctness:
 * an expired hold stops blocking by itself (see the exclusion constraint).
 */
export const appointmentsSweepJob = defineJob<Record<string, never>>({
  name: "appointments.sweep",
  everySeconds: 300,
  retryLimit: 1,
  handler: async (_data, { db }) => {
    await sweepAppointments(db);
  },
});

export async function sweepAppointments(db: DbOrTx, deps: Deps = {}): Promise<{ reminders: number; expiredHolds: number }> {
  const now = deps.now?.() ?? new Date();
  const expired = await db
    .update(appointments)
    .set({ status: "cancelled", cancelledAt: now, cancelReason: "Hold expired", updatedAt: now })
    .where(and(eq(appointments.status, "held"), lt(appointments.holdExpiresAt, new Date(now.getTime() - 60 * MINUTE))))
    .returning({ id: appointments.id });
  const remindAt = sql`${appointments.startsAt} - make_interval(mins => ${bookingSettings.reminderMinutesBefore})`;
  const due = await db
    .select({ organizationId: appointments.organizationId, appointmentId: appointments.id, startsAt: appointments.startsAt })
    .from(appointments)
    .innerJoin(bookingSettings, eq(bookingSettings.organizationId, appointments.organizationId))
    .where(
      and(
        eq(appointments.status, "confirmed"),
        eq(bookingSettings.reminderSms, true),
        gt(appointments.startsAt, now),
        lte(remindAt, now),
        // Booked before its reminder instant (a late booking gets its confirmation only).
        lte(appointments.createdAt, remindAt),
        or(isNull(appointments.reminderSentFor), ne(appointments.reminderSentFor, appointments.startsAt)),
      ),
    )
    .limit(200);
  let reminders = 0;
  for (const d of due) {
    const outcome = await sendReminder(db, { organizationId: d.organizationId, appointmentId: d.appointmentId, startsAt: d.startsAt.toISOString() }, deps);
    if (outcome.status === "sent") reminders += 1;
  }
  return { reminders, expiredHolds: expired.length };
}

/** Queues the text, the reminder and the calendar sync for a write that has been committed. */
export async function scheduleFollowUps(db: DbOrTx, row: AppointmentRow, event: TextEvent, deps: Deps = {}): Promise<void> {
  if (deps.followUps === false) return;
  const now = deps.now?.() ?? new Date();
  const startsAt = row.startsAt.toISOString();
  try {
    await enqueue(null, appointmentTextJob, { organizationId: row.organizationId, appointmentId: row.id, event, startsAt }, {
      singletonKey: `${event}:${row.id}:${event === "cancelled" ? "" : startsAt}`,
    });
    if (event !== "cancelled") {
      const settings = await getBookingSettings(db, row.organizationId);
      const at = reminderInstant(row.startsAt, settings.reminderMinutesBefore);
      if (settings.reminderSms && at > now) {
        await enqueue(null, reminderJob, { organizationId: row.organizationId, appointmentId: row.id, startsAt }, { startAfter: at, singletonKey: `${row.id}:${startsAt}` });
      }
    }
    if (await hasCalendarConnection(db, row.organizationId)) {
      await enqueue(null, calendarSyncJob, { organizationId: row.organizationId, appointmentId: row.id });
    }
    if (event === "booked") await queueProviderDeliveries(db as Db, row.organizationId, "appointment.booked", { phone: row.customerPhone, name: row.customerName, appointmentId: row.id });
  } catch (error) {
    // The booking is committed; the sweep sends a reminder that could not be queued.
    console.error(`[appointments] could not queue follow-ups for ${row.id}:`, errorForLog(error));
  }
}
