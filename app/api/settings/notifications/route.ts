import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";
import { notificationsInput } from "@/lib/settings/schema";
import { getNotificationPreferences, updateNotificationPreferences } from "@/lib/settings/service";

/** The caller's own switches. */
export const GET = authedRoute({ permission: "account.read" }, async (_req, { db, ctx }) => getNotificationPreferences(db, ctx.userId));

export const PUT = authedRoute({ permission: "account.write" }, async (req, { db, ctx }) => {
  const patch = await parseJsonBody(req, notificationsInput);
  return updateNotificationPreferences(db, ctx.userId, patch);
});
