import { loginInput } from "@/lib/auth/schemas";
import { signedInResponse } from "@/lib/auth/responses";
import { signIn } from "@/lib/auth/service";
import { clientIp } from "@/lib/http/client-ip";
import { parseJsonBody } from "@/lib/http/parse";
import { publicRoute } from "@/lib/http/route";

export const POST = publicRoute(async (req, { db }) => {
  const input = await parseJsonBody(req, loginInput);
  const signedIn = await signIn(db, input, req.headers, clientIp(req.headers));
  return signedInResponse(signedIn);
});
