import { resetPassword } from "@/lib/identity/auth/password-reset";
import { resetPasswordInput } from "@/lib/identity/auth/schemas";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { publicRoute } from "@/lib/identity/http/route";

/** POST {token, newPassword} → 200, or 400 naming `token` when the link expired or was used already. */
export const POST = publicRoute(async (req, { db }) => {
  const input = await parseJsonBody(req, resetPasswordInput);
  return resetPassword(db, input);
});
