import { z } from "zod";
import { connectIntegration, connectSchemaFor, requireEntry } from "@/lib/channels/integrations/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

/**
 * POST /api/integrations/{slug}/connect — a webhook URL, a Slack incoming webhook or a pasted Google
 * credential connects at once; an OAuth card (HubSpot, "Add to Slack", Google Calendar) answers
 * {authorizeUrl} to send the browser to, or 409 naming the server settings it lacks.
 */
export const POST = authedRoute({ permission: "integrations.write" }, async (req, { db, ctx, params }) => {
  const entry = requireEntry(params.slug);
  const raw = await parseJsonBody(req.clone(), z.record(z.string(), z.unknown()));
  const input = await parseJsonBody(req, connectSchemaFor(entry, raw));
  return connectIntegration(db, ctx.organizationId, entry, input, { userId: ctx.userId });
});
