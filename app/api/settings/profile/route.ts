import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { profileInput } from "@/lib/workspace/settings/schema";
import { updateProfile } from "@/lib/workspace/settings/service";

/** The caller's own profile: any signed-in user. */
export const PATCH = authedRoute({ permission: "account.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, profileInput);
  return updateProfile(db, ctx, input);
});
