import { registerInput } from "@/lib/identity/auth/schemas";
import { signedInResponse } from "@/lib/identity/auth/responses";
import { assertRegistrationAllowed } from "@/lib/identity/auth/service";
import { registerAccount } from "@/lib/consoles/signup/account";
import { clientIp } from "@/lib/platform/http/client-ip";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { publicRoute } from "@/lib/identity/http/route";

export const POST = publicRoute(async (req, { db }) => {
  const input = await parseJsonBody(req, registerInput);
  await assertRegistrationAllowed(db, clientIp(req.headers));
  return signedInResponse(await registerAccount(db, input, req.headers));
});
