import { requireEntry, syncNow } from "@/lib/channels/integrations/service";
import { authedRoute } from "@/lib/identity/http/route";

/** POST /api/integrations/hubspot/sync — "Sync now": the last 30 days of calls go to HubSpot again through the job runner. */
export const POST = authedRoute({ permission: "integrations.write" }, async (_req, { db, ctx, params }) =>
  syncNow(db, ctx.organizationId, requireEntry(params.slug)),
);
