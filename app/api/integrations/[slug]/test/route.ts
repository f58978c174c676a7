import { getDb } from "@/db/client";
import { requireEntry, sendTestEvent } from "@/lib/integrations/service";
import { authedRoute } from "@/lib/http/route";

export const POST = authedRoute({ permission: "integrations.write" }, async (_req, { ctx, params }) =>
  sendTestEvent(await getDb(), ctx.organizationId, requireEntry(params.slug)),
);
