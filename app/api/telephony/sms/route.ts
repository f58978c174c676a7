import { receiveSms } from "@/lib/telephony/sms";
import { carrierWebhookRoute } from "@/lib/telephony/webhook-route";

/** POST /api/telephony/sms — a text arrives (Twilio's messaging webhook, signed; answered with TwiML <Message>). */
export const POST = carrierWebhookRoute((db, carrier) => receiveSms(db, carrier));
