import { parseJsonBody } from "@/lib/http/parse";
import { authedRoute } from "@/lib/http/route";
import { profileInput } from "@/lib/settings/schema";
import { updateProfile } from "@/lib/settings/service";

/** The caller's own profile: any signed-in user. */
export const PATCH = authedRoute({ permission: "account.write" }, async (req, { db, ctx }) => {
  const input = await parseJsonBody(req, profileInput);
  return updateProfile(db, ctx, input);
});
