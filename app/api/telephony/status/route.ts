import { enforceConsent } from "@/lib/compliance/consent";
import { eraseAfterCall } from "@/lib/compliance/erasure";
import { callStatus } from "@/lib/channels/phone-line/voice/status";
import { carrierWebhookRoute } from "@/lib/phone/telephony/webhook-route";

const ENDED = new Set(["completed", "busy", "no-answer", "canceled", "failed"]);

/** POST /api/telephony/status — the call status callback (signed): ringing → in-progress → completed / busy / no-answer / failed. */
export const POST = carrierWebhookRoute(async (db, carrier) => {
  const res = await callStatus(db, carrier);
  // Without consent the call is answered, not kept (docs/compliance.md#consent).
  if (res.ok && ENDED.has(carrier.params.CallStatus ?? "")) {
    await enforceConsent(db, carrier.params.CallSid);
    // A caller who said "forget me" during the call: its last turns go too (docs/compliance.md#erasure).
    await eraseAfterCall(db, carrier.params.CallSid);
  }
  return res;
});
