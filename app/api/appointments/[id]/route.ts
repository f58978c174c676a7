import { answeringSlotConflicts } from "@/lib/scheduling/http";
import { cancelAppointmentInput, updateAppointmentInput } from "@/lib/scheduling/schema";
import { cancelAppointment, getAppointment, updateAppointment } from "@/lib/scheduling/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

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
