import { listDeliveries, requireEntry } from "@/lib/channels/integrations/service";
import { authedRoute } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "integrations.read" }, async (_req, { db, ctx, params }) =>
  listDeliveries(db, ctx.organizationId, requireEntry(params.slug)),
);
