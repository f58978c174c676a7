import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { updateTaskInput } from "@/lib/phone/callers/tasks-schema";
import { updateTask } from "@/lib/phone/callers/tasks";

/** PATCH /api/tasks/{id} {status: open|done|snoozed, assigneeId?, snoozedUntil?} */
export const PATCH = authedRoute({ permission: "messages.write" }, async (req, { db, ctx, params }) =>
  updateTask(db, ctx.organizationId, params.id, await parseJsonBody(req, updateTaskInput)),
);
