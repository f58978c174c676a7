import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { markNotificationsRead } from "@/lib/receptionist/inbox";
import { markNotificationsReadInput } from "@/lib/receptionist/schema";

/** POST /api/notifications/read {ids?}: marks the caller's own notifications read; answers {unread}. */
export const POST = authedRoute({ permission: "dashboard.read" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, markNotificationsReadInput);
  return markNotificationsRead(db, ctx.organizationId, ctx.userId, input.ids);
});
