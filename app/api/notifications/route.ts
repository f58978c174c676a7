import { authedRoute } from "@/lib/identity/http/route";
import { listNotifications } from "@/lib/receptionist/inbox";

/** GET /api/notifications: the signed-in user's in-app notifications (latest 50) and the unread count. */
export const GET = authedRoute({ permission: "dashboard.read" }, async (_req, { db, ctx }) => listNotifications(db, ctx.organizationId, ctx.userId));
