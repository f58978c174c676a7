import { receiveCallRecording } from "@/lib/compliance/recordings";
import { publicRoute } from "@/lib/http/route";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/voice/call-recording — the whole-call recording's status callback (signed by the carrier). */
export const POST = publicRoute(async (req, { db }) => receiveCallRecording(db, await readCarrierRequest(req)));
