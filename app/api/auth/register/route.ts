import { registerInput } from "@/lib/auth/schemas";
import { signedInResponse } from "@/lib/auth/responses";
import { registerAccount } from "@/lib/auth/service";
import { parseJsonBody } from "@/lib/http/parse";
import { publicRoute } from "@/lib/http/route";

export const POST = publicRoute(async (req, { db }) => {
  const input = await parseJsonBody(req, registerInput);
  return signedInResponse(await registerAccount(db, input, req.headers));
});
