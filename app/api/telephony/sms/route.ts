import { publicRoute } from "@/lib/http/route";
import { receiveSms } from "@/lib/telephony/sms";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/sms — a text arrives (Twilio's messaging webhook, signed; answered with TwiML <Message>). */
export const POST = publicRoute(async (req, { db }) => receiveSms(db, await readCarrierRequest(req)));
