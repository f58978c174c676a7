import "server-only";
import { forwardingTestArrival } from "@/lib/phone/numbers/ownership";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { calls, organizations } from "@/db/schema";
import { badRequest, forbidden } from "@/lib/platform/http/errors";
import { assistantForNumber } from "@/lib/phone/voice/context";
import { relayUrlFor } from "@/lib/phone/telephony/relay/urls";
import { capState, getCallPolicy, type CallPolicy } from "@/lib/phone/routing/policy";
import { routeArrival, type Route } from "@/lib/phone/routing/rules";
import { reportSpam, scoreCaller } from "@/lib/phone/routing/spam";
import { ROUTED } from "@/lib/platform/text/routing";
import { gatherTwiml, hangupTwiml, rejectTwiml, relayTwiml } from "@/lib/phone/telephony/twiml";
import { telephonyUrl } from "@/lib/phone/telephony/urls";
import { SIGNATURE_MESSAGE, twimlResponse, verifiedNumber, type CarrierRequest } from "@/lib/phone/telephony/webhook";
import { memoryFor, topicOf } from "@/lib/phone/callers/memory";
import { welcomeBack } from "@/lib/platform/text/receptionist";
import { loadRuntime, type NumberRow, type VoiceDeps } from "./runtime";
import { recordCallNotice } from "@/lib/compliance/consent";
import { callOpening } from "@/lib/compliance/twiml";
import { LINES } from "./lines";
import { businessName, dialPerson, gatherUrl, line, recordArrival, replayed, respond, turn, voicemailAnswer } from "./step";

// ─── The call arrives ─────────────────────────────────────────────────────────────────────────

/**
 * POST voiceUrl. Unknown or inactive number → a polite goodbye, nothing written. Otherwise the call
 * is recorded once per CallSid and answered: the greeting in a Gather (or, for a streaming number,
 * ConversationRelay through the gateway); no active assistant → straight to voicemail.
 */
export async function answerIncomingCall(db: Db, req: CarrierRequest, deps: VoiceDeps = {}): Promise<Response> {
  const number = await verifiedNumber(db, req);
  if (!number) return twimlResponse(hangupTwiml([{ say: LINES.notInService }]));
  // "Test forwarding" (lib/phone/numbers/ownership.ts): the test call arrived; answer it briefly.
  if (await forwardingTestArrival(db, number, req.params)) return twimlResponse(hangupTwiml([{ say: LINES.forwardingTest }]));
  if (!number.isActive) return twimlResponse(hangupTwiml([{ say: LINES.notInService }]));
  const { CallSid: callSid, From: from } = req.params;
  if (!callSid || !from) throw badRequest("CallSid and From are required", { ...(callSid ? {} : { CallSid: "Required" }), ...(from ? {} : { From: "Required" }) });

  await recordArrival(db, number, req.params, { callSid, from, carrierStatus: req.params.CallStatus ?? null });

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
    const xml = relayTwiml({ url: relayUrlFor(claimed.id), actionUrl: telephonyUrl("connect", { step: 1 }), welcomeGreeting: greeting, callId: claimed.id, before, relay: runtime.assistant.relay });
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
 * Where the call goes at arrival: the block list and the number's rules (lib/phone/routing/rules.ts), then
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
