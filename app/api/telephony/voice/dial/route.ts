import { continueAfterDial } from "@/lib/channels/phone-line/voice/dial";
import { stepOf } from "@/lib/channels/phone-line/voice/step";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

/** POST /api/telephony/voice/dial?step=N — how the transfer went (DialCallStatus). Signed by the carrier; answered with TwiML. */
export const POST = carrierWebhookRoute((db, carrier, req) => continueAfterDial(db, carrier, stepOf(req)));
