import { authedRoute } from "@/lib/identity/http/route";
import { startForwardingTest } from "@/lib/phone/numbers/ownership";
import { answerIncomingCall } from "@/lib/channels/phone-line/voice/greet";

/**
 * POST /api/phone-numbers/{id}/forwarding-test — calls the number; GET /api/phone-numbers/{id}
 * then shows `forwardingTest.arrived` once the call reached the voice webhook.
 */
export const POST = authedRoute({ permission: "phone_numbers.write", accepts: "any" }, async (_req, { db, ctx, params }) =>
  startForwardingTest(db, ctx.organizationId, params.id, { deliver: (call) => answerIncomingCall(db, call) }),
);
