import { json, authedRoute } from "@/lib/identity/http/route";
import { buildRecap } from "@/lib/receptionist/recaps";

/** POST /api/recaps/run: builds today's recap now (and delivers it), replacing an earlier one of the same date. */
export const POST = authedRoute({ permission: "business.write", accepts: "any" }, async (_req, { db, ctx }) => json(await buildRecap(db, ctx.organizationId), { status: 201 }));
