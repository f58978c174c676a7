import { updateLogisticsInput } from "@/lib/crm-voice/schema";
import { setLogisticsStatus } from "@/lib/crm-voice/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

/** PATCH /api/crm-voice/logistics/{id} {status}: mark a captured request completed (or pending again). */
export const PATCH = authedRoute({ permission: "crm.manage" }, async (req, { db, ctx, params }) => {
  const { status } = await parseJsonBody(req, updateLogisticsInput);
  return setLogisticsStatus(db, ctx.organizationId, params.id, status);
});
