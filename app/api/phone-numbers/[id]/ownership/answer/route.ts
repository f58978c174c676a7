import { parseJsonBody } from "@/lib/platform/http/parse";
import { authedRoute } from "@/lib/identity/http/route";
import { answerSimulatedOwnershipCall } from "@/lib/phone/numbers/ownership";
import { ownershipAnswerInput } from "@/lib/phone/numbers/schema";

/** POST /api/phone-numbers/{id}/ownership/answer {digits} — the simulated handset keys the code; answers {status}. */
export const POST = authedRoute({ permission: "phone_numbers.write" }, async (req, { db, ctx, params }) => {
  const { digits } = await parseJsonBody(req, ownershipAnswerInput);
  return answerSimulatedOwnershipCall(db, ctx.organizationId, params.id, digits);
});
