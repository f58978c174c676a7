import { answerIncomingCall } from "@/lib/channels/phone-line/voice/greet";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

/** POST /api/telephony/voice — a call arrives (Twilio's voice webhook, signed; answered with TwiML). */
export const POST = carrierWebhookRoute((db, carrier) => answerIncomingCall(db, carrier));
