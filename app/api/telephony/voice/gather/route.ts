import { markStayedOn } from "@/lib/compliance/consent";
import { continueAfterGather } from "@/lib/channels/phone-line/voice/gather";
import { stepOf } from "@/lib/channels/phone-line/voice/step";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

/** POST /api/telephony/voice/gather?step=N — what the caller said (SpeechResult). Signed by the carrier; answered with TwiML. */
export const POST = carrierWebhookRoute(async (db, carrier, req) => {
  const res = await continueAfterGather(db, carrier, stepOf(req));
  // A Gather answered after the notice: the caller stayed on (the consent record, lib/compliance/consent.ts).
  if (res.ok) await markStayedOn(db, carrier.params.CallSid);
  return res;
});
