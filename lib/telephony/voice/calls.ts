import "server-only";
import { forwardingTestArrival } from "@/lib/phone-numbers/ownership";
import crypto from "node:crypto";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { calls, organizations, telephonyAccounts, type CallMode, type CallOutcome, type FailureClass, type TranscriptTurn } from "@/db/schema";
import { badRequest, forbidden } from "@/lib/http/errors";
import { enqueue } from "@/lib/jobs/queue";
import { classifyIntent, mentionedWhen } from "@/lib/providers/llm/intents";
import type { Intent } from "@/lib/providers/llm/interface";
import { saveAudioClip, signedAudioUrl } from "@/lib/voice/audio-clips";
import { assistantForNumber, personaForModel, voiceOf } from "@/lib/voice/context";
import { PipelineError, runVoiceTurn } from "@/lib/voice/pipeline";
import { recordAction, type ActionType } from "../actions";
import { relayUrlFor } from "../relay/urls";
import { capState, capStopsAssistant, getCallPolicy, type CallPolicy } from "@/lib/routing/policy";
import { routeArrival, routeIntent, type Route } from "@/lib/routing/rules";
import { reportSpam, scoreCaller, SPAM_POINTS } from "@/lib/routing/spam";
import { ROUTED, SPAM, whisperLine } from "@/lib/text/routing";
import { dialTwiml, emptyVoiceTwiml, gatherTwiml, hangupTwiml, recordTwiml, rejectTwiml, relayTwiml, whisperTwiml, type Prompt } from "../twiml";
import { absoluteUrl, telephonyUrl } from "../urls";
import { findNumber, SIGNATURE_MESSAGE, twimlResponse, verifyCarrierRequest, type CarrierRequest } from "../webhook";
import { abandonBooking, bookingInProgress } from "@/lib/appointments/dialogue/conversation";
import { listResources } from "@/lib/appointments/resources";
import { clockOf } from "@/lib/appointments/service";
import { DEFAULT_CALL_RULES } from "@/lib/conversation/call-rules";
import { actOn, carrierName, SPAM_DECLINED, surelySpam, decideTurn as engineDecides, languageOf, messageReasonOf, isOutOfCredits, paidTurn, TurnFailedError, type Decided, type TurnInput } from "@/lib/conversation/turn";
import { recordKnowledgeGap } from "@/lib/knowledge-gaps/service";
import { forgetCaller, memoryFor, memoryForModel, topicOf } from "@/lib/receptionist/memory";
import { FORGET_ME, welcomeBack } from "@/lib/text/receptionist";
import { decideTurn, type TurnDecision } from "./decide";
import { finishCallJob, processVoicemailJob } from "./post-call";
import { historyOf, loadRuntime, speak, type CallRow, type CallRuntime, type NumberRow, type VoiceDeps } from "./runtime";
import { recordAssistantReply } from "@/lib/assistants/replies";
import { recordCallNotice } from "@/lib/compliance/consent";
import { callOpening } from "@/lib/compliance/twiml";

/**
 * The phone loop on serverless-friendly webhooks (docs/telephony.md): every request carries the
 * call's state in the database, never in memory.
 *
 *   voice (call arrives) → greeting in a <Gather> → gather?step=N (what the caller said) → reply in a
 *   <Gather> … → goodbye / two silences → <Hangup>; a request for a person → <Dial> the forward-to
 *   number → dial?step=N (no answer → the assistant takes a message); a voicemail → <Record> →
 *   record?step=N, and the recording callback → the voicemail job; status callbacks move the call
 *   forward only; when it ends, the post-call job analyses it.
 *
 * Steps: every action URL carries the step it answers. The first request for a step claims it with
 * one conditional update (`step = N → N + 1`); the answer is stored with the call, so a carrier retry
 * of the same step gets the same TwiML back and never a second turn, credit or record.
 */

