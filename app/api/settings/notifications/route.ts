import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { notificationsInput } from "@/lib/workspace/settings/schema";
import { getNotificationPreferences, updateNotificationPreferences } from "@/lib/workspace/settings/service";

/** The caller's own switches. */
export const GET = authedRoute({ permission: "account.read" }, async (_req, { db, ctx }) => getNotificationPreferences(db, ctx.userId));

export const PUT = authedRoute({ permission: "account.write" }, async (req, { db, ctx }) => {
  const patch = await parseJsonBody(req, notificationsInput);
  return updateNotificationPreferences(db, ctx.userId, patch);
});
