import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { passwordInput } from "@/lib/workspace/settings/schema";
import { changePassword } from "@/lib/workspace/settings/service";

/** The caller's own password; every other session of the user ends, this one stays. */
export const POST = authedRoute({ permission: "account.write" }, async (req, { db, ctx, session }) => {
  const input = await parseJsonBody(req, passwordInput);
  await changePassword(db, ctx, session.token, req.headers, input);
  return { success: true };
});
