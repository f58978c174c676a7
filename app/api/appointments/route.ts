import { answeringSlotConflicts } from "@/lib/scheduling/http";
import { createAppointmentInput, listAppointmentsQuery } from "@/lib/scheduling/schema";
import { bookSlot, listAppointments } from "@/lib/scheduling/service";
import { parseJsonBody, parseQuery } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "appointments.read" }, async (req, { db, ctx }) => {
  const q = parseQuery(req, listAppointmentsQuery);
  return listAppointments(db, ctx.organizationId, { from: q.from, to: q.to, includeCancelled: q.includeCancelled === "true" });
});

export const POST = authedRoute({ permission: "appointments.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createAppointmentInput);
  return answeringSlotConflicts(async () =>
    json(await bookSlot(db, ctx.organizationId, { ...input, start: input.start.toISOString(), source: "manual" }), { status: 201 }),
  );
});
