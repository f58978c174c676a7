import "server-only";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { calls, type FailureClass } from "@/db/schema";
import { classifyIntent, mentionedWhen } from "@/lib/platform/providers/llm/intents";
import type { Intent } from "@/lib/platform/providers/llm/interface";
import { saveAudioClip, signedAudioUrl } from "@/lib/phone/voice/audio-clips";
import { personaForModel, voiceOf } from "@/lib/phone/voice/context";
import { PipelineError, runVoiceTurn } from "@/lib/phone/voice/pipeline";
import { recordAction, type ActionType } from "@/lib/phone/telephony/actions";
import { capStopsAssistant, getCallPolicy } from "@/lib/phone/routing/policy";
import { routeIntent } from "@/lib/phone/routing/rules";
import { reportSpam, SPAM_POINTS } from "@/lib/phone/routing/spam";
import { ROUTED, SPAM } from "@/lib/platform/text/routing";
import { gatherTwiml, hangupTwiml, type Prompt } from "@/lib/phone/telephony/twiml";
import { absoluteUrl } from "@/lib/phone/telephony/urls";
import { twimlResponse, type CarrierRequest } from "@/lib/phone/telephony/webhook";
import { hearingContext } from "@/lib/agents/conversation/context";
import { abandonBooking, bookingStatus } from "@/lib/scheduling/dialogue/conversation";
import { clockOf } from "@/lib/scheduling/service";
import { DEFAULT_CALL_RULES } from "@/lib/agents/conversation/call-rules";
import { actOn, carrierName, SPAM_DECLINED, surelySpam, decideTurn as engineDecides, languageOf, messageReasonOf, isOutOfCredits, paidTurn, TurnFailedError, type Decided, type TurnInput } from "@/lib/agents/conversation/turn";
import { recordKnowledgeGap } from "@/lib/knowledge/gaps/service";
import { forgetCaller, memoryFor, memoryForModel } from "@/lib/phone/callers/memory";
import { FORGET_ME } from "@/lib/platform/text/receptionist";
import { decideTurn, type TurnDecision } from "./decide";
import { historyOf, loadRuntime, speak, type CallRow, type CallRuntime, type VoiceDeps } from "./runtime";
import { recordAssistantReply } from "@/lib/agents/assistants/replies";
import { LINES, lineIn } from "./lines";
import { type Answer, authenticateCallWebhook, businessName, claimStep, dialPerson, gatherUrl, line, lineOf, replay, respond, turn, voicemailAnswer } from "./step";

// ─── What the caller said ─────────────────────────────────────────────────────────────────────

function failureClassOf(error: unknown): FailureClass {
  const cause = error instanceof PipelineError ? error.cause : error;
  const name = (cause as Error | null)?.name;
  if (name === "AbortError" || name === "TimeoutError") return "timeout";
  if (/abort|timed? ?out/i.test((cause as Error | null)?.message ?? "")) return "timeout";
  const status = (cause as { status?: number } | null)?.status;
  if (status === 401 || status === 403) return "authentication";
  return "processing";
}

type Composed = {
  reply: { text: string; intent: Intent; knowledgeGap?: { question: string }; transfer?: { to: string }; messageTaken?: boolean };
  url: string;
  timings: { llmFirstTokenMs: number | null; llmTotalMs: number; ttsFirstByteMs: number | null; ttsTotalMs: number };
};

/**
 * The reply and its audio. A remote model streams and its sentences are synthesized as they arrive
 * (lib/phone/voice/pipeline.ts, overlapped); the local responder answers at once and deterministically, so
 * its reply is spoken through the speech cache — the same answer in the same voice is not synthesized
 * twice. Either way within the turn's time limit.
 */
