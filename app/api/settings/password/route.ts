import { getDb } from "@/db/client";
import { resolveSession } from "@/lib/auth/session";
import { unauthorized } from "@/lib/http/errors";
import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";
import { passwordInput } from "@/lib/settings/schema";
import { changePassword } from "@/lib/settings/service";

/** The caller's own password; every other session of the user ends, this one stays. */
export const POST = authedRoute({}, async (req, { ctx }) => {
  const input = await parseJsonBody(req, passwordInput);
  const session = await resolveSession(req.headers);
  if (!session) throw unauthorized();
  await changePassword(await getDb(), ctx, session.token, req.headers, input);
  return { success: true };
});
