import { authedRoute } from "@/lib/identity/http/route";
import { checkService } from "@/lib/agents/mcp/health";
import { getService } from "@/lib/agents/mcp/service";

/** Checks the service's health now (the Health Monitor's "Check now") and answers the service. */
export const POST = authedRoute({ permission: "mcp.manage" }, async (_req, { db, ctx, params }) => {
  const service = await getService(db, ctx, params.id);
  await checkService(db, service.id);
  return getService(db, ctx, service.id);
});
