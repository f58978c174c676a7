import { adminUsersQuery, createUserInput } from "@/lib/consoles/admin/schema";
import { createUser, listUsers } from "@/lib/consoles/admin/service";
import { parseJsonBody, parseQuery } from "@/lib/platform/http/parse";
import { authedRoute, json } from "@/lib/identity/http/route";

export const GET = authedRoute({ permission: "admin.read" }, async (req, { db }) => listUsers(db, parseQuery(req, adminUsersQuery)));

export const POST = authedRoute({ permission: "admin.users.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, createUserInput);
  return json(await createUser(db, ctx, input, req.headers), { status: 201 });
});
