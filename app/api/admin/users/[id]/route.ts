import { updateUserInput } from "@/lib/consoles/admin/schema";
import { deleteUser, updateUser } from "@/lib/consoles/admin/service";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";

export const PUT = authedRoute({ permission: "admin.users.write" }, async (req, { db, ctx, params }) => {
  const input = await parseJsonBody(req, updateUserInput);
  return updateUser(db, ctx, params.id, input);
});

export const DELETE = authedRoute({ permission: "admin.users.write" }, async (_req, { db, ctx, params }) =>
  deleteUser(db, ctx, params.id),
);
