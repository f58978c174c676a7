import { createResource, listResources } from "@/lib/scheduling/resources";
import { createResourceInput } from "@/lib/scheduling/schema";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "appointments.read" }, async (_req, { db, ctx }) => listResources(db, ctx.organizationId));

export const POST = authedRoute({ permission: "services.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createResourceInput);
  return json(await createResource(db, ctx.organizationId, input), { status: 201 });
});
