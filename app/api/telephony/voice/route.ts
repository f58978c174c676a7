import { publicRoute } from "@/lib/http/route";
import { answerIncomingCall } from "@/lib/telephony/voice/calls";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/voice — a call arrives (Twilio's voice webhook, signed; answered with TwiML). */
export const POST = publicRoute(async (req, { db }) => answerIncomingCall(db, await readCarrierRequest(req)));
