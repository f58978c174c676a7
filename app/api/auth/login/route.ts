import { loginInput } from "@/lib/identity/auth/schemas";
import { signedInResponse } from "@/lib/identity/auth/responses";
import { signIn } from "@/lib/identity/auth/service";
import { clientIp } from "@/lib/platform/http/client-ip";
import { parseJsonBody } from "@/lib/platform/http/parse";
import { publicRoute } from "@/lib/identity/http/route";

export const POST = publicRoute(async (req, { db }) => {
  const input = await parseJsonBody(req, loginInput);
  const signedIn = await signIn(db, input, req.headers, clientIp(req.headers));
  return signedInResponse(signedIn);
});
