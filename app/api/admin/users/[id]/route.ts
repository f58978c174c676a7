import { getDb } from "@/db/client";
import { updateUserInput } from "@/lib/admin/schema";
import { deleteUser, updateUser } from "@/lib/admin/service";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";

export const PUT = authedRoute({ permission: "admin.users.write" }, async (req, { ctx, params }) => {
  const input = await parseJsonBody(req, updateUserInput);
  return updateUser(await getDb(), ctx, params.id, input);
});

export const DELETE = authedRoute({ permission: "admin.users.write" }, async (_req, { ctx, params }) =>
  deleteUser(await getDb(), ctx, params.id),
);
