import { json, authedRoute } from "@/lib/identity/http/route";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { createServiceInput } from "@/lib/knowledge/services/schema";
import { createService, listServices } from "@/lib/knowledge/services/service";

export const GET = authedRoute({ permission: "services.read" }, async (_req, { db, ctx }) => listServices(db, ctx.organizationId));

export const POST = authedRoute({ permission: "services.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createServiceInput);
  return json(await createService(db, ctx.organizationId, input), { status: 201 });
});
