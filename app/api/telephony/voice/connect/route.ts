import { publicRoute } from "@/lib/http/route";
import { afterRelay, stepOf } from "@/lib/telephony/voice/calls";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/voice/connect?step=N — ConversationRelay handed the call back (HandoffData). Signed by the carrier; answered with TwiML. */
export const POST = publicRoute(async (req, { db }) => afterRelay(db, await readCarrierRequest(req), stepOf(req)));
