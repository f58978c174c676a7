import { registerInput } from "@/lib/auth/schemas";
import { signedInResponse } from "@/lib/auth/responses";
import { assertRegistrationAllowed } from "@/lib/auth/service";
import { registerAccount } from "@/lib/signup/account";
import { clientIp } from "@/lib/http/client-ip";
import { parseJsonBody } from "@/lib/http/parse";
import { publicRoute } from "@/lib/http/route";

export const POST = publicRoute(async (req, { db }) => {
  const input = await parseJsonBody(req, registerInput);
  await assertRegistrationAllowed(db, clientIp(req.headers));
  return signedInResponse(await registerAccount(db, input, req.headers));
});
