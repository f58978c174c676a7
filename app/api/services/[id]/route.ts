import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";
import { updateServiceInput } from "@/lib/services/schema";
import { deleteService, getService, updateService } from "@/lib/services/service";

export const GET = authedRoute({ permission: "business.read" }, async (_req, { db, ctx, params }) => getService(db, ctx.organizationId, params.id));

export const PATCH = authedRoute({ permission: "business.write" }, async (req, { db, ctx, params }) => {
  const input = await parseJsonBody(req, updateServiceInput);
  return updateService(db, ctx.organizationId, params.id, input);
});

export const DELETE = authedRoute({ permission: "business.write" }, async (_req, { db, ctx, params }) =>
  deleteService(db, ctx.organizationId, params.id),
);
