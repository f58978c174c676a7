import { publicRoute } from "@/lib/http/route";
import { whisperForCall } from "@/lib/telephony/voice/calls";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/voice/whisper?callId=… — the briefing the person answering a transfer hears. Signed by the carrier; answered with TwiML. */
export const POST = publicRoute(async (req, { db }) => whisperForCall(db, await readCarrierRequest(req), new URL(req.url).searchParams.get("callId") ?? ""));
