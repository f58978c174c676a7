import { deleteBlockedTime } from "@/lib/appointments/resources";
import { authedRoute } from "@/lib/http/route";

export const DELETE = authedRoute({ permission: "appointments.write" }, async (_req, { db, ctx, params }) => deleteBlockedTime(db, ctx.organizationId, params.id));
