import { updateUserInput } from "@/lib/admin/schema";
import { deleteUser, updateUser } from "@/lib/admin/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const PUT = authedRoute({ permission: "admin.users.write" }, async (req, { db, ctx, params }) => {
  const input = await parseJsonBody(req, updateUserInput);
  return updateUser(db, ctx, params.id, input);
});

export const DELETE = authedRoute({ permission: "admin.users.write" }, async (_req, { db, ctx, params }) =>
  deleteUser(db, ctx, params.id),
);
