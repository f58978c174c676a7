import { publicRoute } from "@/lib/http/route";
import { recordingStatus } from "@/lib/telephony/voice/calls";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/voice/recording — the recording status callback of a voicemail (signed). */
export const POST = publicRoute(async (req, { db }) => recordingStatus(db, await readCarrierRequest(req)));
