import { publicRoute } from "@/lib/http/route";
import { finishRecording, stepOf } from "@/lib/telephony/voice/calls";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/voice/record?step=N — the voicemail was recorded. Signed by the carrier; answered with TwiML. */
export const POST = publicRoute(async (req, { db }) => finishRecording(db, await readCarrierRequest(req), stepOf(req)));
