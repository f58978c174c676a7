import { createResource, listResources } from "@/lib/appointments/resources";
import { createResourceInput } from "@/lib/appointments/schema";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute, json } from "@/lib/http/route";

export const GET = authedRoute({ permission: "appointments.read" }, async (_req, { db, ctx }) => listResources(db, ctx.organizationId));

export const POST = authedRoute({ permission: "services.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createResourceInput);
  return json(await createResource(db, ctx.organizationId, input), { status: 201 });
});
