import { getDb } from "@/db/client";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";
import { notificationsInput } from "@/lib/settings/schema";
import { getNotificationPreferences, updateNotificationPreferences } from "@/lib/settings/service";

/** The caller's own switches. */
export const GET = authedRoute({}, async (_req, { ctx }) => getNotificationPreferences(await getDb(), ctx.userId));

export const PUT = authedRoute({}, async (req, { ctx }) => {
  const patch = await parseJsonBody(req, notificationsInput);
  return updateNotificationPreferences(await getDb(), ctx.userId, patch);
});
