import { getDb } from "@/db/client";
import { connectIntegration, connectSchemaFor, requireEntry } from "@/lib/integrations/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const POST = authedRoute({ permission: "integrations.write" }, async (req, { ctx, params }) => {
  const entry = requireEntry(params.slug);
  const input = await parseJsonBody(req, connectSchemaFor(entry));
  return connectIntegration(await getDb(), ctx.organizationId, entry, input);
});
