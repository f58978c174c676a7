import { updateLogisticsInput } from "@/lib/reports/crm-voice/schema";
import { setLogisticsStatus } from "@/lib/reports/crm-voice/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

/** PATCH /api/crm-voice/logistics/{id} {status}: mark a captured request completed (or pending again). */
export const PATCH = authedRoute({ permission: "crm.manage" }, async (req, { db, ctx, params }) => {
  const { status } = await parseJsonBody(req, updateLogisticsInput);
  return setLogisticsStatus(db, ctx.organizationId, params.id, status);
});
