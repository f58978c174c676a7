import { getDb } from "@/db/client";
import { disconnectIntegration, requireEntry } from "@/lib/integrations/service";
import { authedRoute } from "@/lib/http/route";

export const POST = authedRoute({ permission: "integrations.write" }, async (_req, { ctx, params }) =>
  disconnectIntegration(await getDb(), ctx.organizationId, requireEntry(params.slug)),
);
