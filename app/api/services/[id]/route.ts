import { authedRoute } from "@/lib/identity/http/route";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { updateServiceInput } from "@/lib/knowledge/services/schema";
import { deleteService, getService, updateService } from "@/lib/knowledge/services/service";

export const GET = authedRoute({ permission: "services.read" }, async (_req, { db, ctx, params }) => getService(db, ctx.organizationId, params.id));

export const PATCH = authedRoute({ permission: "services.write" }, async (req, { db, ctx, params }) => {
  const input = await parseJsonBody(req, updateServiceInput);
  return updateService(db, ctx.organizationId, params.id, input);
});

export const DELETE = authedRoute({ permission: "services.write" }, async (_req, { db, ctx, params }) => deleteService(db, ctx.organizationId, params.id));
