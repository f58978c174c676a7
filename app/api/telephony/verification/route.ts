import { recordOwnershipResult } from "@/lib/phone/numbers/ownership";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

/** POST /api/telephony/verification?numberId= — the caller-ID verification call's outcome (signed, as Twilio sends it). */
export const POST = carrierWebhookRoute((db, carrier) => recordOwnershipResult(db, carrier));
