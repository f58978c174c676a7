import type { appointments } from "@/db/schema";
import { describeInstant, toZoned } from "./time";

/** What the routes, the screen and the assistant's tools see of an appointment or a hold. */
export type AppointmentRow = typeof appointments.$inferSelect;

export type SpokenTime = { day: string; date: string; time: string; zone: string };

export type AppointmentView = {
  id: string;
  status: "held" | "confirmed" | "cancelled";
  serviceId: string | null;
  serviceName: string;
  resourceId: string | null;
  resourceName: string | null;
  start: string;
  end: string;
  /** In the organization's time zone. */
  localDate: string;
  localTime: string;
  timezone: string;
  label: SpokenTime;
  customerName: string;
  customerPhone: string;
  notes: string;
  source: AppointmentRow["source"];
  holdExpiresAt: string | null;
  customerConfirmedAt: string | null;
  cancelledAt: string | null;
  createdAt: string;
  /** "Haircut with Anna on Tuesday, March 16, 2027 at 2:30 PM for Jane Doe": what the assistant reads back. */
  readBack: string;
};

export function readBackOf(row: Pick<AppointmentRow, "serviceName" | "startsAt" | "customerName">, resourceName: string | null, timezone: string): string {
  const t = describeInstant(row.startsAt, timezone);
  const who = resourceName ? ` with ${resourceName}` : "";
  return `${row.serviceName}${who} on ${t.day}, ${t.date} at ${t.time} for ${row.customerName}`;
}

export function toAppointmentView(row: AppointmentRow, resourceName: string | null, timezone: string): AppointmentView {
  const z = toZoned(row.startsAt, timezone);
  return {
    id: row.id,
    status: row.status,
    serviceId: row.serviceId,
    serviceName: row.serviceName,
    resourceId: row.resourceId,
    resourceName,
    start: row.startsAt.toISOString(),
    end: row.endsAt.toISOString(),
    localDate: z.date,
    localTime: z.time,
    timezone,
    label: describeInstant(row.startsAt, timezone),
    customerName: row.customerName,
    customerPhone: row.customerPhone,
    notes: row.notes,
    source: row.source,
    holdExpiresAt: row.holdExpiresAt ? row.holdExpiresAt.toISOString() : null,
    customerConfirmedAt: row.customerConfirmedAt ? row.customerConfirmedAt.toISOString() : null,
    cancelledAt: row.cancelledAt ? row.cancelledAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    readBack: readBackOf(row, resourceName, timezone),
  };
}

export type SlotView = {
  start: string;
  end: string;
  /** The staff or rooms free then (null: the business's own calendar). */
  resourceIds: (string | null)[];
  localDate: string;
  localTime: string;
  label: SpokenTime;
};
