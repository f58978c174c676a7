import { createBlockedTime, listBlockedTimes } from "@/lib/scheduling/resources";
import { createBlockedTimeInput, listAppointmentsQuery } from "@/lib/scheduling/schema";
import { parseJsonBody, parseQuery } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "appointments.read" }, async (req, { db, ctx }) => {
  const q = parseQuery(req, listAppointmentsQuery);
  return listBlockedTimes(db, ctx.organizationId, q.from, q.to);
});

export const POST = authedRoute({ permission: "appointments.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createBlockedTimeInput);
  return json(await createBlockedTime(db, ctx.organizationId, input), { status: 201 });
});
