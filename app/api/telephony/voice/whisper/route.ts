import { whisperForCall } from "@/lib/channels/phone-line/voice/dial";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

/** POST /api/telephony/voice/whisper?callId=… — the briefing the person answering a transfer hears. Signed by the carrier; answered with TwiML. */
export const POST = carrierWebhookRoute((db, carrier, req) => whisperForCall(db, carrier, new URL(req.url).searchParams.get("callId") ?? ""));
