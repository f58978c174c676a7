import { markStayedOn } from "@/lib/compliance/consent";
import { publicRoute } from "@/lib/http/route";
import { continueAfterGather, stepOf } from "@/lib/telephony/voice/calls";
import { readCarrierRequest } from "@/lib/telephony/webhook";

/** POST /api/telephony/voice/gather?step=N — what the caller said (SpeechResult). Signed by the carrier; answered with TwiML. */
export const POST = publicRoute(async (req, { db }) => {
  const carrier = await readCarrierRequest(req);
  const res = await continueAfterGather(db, carrier, stepOf(req));
  // A Gather answered after the notice: the caller stayed on (the consent record, lib/compliance/consent.ts).
  if (res.ok) await markStayedOn(db, carrier.params.CallSid);
  return res;
});
