import { publicRoute } from "@/lib/http/route";
import { continueAfterDial, stepOf } from "@/lib/telephony/voice/calls";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/voice/dial?step=N — how the transfer went (DialCallStatus). Signed by the carrier; answered with TwiML. */
export const POST = publicRoute(async (req, { db }) => continueAfterDial(db, await readCarrierRequest(req), stepOf(req)));
