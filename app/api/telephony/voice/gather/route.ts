import { publicRoute } from "@/lib/http/route";
import { continueAfterGather, stepOf } from "@/lib/telephony/voice/calls";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/voice/gather?step=N — what the caller said (SpeechResult). Signed by the carrier; answered with TwiML. */
export const POST = publicRoute(async (req, { db }) => continueAfterGather(db, await readCarrierRequest(req), stepOf(req)));
