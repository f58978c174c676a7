import { archiveResource, getResource, updateResource } from "@/lib/scheduling/resources";
import { updateResourceInput } from "@/lib/scheduling/schema";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "appointments.read" }, async (_req, { db, ctx, params }) => getResource(db, ctx.organizationId, params.id));

export const PATCH = authedRoute({ permission: "services.write" }, async (req, { db, ctx, params }) => {
  const input = await parseJsonBody(req, updateResourceInput);
  return updateResource(db, ctx.organizationId, params.id, input);
});

export const DELETE = authedRoute({ permission: "services.write" }, async (_req, { db, ctx, params }) => archiveResource(db, ctx.organizationId, params.id));
