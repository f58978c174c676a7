import { requestPasswordReset } from "@/lib/identity/auth/password-reset";
import { forgotPasswordInput } from "@/lib/identity/auth/schemas";
import { clientIp } from "@/lib/platform/http/client-ip";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { publicRoute } from "@/lib/identity/http/route";

/** POST {email} → 200 whether or not the address has an account; the link goes by e-mail (or the Outbox). */
export const POST = publicRoute(async (req, { db }) => {
  const input = await parseJsonBody(req, forgotPasswordInput);
  return requestPasswordReset(db, input, clientIp(req.headers));
});