async function composeReply(runtime: CallRuntime, text: string): Promise<Composed> {
  const assistant = runtime.assistant!;
  const caller = memoryForModel(await memoryFor(runtime.db, runtime.call.organizationId, runtime.call.fromNumber, { excludeCallId: runtime.call.id }));
  const input = { assistant: personaForModel(assistant), profile: runtime.profile, history: historyOf(runtime.call.transcript), text, ...(caller.length ? { caller } : {}) };
  const signal = AbortSignal.timeout(runtime.turnTimeoutMs);
  if (runtime.llm.name === "local") {
    const started = performance.now();
    let reply: { text: string; intent: Intent; knowledgeGap?: { question: string } };
    try {
      reply = await runtime.llm.generateReply(input, { signal });
    } catch (error) {
      throw new PipelineError("llm", error);
    }
    const llmMs = performance.now() - started;
    let spoken;
    try {
      spoken = await speak(runtime, reply.text, { cache: true, signal });
    } catch (error) {
      throw new PipelineError("tts", error);
    }
    return { reply, url: spoken.url, timings: { llmFirstTokenMs: llmMs, llmTotalMs: llmMs, ttsFirstByteMs: null, ttsTotalMs: spoken.ttsMs } };
  }
  const result = await runVoiceTurn({ llm: runtime.llm, tts: runtime.tts, voice: voiceOf(assistant), input, mode: "overlapped", signal });
  const clip = await saveAudioClip(runtime.db, runtime.store, {
    organizationId: runtime.call.organizationId,
    audio: result.audio,
    contentType: result.contentType,
    durationMs: result.durationMs,
    source: "call",
    speech: { text: result.reply.text, voiceId: voiceOf(assistant).id },
  });
  return { reply: result.reply, url: absoluteUrl(signedAudioUrl(clip.id)), timings: result.timings };
}

/** The assistant answers: credits, the language model and speech, the clip, and the turn's records. */
async function replyTurn(runtime: CallRuntime, req: CarrierRequest, step: number, text: string): Promise<Response> {
  const { db, call } = runtime;
  const callerTurn = turn("caller", text);
  const biz = businessName(runtime);
  const assistant = runtime.assistant;
  if (!assistant) return respond(runtime, req, step, await voicemailAnswer(runtime, step, LINES.noAssistant(biz), [callerTurn]));
  const reference = `call-turn:${call.id}:${step}`;

  // The credit and the reply run side by side (the spend's round trips stay off the reply's path),
  // charged and refunded once, in the engine's turn (lib/agents/conversation/turn.ts).
  // Without the credit the reply is dropped and the caller is offered voicemail instead.
  let result: Composed;
  try {
    result = await paidTurn(
      db,
      { channel: "call", organizationId: call.organizationId, reference, renewFree: runtime.freePeriodDue, metadata: { callId: call.id, step, assistantId: assistant.id } },
      () => composeReply(runtime, text),
      { parallel: true },
    );
  } catch (error) {
    if (isOutOfCredits(error)) return respond(runtime, req, step, await voicemailAnswer(runtime, step, LINES.unavailable(biz), [callerTurn]));
    if (!(error instanceof TurnFailedError)) throw error;
    const failureClass = failureClassOf(error.cause);
    console.error(`[telephony] call ${call.id} step ${step}: the reply failed (${failureClass}):`, error.message);
    const answer = await voicemailAnswer(runtime, step, LINES.trouble, [callerTurn], { say: true });
    return respond(runtime, req, step, { ...answer, failureClass });
  }

  const latencyMs = Math.round(performance.now() - req.receivedAt);
  const { intent } = result.reply;
  const t = result.timings;
  const writes: Promise<unknown>[] = [
    recordAssistantReply(db, {
      id: crypto.randomUUID(),
      organizationId: call.organizationId,
      assistantId: assistant.id,
      callId: call.id,
      source: "call",
      intent,
      inputText: text,
      replyText: result.reply.text,
      llmProvider: runtime.llm.name,
      ttsProvider: runtime.tts.name,
      llmFirstTokenMs: t.llmFirstTokenMs === null ? null : Math.round(t.llmFirstTokenMs),
      llmTotalMs: Math.round(t.llmTotalMs),
      ttsFirstByteMs: t.ttsFirstByteMs === null ? null : Math.round(t.ttsFirstByteMs),
      ttsTotalMs: Math.round(t.ttsTotalMs),
      totalMs: latencyMs,
    }),
  ];
  const action = (type: ActionType, detail: Record<string, unknown>) =>
    writes.push(recordAction(db, { organizationId: call.organizationId, callId: call.id, type, detail: { text, step, ...detail } }));

  const play: Prompt = { play: result.url };
  const turns = [callerTurn, turn("assistant", result.reply.text, { latencyMs, intent })];
  const timing = { llmMs: t.llmTotalMs, ttsMs: t.ttsTotalMs };
  if (result.reply.knowledgeGap) {
    // A question the business's knowledge does not answer: logged for the owner with the call.
    writes.push(
      recordKnowledgeGap(db, {
        organizationId: call.organizationId,
        question: result.reply.knowledgeGap.question,
        source: "call",
        callId: call.id,
        assistantId: assistant.id,
        replyText: result.reply.text,
      }),
    );
  }
  const when = mentionedWhen(text);
  if (intent === "appointment" && when && runtime.bookingTurns.length === 0) action("booking_requested", { when });
  for (const booked of runtime.bookingTurns) {
    if (!booked.appointment) continue;
    const type = booked.events.includes("moved") ? "appointment_moved" : booked.events.includes("cancelled") ? "appointment_cancelled" : "appointment_booked";
    action(type, { appointmentId: booked.appointment.id, readBack: booked.appointment.readBack });
  }
  let answer: Answer;
  if (result.reply.transfer) {
    // The model's transfer tool succeeded (to the owner's number): its words, then the <Dial>.
    answer = { xml: dialPerson(call, [play], result.reply.transfer.to, step + 1), turns, mode: "transfer", silentPrompts: 0, timing };
  } else if (intent === "spam") {
    action("spam_declined", {});
    writes.push(raiseCallSpam(db, call, SPAM_POINTS.recorded, SPAM.recorded));
    answer = { xml: hangupTwiml([play]), turns, timing, extra: { intent: "spam" }, ended: { status: "completed", outcome: "answered_by_assistant" } };
  } else if (intent === "human_handoff" && !result.reply.messageTaken) {
    // No forward-to number (else the call would have been transferred): the next words are the message.
    action("callback_requested", {});
    answer = { xml: gatherTwiml([play], gatherUrl(step + 1)), turns, mode: "message", silentPrompts: 0, timing };
  } else {
    answer = { xml: gatherTwiml([play], gatherUrl(step + 1)), turns, silentPrompts: 0, timing };
  }
  const [response] = await Promise.all([respond(runtime, req, step, answer), ...writes]);
  return response as Response;
}

