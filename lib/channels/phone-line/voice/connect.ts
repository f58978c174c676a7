import "server-only";
import type { Db } from "@/db/client";
import { hangupTwiml } from "@/lib/phone/telephony/twiml";
import type { CarrierRequest } from "@/lib/phone/telephony/webhook";
import type { VoiceDeps } from "./runtime";
import { LINES } from "./lines";
import { MAX_RELAY_RECONNECTS, reconnectRelayTwiml, RECONNECT_LINE, RELAY_RECONNECT_TAG, relayReconnectsOf } from "@/lib/phone/telephony/relay/reconnect";
import { businessName, dialPerson, openStep, respond, turn, voicemailAnswer } from "./step";

// ─── The streaming path hands the call back ───────────────────────────────────────────────────

/**
 * POST connect?step=N: ConversationRelay ended (the gateway sent `end`, or the session failed).
 * HandoffData says why: transfer → <Dial>, voicemail → <Record>, otherwise the call ends.
 */
export async function afterRelay(db: Db, req: CarrierRequest, step: number, deps: VoiceDeps = {}): Promise<Response> {
  const opened = await openStep(db, req, step, deps);
  if (opened instanceof Response) return opened;
  const { call, claimed, runtime } = opened;
  let reason = "";
  let handoffTo: string | null = null;
  try {
    const handoff = JSON.parse(req.params.HandoffData ?? "{}") as { reason?: unknown; to?: unknown };
    reason = String(handoff.reason ?? "");
    // The engine's transfer names its number (an owner's rule may send an emergency elsewhere).
    if (typeof handoff.to === "string" && /^\+[1-9]\d{6,14}$/.test(handoff.to)) handoffTo = handoff.to;
  } catch {
    reason = "";
  }
  const biz = businessName(runtime);
  const forwardTo = handoffTo ?? runtime.number?.forwardTo ?? null;
  if (reason === "transfer" && forwardTo) {
    return respond(runtime, req, step, { xml: dialPerson(call, [], forwardTo, step + 1), mode: "transfer" });
  }
  if (reason === "voicemail") return respond(runtime, req, step, await voicemailAnswer(runtime, step, LINES.voicemailPrompt(biz), [], { say: true }));
  if (!reason && req.params.SessionStatus === "failed" && runtime.assistant && relayReconnectsOf(runtime.call.transcript) < MAX_RELAY_RECONNECTS) {
    // The socket dropped (a gateway died): a new session on any gateway goes on from the stored state.
    return respond(runtime, req, step, { xml: reconnectRelayTwiml(call.id, step, runtime.assistant.relay), turns: [turn("assistant", RECONNECT_LINE, { intent: RELAY_RECONNECT_TAG })] });
  }
  if (!reason && req.params.SessionStatus === "failed") {
    const answer = await voicemailAnswer(runtime, step, LINES.trouble, [], { say: true });
    return respond(runtime, req, step, { ...answer, failureClass: "processing" });
  }
  return respond(runtime, req, step, { xml: hangupTwiml([]), ended: { status: "completed", outcome: claimed.outcome ?? "answered_by_assistant" } });
}
