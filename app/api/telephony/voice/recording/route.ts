import { recordingStatus } from "@/lib/channels/phone-line/voice/record";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

/** POST /api/telephony/voice/recording — the recording status callback of a voicemail (signed). */
export const POST = carrierWebhookRoute((db, carrier) => recordingStatus(db, carrier));