const LINES = {
  notInService: "Sorry, the number you have called is not in service. Goodbye.",
  forwardingTest: "This is the Switchboard forwarding test. The call arrived, so forwarding works. Goodbye.",
  greeting: (biz: string, name: string) => `Thanks for calling ${biz}. This is ${name}. How can I help you today?`,
  stillThere: "Are you still there? How can I help you?",
  silentGoodbye: (biz: string) => `I haven't heard anything, so I'll let you go. Thanks for calling ${biz}. Goodbye!`,
  goodbye: (biz: string) => `Thanks for calling ${biz}. Have a great day. Goodbye!`,
  connecting: (biz: string) => `Of course. Let me connect you with someone at ${biz}. One moment, please.`,
  ringFirstUnanswered: (biz: string, name: string) =>
    `Sorry, nobody at ${biz} could pick up right now. This is ${name}, their assistant. I can take a message: what would you like me to pass on, and what's the best number to reach you?`,
  transferUnanswered: (biz: string) =>
    `I'm sorry, nobody at ${biz} could pick up right now. I can take a message: what would you like me to pass on, and what's the best number to reach you?`,
  messageTaken: (biz: string) =>
    `Thank you, I've passed your message on to the team at ${biz}, and someone will get back to you. Is there anything else I can help you with?`,
  voicemailPrompt: (biz: string) => `Of course. Please leave your message for ${biz} after the tone, and press the pound key or hang up when you're done.`,
  noAssistant: (biz: string) => `Thanks for calling ${biz}. Nobody can take your call right now. Please leave a message after the tone, and we'll get back to you.`,
  recorded: "Thank you. Your message has been recorded, and the team will get back to you. Goodbye!",
  trouble: "I'm sorry, I'm having trouble answering right now. Please leave a message after the tone, and the team will get back to you.",
  unavailable: (biz: string) => `I'm sorry, I can't help with that right now. Please leave a message for ${biz} after the tone, and the team will get back to you.`,
  lost: "Sorry, we lost track of this call. Please call again. Goodbye.",
  /** The monthly cap was reached during the call (set to voicemail only): no more assistant replies, a message instead. */
  capReached: (biz: string) =>
    `I'm sorry, I can't keep helping on this call right now. I can take a message for the team at ${biz}: what would you like me to pass on, and what's the best number to reach you?`,
  capGoodbye: (biz: string) => `Thank you. The team at ${biz} will get back to you. Goodbye!`,
};

export const CALL_LINES = LINES;

const EMPTY_RESPONSE = emptyVoiceTwiml();

type CallStatus = CallRow["status"];

const STATUS_RANK: Record<CallStatus, number> = { ringing: 0, in_progress: 1, completed: 2, missed: 2, voicemail: 2, failed: 2 };

/** Twilio's CallStatus → the call's status (queued/initiated count as ringing). */
export function callStatusFromCarrier(status: string | undefined): CallStatus | null {
  switch (status) {
    case "queued":
    case "initiated":
    case "ringing":
      return "ringing";
    case "in-progress":
    case "answered":
      return "in_progress";
    case "completed":
      return "completed";
    case "busy":
    case "no-answer":
    case "canceled":
      return "missed";
    case "failed":
      return "failed";
    default:
      return null;
  }
}

function isTerminal(status: CallStatus): boolean {
  return STATUS_RANK[status] === 2;
}

function parseStep(value: string | null): number {
  const step = Number(value);
  if (!Number.isSafeInteger(step) || step < 1) throw badRequest("step must be a positive whole number", { step: "step must be a positive whole number" });
  return step;
}

export function stepOf(req: Request): number {
  return parseStep(new URL(req.url).searchParams.get("step"));
}

/**
 * The call a webhook is about, verified against the account of the organization that owns it; or,
 * for a call not seen yet, the number it was placed to. Neither → 403 (nothing to verify against).
 */
async function authenticateCallWebhook(db: Db, req: CarrierRequest): Promise<{ call: CallRow | null; number: NumberRow | null }> {
  const callSid = req.params.CallSid;
  if (callSid) {
    // The call and its organization's simulated-carrier account in one round trip.
    const [row] = await db
      .select({ call: calls, account: { accountSid: telephonyAccounts.accountSid, ciphertext: telephonyAccounts.authTokenCiphertext } })
      .from(calls)
      .leftJoin(telephonyAccounts, eq(telephonyAccounts.organizationId, calls.organizationId))
      .where(eq(calls.providerCallSid, callSid));
    if (row) {
      const { call, account } = row;
      const provider = call.provider ?? "simulated";
      const known = provider === "simulated" && account ? { accountSid: account.accountSid, authToken: decryptSecret(account.ciphertext) } : undefined;
      await verifyCarrierRequest(db, req, { organizationId: call.organizationId, provider }, known);
      return { call, number: null };
    }
  }
  const number = await findNumber(db, req.params.To);
  if (!number) throw forbidden(SIGNATURE_MESSAGE);
  await verifyCarrierRequest(db, req, number);
  return { call: null, number };
}

/**
 * A claimed step whose answer has not come after this long is taken to be lost (the process that
 * claimed it died): a retry of the step may claim it again and answer it. A live turn answers well
 * within it or is abandoned (DEFAULT_TURN_TIMEOUT_MS); a late first answer then only overwrites the
 * replayed answer, and the turn's credit is spent once (its ledger reference names the step).
 */
export const STEP_CLAIM_EXPIRY_MS = 4_000;

