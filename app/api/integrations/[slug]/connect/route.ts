import { connectIntegration, connectSchemaFor, requireEntry } from "@/lib/integrations/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const POST = authedRoute({ permission: "integrations.write" }, async (req, { db, ctx, params }) => {
  const entry = requireEntry(params.slug);
  const input = await parseJsonBody(req, connectSchemaFor(entry));
  return connectIntegration(db, ctx.organizationId, entry, input);
});
