import { authedRoute } from "@/lib/identity/http/route";
import { deleteService, getService } from "@/lib/agents/mcp/service";

export const GET = authedRoute({ permission: "mcp.manage" }, async (_req, { db, ctx, params }) => getService(db, ctx, params.id));

export const DELETE = authedRoute({ permission: "mcp.manage" }, async (_req, { db, ctx, params }) => {
  await deleteService(db, ctx, params.id);
  return { success: true };
});
