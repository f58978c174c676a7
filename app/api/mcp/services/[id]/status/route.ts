import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { serviceStatusInput } from "@/lib/agents/mcp/schema";
import { setServiceActive } from "@/lib/agents/mcp/service";

export const PUT = authedRoute({ permission: "mcp.manage" }, async (req, { db, ctx, params }) => {
  const { isActive } = await parseJsonBody(req, serviceStatusInput);
  return setServiceActive(db, ctx, params.id, isActive);
});
