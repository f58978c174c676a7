import { publicRoute } from "@/lib/http/route";
import { callStatus } from "@/lib/telephony/voice/calls";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/status — the call status callback (signed): ringing → in-progress → completed / busy / no-answer / failed. */
export const POST = publicRoute(async (req, { db }) => callStatus(db, await readCarrierRequest(req)));
