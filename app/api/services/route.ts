import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute, json } from "@/lib/http/route";
import { createServiceInput } from "@/lib/services/schema";
import { createService, listServices } from "@/lib/services/service";

export const GET = authedRoute({ permission: "business.read" }, async (_req, { db, ctx }) => listServices(db, ctx.organizationId));

export const POST = authedRoute({ permission: "business.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createServiceInput);
  return json(await createService(db, ctx.organizationId, input), { status: 201 });
});
