import { deleteBlockedTime } from "@/lib/scheduling/resources";
import { authedRoute } from "@/lib/identity/http/route";

export const DELETE = authedRoute({ permission: "appointments.write" }, async (_req, { db, ctx, params }) => deleteBlockedTime(db, ctx.organizationId, params.id));
