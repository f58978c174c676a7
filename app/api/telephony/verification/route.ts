import { publicRoute } from "@/lib/http/route";
import { recordOwnershipResult } from "@/lib/phone-numbers/ownership";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/verification?numberId= — the caller-ID verification call's outcome (signed, as Twilio sends it). */
export const POST = publicRoute(async (req, { db }) => recordOwnershipResult(db, await readCarrierRequest(req)));