async function act(runtime: CallRuntime, req: CarrierRequest, step: number, decision: TurnDecision, text: string): Promise<Response> {
  const { db, call } = runtime;
  const biz = businessName(runtime);
  const callerTurn = text ? [turn("caller", text)] : [];
  switch (decision.kind) {
    case "silence": {
      if (decision.hangUp) {
        if (!call.transcript.some((t) => t.speaker === "caller")) await raiseCallSpam(db, call, SPAM_POINTS.silent, SPAM.silent);
        const goodbye = lineIn(languageOf(call.transcript), "silentGoodbye")(biz);
        const spoken = await line(runtime, goodbye);
        return respond(runtime, req, step, {
          xml: hangupTwiml([spoken.prompt]),
          turns: [turn("assistant", goodbye)],
          silentPrompts: call.silentPrompts + 1,
          ended: { status: "completed", outcome: call.outcome ?? "answered_by_assistant" },
          timing: { ttsMs: spoken.ttsMs },
        });
      }
      const stillThere = lineIn(languageOf(call.transcript), "stillThere");
      const spoken = await line(runtime, stillThere);
      return respond(runtime, req, step, {
        xml: gatherTwiml([spoken.prompt], gatherUrl(step + 1)),
        turns: [turn("assistant", stillThere)],
        silentPrompts: call.silentPrompts + 1,
        timing: { ttsMs: spoken.ttsMs },
      });
    }
    case "goodbye": {
      const spoken = await line(runtime, LINES.goodbye(biz));
      return respond(runtime, req, step, {
        xml: hangupTwiml([spoken.prompt]),
        turns: [...callerTurn, turn("assistant", LINES.goodbye(biz))],
        ended: { status: "completed", outcome: call.outcome ?? "answered_by_assistant" },
        timing: { ttsMs: spoken.ttsMs },
      });
    }
    case "take_message": {
      await recordAction(db, { organizationId: call.organizationId, callId: call.id, type: "took_message", detail: { message: text, step } });
      const spoken = await line(runtime, LINES.messageTaken(biz));
      return respond(runtime, req, step, {
        xml: gatherTwiml([spoken.prompt], gatherUrl(step + 1)),
        turns: [turn("caller", text, { kind: "message" }), turn("assistant", LINES.messageTaken(biz))],
        mode: "conversation",
        silentPrompts: 0,
        timing: { ttsMs: spoken.ttsMs },
      });
    }
    case "forget_me": {
      await forgetCaller(db, call.organizationId, call.fromNumber);
      const spoken = await line(runtime, FORGET_ME.spoken);
      return respond(runtime, req, step, {
        xml: gatherTwiml([spoken.prompt], gatherUrl(step + 1)),
        turns: [...callerTurn, turn("assistant", FORGET_ME.spoken)],
        silentPrompts: 0,
        timing: { ttsMs: spoken.ttsMs },
      });
    }
    case "voicemail":
      return respond(runtime, req, step, { ...(await voicemailAnswer(runtime, step, LINES.voicemailPrompt(biz), callerTurn)), silentPrompts: 0 });
    case "transfer": {
      const spoken = await line(runtime, LINES.connecting(biz));
      return respond(runtime, req, step, {
        xml: dialPerson(call, [spoken.prompt], decision.to, step + 1),
        turns: [...callerTurn, turn("assistant", LINES.connecting(biz))],
        mode: "transfer",
        silentPrompts: 0,
        timing: { ttsMs: spoken.ttsMs },
      });
    }
    case "reply":
      return replyTurn(runtime, req, step, text);
  }
}

