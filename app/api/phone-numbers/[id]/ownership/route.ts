import { authedRoute } from "@/lib/identity/http/route";
import { startOwnershipCall } from "@/lib/phone/numbers/ownership";

/** POST /api/phone-numbers/{id}/ownership — call the brought-in number again with a new code; answers {status, code}. */
export const POST = authedRoute({ permission: "phone_numbers.write", accepts: "any" }, async (_req, { db, ctx, params }) =>
  startOwnershipCall(db, ctx.organizationId, params.id),
);