/**
 * Claims step N of the call: the one request that gets the call back (with its state) goes on.
 * `callerTurn`: the caller's words, written in the same statement, before any reply is computed
 * (as a message for the team when the call is taking one), so a crash never loses them.
 */
async function claimStep(db: Db, call: CallRow, step: number, callerTurn?: TranscriptTurn): Promise<CallRow | null> {
  const set: Record<string, unknown> = { step: step + 1, stepClaimedAt: new Date() };
  if (callerTurn) {
    set.transcript = sql`${calls.transcript} || case when ${calls.mode} = 'message' then ${jsonb([{ ...callerTurn, kind: "message" }])} else ${jsonb([callerTurn])} end`;
  }
  const [claimed] = await db
    .update(calls)
    .set(set as Partial<typeof calls.$inferInsert>)
    .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId), eq(calls.step, step)))
    .returning();
  return claimed ?? null;
}

/** Takes over step N when its claim expired without an answer (the claiming process died). */
async function resumeStep(db: Db, call: Pick<CallRow, "id" | "organizationId">, step: number): Promise<CallRow | null> {
  const now = new Date();
  const [resumed] = await db
    .update(calls)
    .set({ stepClaimedAt: now })
    .where(
      and(
        eq(calls.id, call.id),
        eq(calls.organizationId, call.organizationId),
        eq(calls.step, step + 1),
        sql`(${calls.lastResponseStep} is null or ${calls.lastResponseStep} < ${step})`,
        sql`(${calls.stepClaimedAt} is null or ${calls.stepClaimedAt} < ${new Date(now.getTime() - STEP_CLAIM_EXPIRY_MS).toISOString()}::timestamptz)`,
        sql`${calls.mode} <> 'ended'`,
      ),
    )
    .returning();
  return resumed ?? null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A retry of a step already claimed: the answer stored for it (waiting while the first request
 * finishes), or — when the claim expires with no answer — the call itself, to answer the step again.
 */
async function replay(db: Db, callId: string, step: number, organizationId?: string): Promise<Response | CallRow> {
  const deadline = Date.now() + STEP_CLAIM_EXPIRY_MS + 1_000;
  while (Date.now() < deadline) {
    const [row] = await db
      .select({ xml: calls.lastResponse, at: calls.lastResponseStep })
      .from(calls)
      .where(eq(calls.id, callId));
    if (row?.xml && row.at !== null && row.at >= step) return twimlResponse(row.xml);
    if (organizationId) {
      const resumed = await resumeStep(db, { id: callId, organizationId }, step);
      if (resumed) return resumed;
    }
    await sleep(100);
  }
  return twimlResponse(hangupTwiml([{ say: LINES.lost }]));
}

/** A replayed answer as a Response (the steps that never resume). */
async function replayed(db: Db, callId: string, step: number): Promise<Response> {
  const answer = await replay(db, callId, step);
  return answer instanceof Response ? answer : twimlResponse(hangupTwiml([{ say: LINES.lost }]));
}

type Ending = { status: "completed" | "voicemail"; outcome: CallOutcome };

type Answer = {
  xml: string;
  turns?: TranscriptTurn[];
  mode?: CallMode;
  silentPrompts?: number;
  failureClass?: FailureClass;
  ended?: Ending;
  extra?: Partial<typeof calls.$inferInsert>;
  timing?: { llmMs?: number; ttsMs?: number };
};

function jsonb(value: unknown): SQL {
  return sql`${JSON.stringify(value)}::jsonb`;
}

/**
 * Stores the answer to step `step` with the call (so a retry replays it) and what the step changed,
 * in one update; a call that ends here gets its end time, and the post-call job is queued.
 */
async function respond(runtime: CallRuntime, req: CarrierRequest, step: number, answer: Answer): Promise<Response> {
  const { db, call } = runtime;
  const set: Record<string, unknown> = { lastResponse: answer.xml, lastResponseStep: step, ...(answer.extra ?? {}) };
  let turns = answer.turns ?? [];
  if (runtime.callerWordsWritten !== undefined) {
    // Written with the step's claim already: the answer adds only what followed them.
    const i = turns.findIndex((t) => t.speaker === "caller" && t.text === runtime.callerWordsWritten);
    if (i >= 0) turns = [...turns.slice(0, i), ...turns.slice(i + 1)];
  }
  if (turns.length) set.transcript = sql`${calls.transcript} || ${jsonb(turns)}`;
  if (answer.mode) set.mode = answer.mode;
  if (answer.silentPrompts !== undefined) set.silentPrompts = answer.silentPrompts;
  if (answer.failureClass) set.failureClass = answer.failureClass;
  if (answer.ended) {
    const now = new Date();
    set.mode = "ended";
    set.outcome = answer.ended.outcome;
    // Never backwards: a terminal status set by the carrier stays, except that a voicemail is more specific than "completed".
    set.status =
      answer.ended.status === "voicemail"
        ? sql`case when ${calls.status} in ('ringing', 'in_progress', 'completed') then 'voicemail' else ${calls.status} end`
        : sql`case when ${calls.status} in ('ringing', 'in_progress') then 'completed' else ${calls.status} end`;
    set.endedAt = sql`coalesce(${calls.endedAt}, ${now.toISOString()}::timestamptz)`;
    set.durationSeconds = sql`case when ${calls.endedAt} is null then greatest(0, round(extract(epoch from (${now.toISOString()}::timestamptz - ${calls.startedAt}))))::int else ${calls.durationSeconds} end`;
  }
  await db
    .update(calls)
    .set(set as Partial<typeof calls.$inferInsert>)
    .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId)));
  if (answer.ended) await enqueue(db, finishCallJob, { callId: call.id, organizationId: call.organizationId }, { singletonKey: `call-finish:${call.id}` });

  const total = performance.now() - req.receivedAt;
  const timing = [`llm;dur=${(answer.timing?.llmMs ?? 0).toFixed(1)}`, `tts;dur=${(answer.timing?.ttsMs ?? 0).toFixed(1)}`, `nlu;dur=${(runtime.nluMs ?? 0).toFixed(1)}`, `total;dur=${total.toFixed(1)}`];
  const res = twimlResponse(answer.xml);
  res.headers.set("server-timing", timing.join(", "));
  return res;
}

