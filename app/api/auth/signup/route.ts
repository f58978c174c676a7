import { assertRegistrationAllowed } from "@/lib/identity/auth/service";
import { clientIp } from "@/lib/platform/http/client-ip";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { publicRoute } from "@/lib/identity/http/route";
import { signupInput } from "@/lib/consoles/signup/schema";
import { signUp, signupResponse } from "@/lib/consoles/signup/service";

export const POST = publicRoute(async (req, { db }) => {
  const input = await parseJsonBody(req, signupInput);
  await assertRegistrationAllowed(db, clientIp(req.headers));
  const { signedIn, user } = await signUp(db, input, req.headers);
  return signupResponse(signedIn, user);
});
