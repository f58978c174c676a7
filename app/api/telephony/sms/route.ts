import { receiveSms } from "@/lib/channels/phone-line/sms";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

/** POST /api/telephony/sms — a text arrives (Twilio's messaging webhook, signed; answered with TwiML <Message>). */
export const POST = carrierWebhookRoute((db, carrier) => receiveSms(db, carrier));
