import { integrationSettingsInput, requireEntry, saveSettings } from "@/lib/channels/integrations/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

/** POST /api/integrations/{slug}/settings — what the owner picked: Slack's {channelId}, Google Calendar's {calendarId}. */
export const POST = authedRoute({ permission: "integrations.write" }, async (req, { db, ctx, params }) => {
  const entry = requireEntry(params.slug);
  return saveSettings(db, ctx.organizationId, entry, await parseJsonBody(req, integrationSettingsInput));
});
