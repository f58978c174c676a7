import { getDb } from "@/db/client";
import { adminUsersQuery, createUserInput } from "@/lib/admin/schema";
import { createUser, listUsers } from "@/lib/admin/service";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { authedRoute, json } from "@/lib/http/route";

export const GET = authedRoute({ permission: "admin.read" }, async (req) => listUsers(await getDb(), parseQuery(req, adminUsersQuery)));

export const POST = authedRoute({ permission: "admin.users.write" }, async (req, { ctx }) => {
  const input = await parseJsonBody(req, createUserInput);
  return json(await createUser(await getDb(), ctx, input, req.headers), { status: 201 });
});