const gatherUrl = (step: number) => telephonyUrl("gather", { step });
const dialUrl = (step: number, to: string) => telephonyUrl("dial", { step, to });
const whisperUrl = (callId: string) => telephonyUrl("whisper", { callId });

/** <Dial> to a person: the caller's own number as caller ID, and the briefing whispered to whoever answers. */
function dialPerson(call: CallRow, prompts: Prompt[], to: string, step: number, timeoutSeconds?: number): string {
  return dialTwiml(prompts, to, { callerId: call.fromNumber, actionUrl: dialUrl(step, to), timeoutSeconds, whisperUrl: whisperUrl(call.id) });
}
const recordUrl = (step: number) => telephonyUrl("record", { step });
const recordingUrl = () => telephonyUrl("recording");

function turn(speaker: TranscriptTurn["speaker"], text: string, extra: Partial<TranscriptTurn> = {}): TranscriptTurn {
  return { speaker, text, at: new Date().toISOString(), ...extra };
}

/** The line in the assistant's voice; if speech synthesis fails, Twilio's own <Say> (the call goes on). */
async function line(runtime: CallRuntime, text: string): Promise<{ prompt: Prompt; ttsMs: number; failed: boolean }> {
  try {
    const spoken = await speak(runtime, text, { cache: true });
    return { prompt: { play: spoken.url }, ttsMs: spoken.ttsMs, failed: false };
  } catch (error) {
    console.error(`[telephony] speech synthesis failed for call ${runtime.call.id}:`, error instanceof Error ? error.message : error);
    return { prompt: { say: text }, ttsMs: 0, failed: true };
  }
}

/** A line in the caller's language (Spanish lines are said by the same voice until a Spanish offline voice is wired in). */
async function lineOf(runtime: CallRuntime, text: string) {
  return line(runtime, text);
}

function businessName(runtime: CallRuntime): string {
  return runtime.profile.name;
}

/** A voicemail from here: the prompt, then <Record>. */
async function voicemailAnswer(runtime: CallRuntime, step: number, text: string, turns: TranscriptTurn[], opts: { say?: boolean } = {}): Promise<Answer> {
  const spoken = opts.say ? { prompt: { say: text } as Prompt, ttsMs: 0 } : await line(runtime, text);
  return {
    xml: recordTwiml([spoken.prompt], recordUrl(step + 1), recordingUrl()),
    turns: [...turns, turn("assistant", text)],
    mode: "voicemail",
    timing: { ttsMs: spoken.ttsMs },
  };
}

// ─── The call arrives ─────────────────────────────────────────────────────────────────────────

/**
 * POST voiceUrl. Unknown or inactive number → a polite goodbye, nothing written. Otherwise the call
 * is recorded once per CallSid and answered: the greeting in a Gather (or, for a streaming number,
 * ConversationRelay through the gateway); no active assistant → straight to voicemail.
 */