/** The name the caller gave (never a device label such as the browser phone's "Phone panel"). */
async function callerNameOf(runtime: CallRuntime): Promise<string | null> {
  const said = runtime.understanding?.name;
  if (said) return said;
  const memory = await memoryFor(runtime.db, runtime.call.organizationId, runtime.call.fromNumber, { excludeCallId: runtime.call.id }).catch(() => null);
  if (memory?.name) return memory.name;
  const carrier = runtime.call.callerName?.trim();
  return carrierName(carrier);
}

/** The engine's turn for this step (lib/agents/conversation/turn.ts): the same input every channel gives it. */
function turnInput(runtime: CallRuntime, text: string, step: number, bookingActive: boolean, people: string[] = [], expects: "name" | "phone" | null = null): TurnInput {
  const { call } = runtime;
  return {
    db: runtime.db,
    channel: "call",
    organizationId: call.organizationId,
    caller: call.fromNumber,
    text,
    hear: hearingContext(runtime.profile, { people }, { now: clockOf(runtime.booking), expecting: call.mode === "message" ? "message" : expects, language: languageOf(call.transcript) }),
    people,
    situation: {
      takingMessage: call.mode === "message",
      messageReason: messageReasonOf(call.transcript),
      bookingActive,
      forwardTo: runtime.number?.forwardTo ?? null,
      rules: runtime.assistant?.callRules ?? DEFAULT_CALL_RULES,
      silentPrompts: call.silentPrompts,
      canTransfer: true,
    },
    business: businessName(runtime),
    assistantName: runtime.assistant?.persona.name ?? null,
    transcript: call.transcript,
    language: languageOf(call.transcript),
    record: { callId: call.id, step, taskKey: `call:${call.id}:message:step${step}` },
    callerName: () => callerNameOf(runtime),
    confirmOptOut: true,
    phoneNumberId: call.phoneNumberId,
  };
}

/**
 * Renders the engine's own decisions (everything but "answer", which goes to the booking dialogue or
 * the language model) as TwiML: the line was written by the engine's turn, which also wrote what the
 * line promises (a task, an opt-out) — a <Dial> is the transfer itself.
 */
async function renderEngine(runtime: CallRuntime, req: CarrierRequest, step: number, input: TurnInput, decided: Decided, text: string): Promise<Response | null> {
  const { call } = runtime;
  const d = decided.decision;
  if (d.kind === "answer") return null;
  if (d.kind === "silence" || d.kind === "voicemail") return act(runtime, req, step, d, text);
  const outcome = await actOn(input, decided);
  if (outcome.kind !== "line") return null;
  const callerTurn = text ? [turn("caller", text, outcome.message ? { kind: "message" as const } : {})] : [];
  const spoken = await lineOf(runtime, outcome.line);
  const turns = [...callerTurn, turn("assistant", outcome.line, { intent: outcome.tag })];
  const timing = { ttsMs: spoken.ttsMs };
  if (outcome.end) {
    return respond(runtime, req, step, { xml: hangupTwiml([spoken.prompt]), turns, ended: { status: "completed", outcome: call.outcome ?? "answered_by_assistant" }, timing });
  }
  if (outcome.transfer) {
    return respond(runtime, req, step, { xml: dialPerson(call, [spoken.prompt], outcome.transfer.to, step + 1), turns, mode: "transfer", silentPrompts: 0, timing });
  }
  return respond(runtime, req, step, {
    xml: gatherTwiml([spoken.prompt], gatherUrl(step + 1)),
    turns,
    silentPrompts: 0,
    timing,
    ...(outcome.mode ? { mode: outcome.mode } : {}),
    ...(outcome.message?.name ? { extra: { callerName: outcome.message.name } } : {}),
  });
}

