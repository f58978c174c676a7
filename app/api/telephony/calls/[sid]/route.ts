import { getCallDetailBySid } from "@/lib/receptionist/call-history/service";
import { authedRoute } from "@/lib/identity/http/route";

/** GET /api/telephony/calls/{callSid} — a call by the carrier's CallSid, as GET /api/calls/{id} answers it. */
export const GET = authedRoute({ permission: "calls.read" }, async (_req, { db, ctx, params }) => getCallDetailBySid(db, ctx.organizationId, params.sid));