export async function answerIncomingCall(db: Db, req: CarrierRequest, deps: VoiceDeps = {}): Promise<Response> {
  const number = await findNumber(db, req.params.To);
  if (!number) return twimlResponse(hangupTwiml([{ say: LINES.notInService }]));
  await verifyCarrierRequest(db, req, number);
  // "Test forwarding" (lib/phone-numbers/ownership.ts): the test call arrived; answer it briefly.
  if (await forwardingTestArrival(db, number, req.params)) return twimlResponse(hangupTwiml([{ say: LINES.forwardingTest }]));
  if (!number.isActive) return twimlResponse(hangupTwiml([{ say: LINES.notInService }]));
  const { CallSid: callSid, From: from, To: to } = req.params;
  if (!callSid || !from) throw badRequest("CallSid and From are required", { ...(callSid ? {} : { CallSid: "Required" }), ...(from ? {} : { From: "Required" }) });

  await db
    .insert(calls)
    .values({
      id: crypto.randomUUID(),
      organizationId: number.organizationId,
      phoneNumberId: number.id,
      assistantId: number.assistantId,
      providerCallSid: callSid,
      direction: req.params.Direction?.startsWith("outbound") ? "outbound" : "inbound",
      fromNumber: from,
      toNumber: to,
      callerName: req.params.CallerName?.trim() || null,
      status: "ringing",
      carrierStatus: req.params.CallStatus ?? null,
      provider: number.provider,
      transport: number.streaming ? "relay" : "gather",
    })
    .onConflictDoNothing({ target: calls.providerCallSid });

  const assistant = await assistantForNumber(db, number.organizationId, number.assistantId);
  const [claimed] = await db
    .update(calls)
    .set({
      step: 1,
      assistantId: assistant?.id ?? null,
      status: sql`case when ${calls.status} = 'ringing' then 'in_progress' else ${calls.status} end`,
    })
    .where(and(eq(calls.providerCallSid, callSid), eq(calls.organizationId, number.organizationId), eq(calls.step, 0)))
    .returning();
  if (!claimed) {
    const [existing] = await db.select({ id: calls.id, organizationId: calls.organizationId }).from(calls).where(eq(calls.providerCallSid, callSid));
    // The same CallSid on another organization's number: never touch that call.
    if (!existing || existing.organizationId !== number.organizationId) throw forbidden(SIGNATURE_MESSAGE);
    return replayed(db, existing.id, 0);
  }

  const now = new Date();
  const [runtime, policy, verdict, [org]] = await Promise.all([
    loadRuntime(db, claimed, deps, number),
    getCallPolicy(db, number.organizationId),
    scoreCaller(db, { organizationId: number.organizationId, caller: from, stirVerstat: req.params.StirVerstat, now, callId: claimed.id }),
    db.select({ profile: organizations.businessProfile }).from(organizations).where(eq(organizations.id, number.organizationId)),
  ]);
  const biz = businessName(runtime);
  const route = await decideArrival(db, { number, policy, verdict, profile: org?.profile ?? {}, caller: from, now });
  const routed = { routedBecause: route.because, spamScore: verdict.score, spamReasons: verdict.reasons, isSpam: route.spam };
  if (route.spam && policy.shareSpamReports) await reportSpam(db, number.organizationId, from);

  if (route.action === "reject") {
    return respond(runtime, req, 0, { xml: rejectTwiml(), extra: routed, ended: { status: "completed", outcome: "blocked" } });
  }
  if (route.action === "voicemail" || !runtime.assistant) {
    const answer = await voicemailAnswer(runtime, 0, LINES.noAssistant(biz), []);
    return respond(runtime, req, 0, { ...answer, extra: { ...routed, ...(runtime.assistant ? {} : { routedBecause: route.action === "voicemail" ? route.because : ROUTED.noAssistant }) } });
  }
  if (route.action === "forward" && route.to) {
    return respond(runtime, req, 0, { xml: dialPerson(claimed, [], route.to, 1, route.ringTimeoutSeconds), mode: "ring_first", extra: routed });
  }

  const memory = await memoryFor(db, number.organizationId, from, { excludeCallId: claimed.id });
  const greeting = memory?.name
    ? welcomeBack(memory.name, topicOf(memory))
    : runtime.assistant.persona.greeting?.trim() || LINES.greeting(biz, runtime.assistant.persona.name);
  // The disclosure and recording notice plays before anything is heard or kept (lib/compliance).
  const { before, recordingCallbackUrl, recordNotice } = callOpening(await recordCallNotice(db, { organizationId: number.organizationId, callId: claimed.id, params: req.params, provider: number.provider }));
  if (number.streaming) {
    const xml = relayTwiml({ url: relayUrlFor(claimed.id), actionUrl: telephonyUrl("connect", { step: 1 }), welcomeGreeting: greeting, callId: claimed.id, before });
    return respond(runtime, req, 0, { xml, turns: [turn("assistant", greeting)], extra: routed });
  }
  const spoken = await line(runtime, greeting);
  return respond(runtime, req, 0, {
    xml: gatherTwiml([spoken.prompt], gatherUrl(1), before, recordingCallbackUrl, recordNotice),
    turns: [turn("assistant", greeting, { latencyMs: Math.round(performance.now() - req.receivedAt) })],
    failureClass: spoken.failed ? "processing" : undefined,
    timing: { ttsMs: spoken.ttsMs },
    extra: routed,
  });
}

