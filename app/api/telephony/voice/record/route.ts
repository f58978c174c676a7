import { finishRecording } from "@/lib/channels/phone-line/voice/record";
import { stepOf } from "@/lib/channels/phone-line/voice/step";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

/** POST /api/telephony/voice/record?step=N — the voicemail was recorded. Signed by the carrier; answered with TwiML. */
export const POST = carrierWebhookRoute((db, carrier, req) => finishRecording(db, carrier, stepOf(req)));
