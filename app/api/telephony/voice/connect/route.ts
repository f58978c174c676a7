import { afterRelay } from "@/lib/telephony/voice/connect";
import { stepOf } from "@/lib/telephony/voice/step";
import { carrierWebhookRoute } from "@/lib/telephony/webhook-route";

/** POST /api/telephony/voice/connect?step=N — ConversationRelay handed the call back (HandoffData). Signed by the carrier; answered with TwiML. */
export const POST = carrierWebhookRoute((db, carrier, req) => afterRelay(db, carrier, stepOf(req)));