/**
 * Where the call goes at arrival: the block list and the number's rules (lib/routing/rules.ts), then
 * the spam verdict against the organization's threshold (a VIP rule wins over it), then the monthly
 * cap. `spam` says whether the call counts as spam.
 */
async function decideArrival(
  db: Db,
  input: { number: NumberRow; policy: CallPolicy; verdict: Awaited<ReturnType<typeof scoreCaller>>; profile: typeof organizations.$inferSelect["businessProfile"]; caller: string; now: Date },
): Promise<Route & { spam: boolean }> {
  const { number, policy, verdict } = input;
  const route = routeArrival({
    routing: number.routing,
    forwardTo: number.forwardTo,
    caller: input.caller,
    now: input.now,
    profile: input.profile,
    numberHours: number.businessHours,
    onBlockList: verdict.list === "block",
  });
  if (verdict.list === "block") return { ...route, spam: true };
  const vip = route.rule !== undefined && number.routing?.rules[route.rule - 1]?.condition === "vip";
  const spam = verdict.list !== "allow" && verdict.score >= policy.spamThreshold;
  if (spam && !vip && route.action !== "reject") {
    return policy.spamAction === "block"
      ? { action: "reject", because: ROUTED.spamBlocked(verdict.score, policy.spamThreshold), spam }
      : { action: "voicemail", because: ROUTED.spamVoicemail(verdict.score, policy.spamThreshold), spam };
  }
  if (route.action === "reject" || route.action === "voicemail") return { ...route, spam };
  const cap = await capState(db, number.organizationId, input.now, policy);
  if (cap?.reached) {
    if (cap.atCap === "voicemail_only") return { action: "voicemail", because: ROUTED.capVoicemail(cap.cap), spam };
    return { ...route, because: `${route.because}. ${ROUTED.capBilling(cap.cap)}`, spam };
  }
  return { ...route, spam };
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
 * (lib/voice/pipeline.ts, overlapped); the local responder answers at once and deterministically, so
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
  // charged and refunded once, in the engine's turn (lib/conversation/turn.ts).
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
        const spoken = await line(runtime, LINES.silentGoodbye(biz));
        return respond(runtime, req, step, {
          xml: hangupTwiml([spoken.prompt]),
          turns: [turn("assistant", LINES.silentGoodbye(biz))],
          silentPrompts: call.silentPrompts + 1,
          ended: { status: "completed", outcome: call.outcome ?? "answered_by_assistant" },
          timing: { ttsMs: spoken.ttsMs },
        });
      }
      const spoken = await line(runtime, LINES.stillThere);
      return respond(runtime, req, step, {
        xml: gatherTwiml([spoken.prompt], gatherUrl(step + 1)),
        turns: [turn("assistant", LINES.stillThere)],
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

/** The engine's turn for this step (lib/conversation/turn.ts): the same input every channel gives it. */
/** The business's staff by name ("is Marco there?" asks for a person): its staff resources. */
async function staffNames(db: Db, organizationId: string): Promise<string[]> {
  const rows = await listResources(db, organizationId).catch(() => []);
  return rows.filter((r) => r.kind === "staff").map((r) => r.name);
}

function turnInput(runtime: CallRuntime, text: string, step: number, bookingActive: boolean, people: string[] = []): TurnInput {
  const { call } = runtime;
  return {
    db: runtime.db,
    channel: "call",
    organizationId: call.organizationId,
    caller: call.fromNumber,
    text,
    hear: {
      now: clockOf(runtime.booking),
      timeZone: runtime.profile.timezone ?? "UTC",
      services: runtime.profile.services ?? [],
      people,
      expecting: call.mode === "message" ? "message" : null,
      language: languageOf(call.transcript),
    },
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
  // The engine decides (lib/conversation/engine.ts): leaving a flow — a person, goodbye, "wait,
  // what?", an emergency — wins over a booking under way; otherwise "yes", "no" or "cancel it"
  // answer the booking, not the call's routing.
  const bookingActive = Boolean(text && claimed.mode === "conversation" && (await bookingInProgress(db, claimed.organizationId, "call", claimed.id, runtime.booking)));
  const input = turnInput(runtime, text, step, bookingActive, text ? await staffNames(db, claimed.organizationId) : []);
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

// ─── A transfer, a voicemail ──────────────────────────────────────────────────────────────────

/** POST dial?step=N: how the transfer went (DialCallStatus). Nobody answered → the assistant takes a message. */
export async function continueAfterDial(db: Db, req: CarrierRequest, step: number, deps: VoiceDeps = {}): Promise<Response> {
  const { call } = await authenticateCallWebhook(db, req);
  if (!call) return twimlResponse(hangupTwiml([{ say: LINES.lost }]));
  const claimed = await claimStep(db, call, step);
  if (!claimed) return replayed(db, call.id, step);
  const runtime = await loadRuntime(db, claimed, deps);
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
  const text = LINES.transferUnanswered(businessName(runtime));
  const spoken = await line(runtime, text);
  return respond(runtime, req, step, {
    xml: gatherTwiml([spoken.prompt], gatherUrl(step + 1)),
    turns: [turn("assistant", text)],
    mode: "message",
    silentPrompts: 0,
    timing: { ttsMs: spoken.ttsMs },
  });
}

/** POST record?step=N: the voicemail is recorded (the file itself is announced by the recording callback). */
export async function finishRecording(db: Db, req: CarrierRequest, step: number, deps: VoiceDeps = {}): Promise<Response> {
  const { call } = await authenticateCallWebhook(db, req);
  if (!call) return twimlResponse(hangupTwiml([{ say: LINES.lost }]));
  const claimed = await claimStep(db, call, step);
  if (!claimed) return replayed(db, call.id, step);
  const runtime = await loadRuntime(db, claimed, deps);
  const duration = Number(req.params.RecordingDuration ?? 0) || 0;
  const recordingSid = req.params.RecordingSid || null;
  if (!recordingSid || duration <= 0) {
    return respond(runtime, req, step, {
      xml: hangupTwiml([{ say: "No message was recorded. Goodbye." }]),
      ended: { status: "completed", outcome: claimed.failureClass ? "failed" : (claimed.outcome ?? "answered_by_assistant") },
    });
  }
  await recordAction(db, { organizationId: call.organizationId, callId: call.id, type: "voicemail_recorded", detail: { recordingSid, durationSeconds: duration } });
  const spoken = await line(runtime, LINES.recorded);
  return respond(runtime, req, step, {
    xml: hangupTwiml([spoken.prompt]),
    turns: [turn("assistant", LINES.recorded)],
    extra: {
      recordingSid,
      transcriptionStatus: sql`coalesce(${calls.transcriptionStatus}, 'pending')` as unknown as "pending",
    },
    ended: { status: "voicemail", outcome: "voicemail" },
    timing: { ttsMs: spoken.ttsMs },
  });
}

/**
 * POST recordingStatusCallback: the recording file is ready (RecordingStatus completed) → the
 * voicemail job fetches, stores and transcribes it, once per RecordingSid.
 */
export async function recordingStatus(db: Db, req: CarrierRequest): Promise<Response> {
  const { call } = await authenticateCallWebhook(db, req);
  if (!call) return twimlResponse(EMPTY_RESPONSE);
  const { RecordingSid: recordingSid, RecordingStatus: status } = req.params;
  if (!recordingSid) throw badRequest("RecordingSid is required", { RecordingSid: "Required" });
  if (status === "completed") {
    await db
      .update(calls)
      .set({ recordingSid, transcriptionStatus: sql`coalesce(${calls.transcriptionStatus}, 'pending')` as unknown as "pending" })
      .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId)));
    await enqueue(
      db,
      processVoicemailJob,
      { callId: call.id, organizationId: call.organizationId, recordingSid, durationSeconds: Number(req.params.RecordingDuration ?? 0) || 0 },
      { singletonKey: `voicemail:${recordingSid}` },
    );
  } else if (status === "failed" || status === "absent") {
    await db
      .update(calls)
      .set({ transcriptionStatus: "failed", transcriptionNote: "The carrier could not record the message." })
      .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId)));
  }
  return twimlResponse(EMPTY_RESPONSE);
}

