import { answeringSlotConflicts } from "@/lib/appointments/http";
import { cancelAppointmentInput, updateAppointmentInput } from "@/lib/appointments/schema";
import { cancelAppointment, getAppointment, updateAppointment } from "@/lib/appointments/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "appointments.read" }, async (_req, { db, ctx, params }) => getAppointment(db, ctx.organizationId, params.id));

export const PATCH = authedRoute({ permission: "appointments.write" }, async (req, { db, ctx, params }) => {
  const input = await parseJsonBody(req, updateAppointmentInput);
  return answeringSlotConflicts(() => updateAppointment(db, ctx.organizationId, params.id, input));
});

/** Cancels (the row stays, status "cancelled"); an optional JSON body `{reason}`. */
export const DELETE = authedRoute({ permission: "appointments.write" }, async (req, { db, ctx, params }) => {
  const input = await parseJsonBody(req, cancelAppointmentInput);
  return cancelAppointment(db, ctx.organizationId, params.id, { reason: input.reason ?? "Cancelled by the business" });
});
