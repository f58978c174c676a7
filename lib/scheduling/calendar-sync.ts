import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { appointments, integrationConnections } from "@/db/schema";
import { defineJob } from "@/lib/platform/jobs/types";
import { getCalendarConnection, GOOGLE_CALENDAR_SLUG, type CalendarUrls } from "@/lib/workspace/provider-selection/calendar";
import { googleEventId } from "@/lib/platform/providers/calendar/google";
import { organizationBooking } from "./settings";
import { readBackOf } from "./views";

/**
 * Events out: each booked appointment becomes an event on the connected Google Calendar (moved with
 * it, deleted when it is cancelled). A calendar tied to one staff member or room gets that
 * resource's appointments as ordinary (busy) events; a calendar for the whole business gets every
 * appointment as a "free" (transparent) event, so its free/busy keeps showing only the owner's own
 * commitments and one staff member's booking does not block the others.
 */
export async function hasCalendarConnection(db: DbOrTx, organizationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: integrationConnections.id })
    .from(integrationConnections)
    .where(
      and(
        eq(integrationConnections.organizationId, organizationId),
        eq(integrationConnections.integration, GOOGLE_CALENDAR_SLUG),
        eq(integrationConnections.connected, true),
      ),
    );
  return Boolean(row);
}

export type SyncOutcome = "not_connected" | "created_or_updated" | "deleted" | "nothing_to_do";

export async function syncAppointmentToCalendar(db: DbOrTx, organizationId: string, appointmentId: string, urls: CalendarUrls = {}): Promise<SyncOutcome> {
  const connection = await getCalendarConnection(db, organizationId, urls);
  if (!connection) return "not_connected";
  const [row] = await db.select().from(appointments).where(and(eq(appointments.id, appointmentId), eq(appointments.organizationId, organizationId)));
  if (!row) return "nothing_to_do";
  const belongs = connection.resourceId === null || connection.resourceId === row.resourceId;
  if (row.status === "confirmed" && belongs) {
    const org = await organizationBooking(db, organizationId);
    const { id } = await connection.provider.upsertEvent(connection.calendarId, {
      id: row.googleEventId ?? googleEventId(row.id),
      summary: `${row.serviceName} — ${row.customerName}`,
      description: `${readBackOf(row, null, org.timezone)}.\nPhone: ${row.customerPhone}${row.notes ? `\nNotes: ${row.notes}` : ""}\nBooked through Switchboard.`,
      start: row.startsAt,
      end: row.endsAt,
      timeZone: org.timezone,
      transparent: connection.resourceId === null,
    });
    if (id !== row.googleEventId) {
      await db.update(appointments).set({ googleEventId: id }).where(and(eq(appointments.id, row.id), eq(appointments.organizationId, organizationId)));
    }
    return "created_or_updated";
  }
  if (row.googleEventId) {
    await connection.provider.deleteEvent(connection.calendarId, row.googleEventId);
    await db.update(appointments).set({ googleEventId: null }).where(and(eq(appointments.id, row.id), eq(appointments.organizationId, organizationId)));
    return "deleted";
  }
  return "nothing_to_do";
}

export const calendarSyncJob = defineJob<{ organizationId: string; appointmentId: string }>({
  name: "appointments.calendar-sync",
  retryLimit: 5,
  retryDelaySeconds: 60,
  handler: async (data, { db }) => {
    await syncAppointmentToCalendar(db, data.organizationId, data.appointmentId);
  },
});