const INTENT_ROUTED = ROUTED.intent(0, "", "").slice(0, 20);

/** POST gather?step=N: what the caller said (SpeechResult), or nothing (the Gather timed out). */
export async function continueAfterGather(db: Db, req: CarrierRequest, step: number, deps: VoiceDeps = {}): Promise<Response> {
  const { call } = await authenticateCallWebhook(db, req);
  if (!call) return twimlResponse(hangupTwiml([{ say: LINES.lost }]));
  // What the caller said, or keyed in (Digits: a number typed on the keypad counts like one said).
  const text = (req.params.SpeechResult || req.params.Digits || "").replace(/\s+/g, " ").trim().slice(0, 2000);
  // The caller's words are written with the claim, before the reply is computed.
  const callerWords = text ? turn("caller", text, { step }) : undefined;
  let claimed = await claimStep(db, call, step, callerWords);
  if (!claimed) {
    const replayedOrResumed = await replay(db, call.id, step, call.organizationId);
    if (replayedOrResumed instanceof Response) return replayedOrResumed;
    claimed = replayedOrResumed;
  }
  // The turns before this step: the model and the decisions read them as they were when the caller spoke.
  claimed = { ...claimed, transcript: claimed.transcript.filter((t) => !(t.speaker === "caller" && t.step === step)) };
  const runtime = await loadRuntime(db, claimed, deps);
  if (callerWords) runtime.callerWordsWritten = text;
  // The engine decides (lib/agents/conversation/engine.ts): leaving a flow — a person, goodbye, "wait,
  // what?", an emergency — wins over a booking under way; otherwise "yes", "no" or "cancel it"
  // answer the booking, not the call's routing.
  const status = text && claimed.mode === "conversation" ? await bookingStatus(db, claimed.organizationId, "call", claimed.id, runtime.booking) : null;
  const bookingActive = Boolean(status?.active);
  const expects = status?.expects ?? null;
  const input = turnInput(runtime, text, step, bookingActive, text ? runtime.staff : [], expects);
  const decided = await engineDecides(input);
  runtime.understanding = decided.understanding;
  runtime.nluMs = decided.nluMs;
  const engine = decided.decision;
  // The number's own intent rules (billing → the billing line…) come before the engine's answer.
  const routedFirst = (engine.kind === "answer" || engine.kind === "urgent_task") && !bookingActive && claimed.mode === "conversation" && !claimed.routedBecause?.startsWith(INTENT_ROUTED);
  const route = routedFirst ? routeIntent(runtime.number?.routing ?? null, runtime.number?.forwardTo ?? null, text, classifyIntent(text, historyOf(claimed.transcript)).intent) : null;
  if (route && (route.action === "forward" || route.action === "voicemail")) {
    await db.update(calls).set({ routedBecause: route.because }).where(and(eq(calls.id, claimed.id), eq(calls.organizationId, claimed.organizationId)));
    const routedRuntime = { ...runtime, call: { ...claimed, routedBecause: route.because } };
    if (route.action === "forward" && route.to) return act(routedRuntime, req, step, { kind: "transfer", to: route.to }, text);
    if (route.action === "voicemail") return act(routedRuntime, req, step, { kind: "voicemail" }, text);
  }
  const handled = await renderEngine(runtime, req, step, input, decided, text);
  if (handled) return handled;
  if (engine.kind === "answer" && engine.leaveBooking) await abandonBooking(db, claimed.organizationId, "call", claimed.id, runtime.booking);
  const booking = bookingActive && !(engine.kind === "answer" && engine.leaveBooking);
  // Spam before cost: a pitch understanding is sure of is declined with a fixed line, never charged.
  if (!booking && surelySpam(decided.understanding)) return declineSpam(runtime, req, step, text);
  const decision: TurnDecision = booking ? { kind: "reply", intent: "appointment" } : decideTurn({
    text,
    mode: claimed.mode,
    forwardTo: runtime.number?.forwardTo ?? null,
    silentPrompts: claimed.silentPrompts,
    history: historyOf(claimed.transcript),
  });
  if (decision.kind === "reply" && claimed.mode === "conversation" && !claimed.routedBecause?.startsWith(INTENT_ROUTED)) {
    const route = routeIntent(runtime.number?.routing ?? null, runtime.number?.forwardTo ?? null, text, decision.intent);
    if (route) {
      await db.update(calls).set({ routedBecause: route.because }).where(and(eq(calls.id, claimed.id), eq(calls.organizationId, claimed.organizationId)));
      const routedRuntime = { ...runtime, call: { ...claimed, routedBecause: route.because } };
      if (route.action === "forward" && route.to) return act(routedRuntime, req, step, { kind: "transfer", to: route.to }, text);
      if (route.action === "voicemail") return act(routedRuntime, req, step, { kind: "voicemail" }, text);
    }
  }
  if (decision.kind === "reply") {
    // The cap is checked at every turn, not only when the call arrived: a reply would spend credits.
    const cap = await capStopsAssistant(db, claimed.organizationId);
    if (cap) return capReachedMidCall(runtime, req, step, text, cap.cap);
  }
  return act(runtime, req, step, decision, text);
}

