import { availabilityQuery } from "@/lib/appointments/schema";
import { findSlots } from "@/lib/appointments/service";
import { parseQuery } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({ permission: "appointments.read" }, async (req, { db, ctx }) => {
  const q = parseQuery(req, availabilityQuery);
  return findSlots(db, ctx.organizationId, q);
});
