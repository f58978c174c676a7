import { authedRoute } from "@/lib/identity/http/route";
import { listRecaps } from "@/lib/receptionist/recaps";

/** GET /api/recaps: the latest recaps and the recap settings. */
export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) => listRecaps(db, ctx.organizationId));