// ─── Call status ──────────────────────────────────────────────────────────────────────────────

/**
 * POST statusCallbackUrl: ringing → in-progress → completed / busy / no-answer / failed, with
 * CallDuration. A callback never moves a call backwards (a late "ringing" after "completed" is
 * ignored); a later terminal callback only refines the end time and duration. Becoming terminal
 * queues the post-call job.
 */
export async function callStatus(db: Db, req: CarrierRequest): Promise<Response> {
  const empty = () => twimlResponse(EMPTY_RESPONSE);
  const next = callStatusFromCarrier(req.params.CallStatus);
  if (!next) throw badRequest(`Unknown CallStatus "${req.params.CallStatus ?? ""}"`, { CallStatus: "Unknown call status" });
  let { call } = await authenticateCallWebhook(db, req);
  if (!call) {
    // A status for a call the voice webhook has not seen (it arrived first, or the call never reached us).
    const number = await findNumber(db, req.params.To);
    if (!number || !req.params.CallSid || !req.params.From) return empty();
    await db
      .insert(calls)
      .values({
        id: crypto.randomUUID(),
        organizationId: number.organizationId,
        phoneNumberId: number.id,
        assistantId: number.assistantId,
        providerCallSid: req.params.CallSid,
        direction: req.params.Direction?.startsWith("outbound") ? "outbound" : "inbound",
        fromNumber: req.params.From,
        toNumber: req.params.To,
        callerName: req.params.CallerName?.trim() || null,
        status: "ringing",
        provider: number.provider,
        transport: number.streaming ? "relay" : "gather",
      })
      .onConflictDoNothing({ target: calls.providerCallSid });
    [call] = await db.select().from(calls).where(and(eq(calls.providerCallSid, req.params.CallSid), eq(calls.organizationId, number.organizationId)));
    if (!call) return empty();
  }

  const duration = req.params.CallDuration !== undefined ? Math.max(0, Math.round(Number(req.params.CallDuration) || 0)) : null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = call.status;
    if (STATUS_RANK[next] < STATUS_RANK[current]) return empty();
    const becomesTerminal = isTerminal(next) && !isTerminal(current);
    const set: Partial<typeof calls.$inferInsert> = { carrierStatus: req.params.CallStatus };
    if (STATUS_RANK[next] > STATUS_RANK[current]) set.status = next;
    if (isTerminal(next)) {
      const endedAt = new Date();
      set.endedAt = becomesTerminal || !call.endedAt ? endedAt : call.endedAt;
      if (duration !== null) set.durationSeconds = duration;
      else if (becomesTerminal) set.durationSeconds = Math.max(0, Math.round((endedAt.getTime() - call.startedAt.getTime()) / 1000));
      if (becomesTerminal) {
        set.mode = "ended";
        if (next === "missed") set.outcome = "missed";
        if (next === "failed" && !call.outcome) set.outcome = "failed";
      }
    }
    const [updated] = await db
      .update(calls)
      .set(set)
      .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId), eq(calls.status, current)))
      .returning();
    if (updated) {
      if (isTerminal(updated.status)) await enqueue(db, finishCallJob, { callId: call.id, organizationId: call.organizationId }, { singletonKey: `call-finish:${call.id}` });
      return empty();
    }
    // Another request changed the status meanwhile: read it again and decide again.
    [call] = await db.select().from(calls).where(eq(calls.id, call.id));
    if (!call) return empty();
  }
  return empty();
}

