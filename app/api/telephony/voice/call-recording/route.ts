import { receiveCallRecording } from "@/lib/compliance/recordings";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

/** POST /api/telephony/voice/call-recording — the whole-call recording's status callback (signed by the carrier). */
export const POST = carrierWebhookRoute((db, carrier) => receiveCallRecording(db, carrier));
