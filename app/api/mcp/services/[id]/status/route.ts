import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";
import { serviceStatusInput } from "@/lib/mcp/schema";
import { setServiceActive } from "@/lib/mcp/service";

export const PUT = authedRoute({ permission: "mcp.manage" }, async (req, { db, ctx, params }) => {
  const { isActive } = await parseJsonBody(req, serviceStatusInput);
  return setServiceActive(db, ctx, params.id, isActive);
});
