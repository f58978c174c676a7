import { afterRelay } from "@/lib/channels/phone-line/voice/connect";
import { stepOf } from "@/lib/channels/phone-line/voice/step";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

/** POST /api/telephony/voice/connect?step=N — ConversationRelay handed the call back (HandoffData). Signed by the carrier; answered with TwiML. */
export const POST = carrierWebhookRoute((db, carrier, req) => afterRelay(db, carrier, stepOf(req)));