// ─── The streaming path hands the call back ───────────────────────────────────────────────────

/**
 * POST connect?step=N: ConversationRelay ended (the gateway sent `end`, or the session failed).
 * HandoffData says why: transfer → <Dial>, voicemail → <Record>, otherwise the call ends.
 */
export async function afterRelay(db: Db, req: CarrierRequest, step: number, deps: VoiceDeps = {}): Promise<Response> {
  const { call } = await authenticateCallWebhook(db, req);
  if (!call) return twimlResponse(hangupTwiml([{ say: LINES.lost }]));
  const claimed = await claimStep(db, call, step);
  if (!claimed) return replayed(db, call.id, step);
  const runtime = await loadRuntime(db, claimed, deps);
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
  if (!reason && req.params.SessionStatus === "failed") {
    const answer = await voicemailAnswer(runtime, step, LINES.trouble, [], { say: true });
    return respond(runtime, req, step, { ...answer, failureClass: "processing" });
  }
  return respond(runtime, req, step, { xml: hangupTwiml([]), ended: { status: "completed", outcome: claimed.outcome ?? "answered_by_assistant" } });
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
  await verifyCarrierRequest(db, req, { organizationId: call.organizationId, provider: call.provider ?? "simulated" });
  const [org] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, call.organizationId));
  const said = [...call.transcript].reverse().find((t) => t.speaker === "caller" && t.kind !== "dtmf")?.text;
  const quoted = said && said.length > 140 ? `${said.slice(0, 137)}...` : said;
  const why = quoted ? `they said "${quoted}"` : call.routedBecause?.startsWith("VIP") ? "a VIP caller" : "a call to the business line";
  return twimlResponse(whisperTwiml(whisperLine({ caller: call.fromNumber, callerName: call.callerName, business: org?.name ?? "your business", why })));
}
