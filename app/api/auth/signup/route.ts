import { assertRegistrationAllowed } from "@/lib/auth/service";
import { clientIp } from "@/lib/http/client-ip";
import { parseJsonBody } from "@/lib/http/parse";
import { publicRoute } from "@/lib/http/route";
import { signupInput } from "@/lib/signup/schema";
import { signUp, signupResponse } from "@/lib/signup/service";

export const POST = publicRoute(async (req, { db }) => {
  const input = await parseJsonBody(req, signupInput);
  await assertRegistrationAllowed(db, clientIp(req.headers));
  const { signedIn, user } = await signUp(db, input, req.headers);
  return signupResponse(signedIn, user);
});
