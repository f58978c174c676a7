import { availabilityQuery } from "@/lib/scheduling/schema";
import { findSlots } from "@/lib/scheduling/service";
import { parseQuery } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "appointments.read" }, async (req, { db, ctx }) => {
  const q = parseQuery(req, availabilityQuery);
  return findSlots(db, ctx.organizationId, q);
});
