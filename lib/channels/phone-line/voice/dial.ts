import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { calls, organizations } from "@/db/schema";
import { forbidden } from "@/lib/platform/http/errors";
import { recordAction } from "@/lib/phone/telephony/actions";
import { ROUTED, whisperLine } from "@/lib/platform/text/routing";
import { gatherTwiml, hangupTwiml, whisperTwiml } from "@/lib/phone/telephony/twiml";
import { SIGNATURE_MESSAGE, twimlResponse, verifyForCall, type CarrierRequest } from "@/lib/phone/telephony/webhook";
import type { VoiceDeps } from "./runtime";
import { recordCallNotice } from "@/lib/compliance/consent";
import { callOpening } from "@/lib/compliance/twiml";
import { LINES, lineIn } from "./lines";
import { languageOf, messageReasonOf } from "@/lib/agents/conversation/turn";
import { businessName, gatherUrl, line, openStep, respond, turn, voicemailAnswer } from "./step";

// ─── A transfer ──────────────────────────────────────────────────────────────────

/** POST dial?step=N: how the transfer went (DialCallStatus). Nobody answered → the assistant takes a message. */
export async function continueAfterDial(db: Db, req: CarrierRequest, step: number, deps: VoiceDeps = {}): Promise<Response> {
  const opened = await openStep(db, req, step, deps);
  if (opened instanceof Response) return opened;
  const { call, claimed, runtime } = opened;
  const status = req.params.DialCallStatus ?? "failed";
  const to = new URL(req.url).searchParams.get("to") || runtime.number?.forwardTo || null;
  if (status === "completed" || status === "answered") {
    await recordAction(db, {
      organizationId: call.organizationId,
      callId: call.id,
      type: "transferred",
      detail: { to, durationSeconds: Number(req.params.DialCallDuration ?? 0) || 0 },
    });
    return respond(runtime, req, step, {
      xml: hangupTwiml([]),
      turns: [turn("agent", `Connected to ${to ?? "the team"}.`)],
      ended: { status: "completed", outcome: "transferred" },
    });
  }
  await recordAction(db, { organizationId: call.organizationId, callId: call.id, type: "transfer_unanswered", detail: { to, status, ringFirst: claimed.mode === "ring_first" } });
  if (claimed.mode === "ring_first") {
    // Rang the business first and nobody answered: the assistant takes the call (never a dead line).
    const because = claimed.routedBecause?.startsWith("Ring first") ? ROUTED.ringFirstUnanswered(to ?? "the team") : `${claimed.routedBecause ?? ""}; nobody answered, so the assistant took the call`.replace(/^; /, "");
    const biz = businessName(runtime);
    if (!runtime.assistant) return respond(runtime, req, step, { ...(await voicemailAnswer(runtime, step, LINES.noAssistant(biz), [])), extra: { routedBecause: because } });
    const greeting = LINES.ringFirstUnanswered(biz, runtime.assistant.persona.name);
    // The assistant speaks first here: the notice plays before anything is heard or kept (lib/compliance).
    const opening = callOpening(await recordCallNotice(db, { organizationId: call.organizationId, callId: call.id, params: req.params, provider: runtime.number?.provider }));
    const spoken = await line(runtime, greeting);
    return respond(runtime, req, step, {
      xml: gatherTwiml([spoken.prompt], gatherUrl(step + 1), opening.before, opening.recordingCallbackUrl, opening.recordNotice),
      turns: [turn("assistant", greeting)],
      mode: "message",
      silentPrompts: 0,
      timing: { ttsMs: spoken.ttsMs },
      extra: { routedBecause: because },
    });
  }
  const text = lineIn(languageOf(call.transcript), "transferUnanswered")(businessName(runtime));
  const spoken = await line(runtime, text);
  // The message taken next is for whoever the caller asked to be put through to ("is Dr. Chen in?" is
  // part of it); an emergency that rang out stays an urgent one.
  const reason = messageReasonOf(call.transcript) === "emergency" ? "emergency" : "person";
  return respond(runtime, req, step, {
    xml: gatherTwiml([spoken.prompt], gatherUrl(step + 1)),
    turns: [turn("assistant", text, { intent: `message:${reason}` })],
    mode: "message",
    silentPrompts: 0,
    timing: { ttsMs: spoken.ttsMs },
  });
}

// ─── The briefing for whoever answers a transfer ──────────────────────────────────────────────

/**
 * POST whisper?callId=…: Twilio plays this to the person who answers the <Dial> before bridging the
 * caller: one sentence, who and why. Signed like every webhook, with the account of the call's
 * organization (the child leg's CallSid and To are not ours, so the call is named in the URL).
 */
export async function whisperForCall(db: Db, req: CarrierRequest, callId: string): Promise<Response> {
  const [call] = callId ? await db.select().from(calls).where(eq(calls.id, callId)) : [];
  if (!call) throw forbidden(SIGNATURE_MESSAGE);
  await verifyForCall(db, req, call);
  const [org] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, call.organizationId));
  const said = [...call.transcript].reverse().find((t) => t.speaker === "caller" && t.kind !== "dtmf")?.text;
  const quoted = said && said.length > 140 ? `${said.slice(0, 137)}...` : said;
  const why = quoted ? `they said "${quoted}"` : call.routedBecause?.startsWith("VIP") ? "a VIP caller" : "a call to the business line";
  return twimlResponse(whisperTwiml(whisperLine({ caller: call.fromNumber, callerName: call.callerName, business: org?.name ?? "your business", why })));
}
