import { parseQuery } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { listTasksQuery } from "@/lib/phone/callers/tasks-schema";
import { listTasks } from "@/lib/phone/callers/tasks";

/** GET /api/tasks?status=open|done|snoozed|all&limit= */
export const GET = authedRoute({ permission: "calls.read" }, async (req, { db, ctx }) => listTasks(db, ctx.organizationId, parseQuery(req, listTasksQuery)));
