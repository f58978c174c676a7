import { disconnectIntegration, requireEntry } from "@/lib/channels/integrations/service";
import { authedRoute } from "@/lib/identity/http/route";

export const POST = authedRoute({ permission: "integrations.write" }, async (_req, { db, ctx, params }) =>
  disconnectIntegration(db, ctx.organizationId, requireEntry(params.slug)),
);