/** A robocall pitch: declined with a fixed line and hung up on; the call becomes spam (free, no contact, no text-back). */
async function declineSpam(runtime: CallRuntime, req: CarrierRequest, step: number, text: string): Promise<Response> {
  const { db, call } = runtime;
  await recordAction(db, { organizationId: call.organizationId, callId: call.id, type: "spam_declined", detail: { text, step } });
  await raiseCallSpam(db, call, SPAM_POINTS.recorded, SPAM.recorded);
  const spoken = await line(runtime, SPAM_DECLINED);
  return respond(runtime, req, step, {
    xml: hangupTwiml([spoken.prompt]),
    turns: [turn("caller", text), turn("assistant", SPAM_DECLINED, { intent: "spam" })],
    extra: { intent: "spam" },
    ended: { status: "completed", outcome: "answered_by_assistant" },
    timing: { ttsMs: spoken.ttsMs },
  });
}

/**
 * The month's cap (voicemail only) was reached during the call: the first time, the assistant says
 * so politely and takes the caller's next words as a message (which becomes a task); after that, it
 * thanks them and hangs up. No turn is charged.
 */
async function capReachedMidCall(runtime: CallRuntime, req: CarrierRequest, step: number, text: string, cap: number): Promise<Response> {
  const { db, call } = runtime;
  const biz = businessName(runtime);
  const callerTurn = text ? [turn("caller", text)] : [];
  if (call.transcript.some((t) => t.speaker === "assistant" && t.text === LINES.capReached(biz))) {
    const spoken = await line(runtime, LINES.capGoodbye(biz));
    return respond(runtime, req, step, {
      xml: hangupTwiml([spoken.prompt]),
      turns: [...callerTurn, turn("assistant", LINES.capGoodbye(biz))],
      ended: { status: "completed", outcome: call.outcome ?? "answered_by_assistant" },
      timing: { ttsMs: spoken.ttsMs },
    });
  }
  await recordAction(db, { organizationId: call.organizationId, callId: call.id, type: "cap_reached", detail: { cap, step } });
  const spoken = await line(runtime, LINES.capReached(biz));
  return respond(runtime, req, step, {
    xml: gatherTwiml([spoken.prompt], gatherUrl(step + 1)),
    turns: [...callerTurn, turn("assistant", LINES.capReached(biz))],
    mode: "message",
    silentPrompts: 0,
    extra: { routedBecause: call.routedBecause ? `${call.routedBecause}. ${ROUTED.capMidCall(cap)}` : ROUTED.capMidCall(cap) },
    timing: { ttsMs: spoken.ttsMs },
  });
}

/** Adds robocall behaviour seen during the call to its spam score; over the threshold it becomes spam (and is shared when opted in). */
async function raiseCallSpam(db: Db, call: CallRow, points: number, reason: string): Promise<{ isSpam: boolean; score: number }> {
  const policy = await getCallPolicy(db, call.organizationId);
  const [current] = await db.select({ score: calls.spamScore, reasons: calls.spamReasons, isSpam: calls.isSpam }).from(calls).where(eq(calls.id, call.id));
  if (current?.reasons.includes(SPAM.allowList) || current?.reasons.includes(SPAM.markedNotSpam)) return { isSpam: false, score: current.score ?? 0 };
  const score = Math.min(100, (current?.score ?? 0) + points);
  const isSpam = Boolean(current?.isSpam) || score >= policy.spamThreshold;
  const reasons = [...(current?.reasons ?? []).filter((r) => r !== reason), reason];
  await db.update(calls).set({ spamScore: score, spamReasons: reasons, isSpam }).where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId)));
  if (isSpam && !current?.isSpam && policy.shareSpamReports) await reportSpam(db, call.organizationId, call.fromNumber);
  return { isSpam, score };
}
