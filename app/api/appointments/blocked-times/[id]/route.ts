import { deleteBlockedTime } from "@/lib/scheduling/resources";
import { authedRoute } from "@/lib/platform/http/route";

export const DELETE = authedRoute({ permission: "appointments.write" }, async (_req, { db, ctx, params }) => deleteBlockedTime(db, ctx.organizationId, params.id));
