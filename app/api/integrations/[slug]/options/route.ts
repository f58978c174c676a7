import { listOptions, requireEntry } from "@/lib/channels/integrations/service";
import { authedRoute } from "@/lib/identity/http/route";

/** GET /api/integrations/{slug}/options — the picker's choices: Slack channels, Google calendars ([{id, name}]). */
export const GET = authedRoute({ permission: "integrations.read" }, async (_req, { db, ctx, params }) =>
  listOptions(db, ctx.organizationId, requireEntry(params.slug)),
);
