import { getDb } from "@/db/client";
import { listDeliveries, requireEntry } from "@/lib/integrations/service";
import { authedRoute } from "@/lib/http/route";

export const GET = authedRoute({}, async (_req, { ctx, params }) =>
  listDeliveries(await getDb(), ctx.organizationId, requireEntry(params.slug)),
);
