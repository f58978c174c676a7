import "server-only";
import crypto from "node:crypto";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { decryptSecret } from "@/lib/platform/crypto/secret-box";
import { calls, telephonyAccounts, type CallMode, type CallOutcome, type FailureClass, type TranscriptTurn } from "@/db/schema";
import { badRequest, forbidden } from "@/lib/platform/http/errors";
import { enqueue } from "@/lib/platform/jobs/queue";
import { dialTwiml, emptyVoiceTwiml, hangupTwiml, recordTwiml, type Prompt } from "@/lib/phone/telephony/twiml";
import { telephonyUrl } from "@/lib/phone/telephony/urls";
import { SIGNATURE_MESSAGE, twimlResponse, verifiedNumber, verifyCarrierRequest, type CarrierRequest } from "@/lib/phone/telephony/webhook";
import { finishCallJob } from "./post-call";
import { loadRuntime, speak, type CallRow, type CallRuntime, type NumberRow, type VoiceDeps } from "./runtime";
import { LINES } from "./lines";

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

export const EMPTY_RESPONSE = emptyVoiceTwiml();

export function parseStep(value: string | null): number {
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
export async function authenticateCallWebhook(db: Db, req: CarrierRequest): Promise<{ call: CallRow | null; number: NumberRow | null }> {
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
  const number = await verifiedNumber(db, req);
  if (!number) throw forbidden(SIGNATURE_MESSAGE);
  return { call: null, number };
}

/**
 * The call's row, once per CallSid (a retry, or the status callback that arrived first, finds it
 * there): ringing, on the number it was placed to.
 */
export async function recordArrival(db: Db, number: NumberRow, params: Record<string, string>, opts: { callSid: string; from: string; carrierStatus?: string | null }) {
  await db
    .insert(calls)
    .values({
      id: crypto.randomUUID(),
      organizationId: number.organizationId,
      phoneNumberId: number.id,
      assistantId: number.assistantId,
      providerCallSid: opts.callSid,
      direction: params.Direction?.startsWith("outbound") ? "outbound" : "inbound",
      fromNumber: opts.from,
      toNumber: params.To,
      callerName: params.CallerName?.trim() || null,
      status: "ringing",
      ...(opts.carrierStatus !== undefined ? { carrierStatus: opts.carrierStatus } : {}),
      provider: number.provider,
      transport: number.streaming ? "relay" : "gather",
    })
    .onConflictDoNothing({ target: calls.providerCallSid });
}

/**
 * The opening of a step that is not the caller's words (dial, record, connect): the call verified,
 * step N claimed and its runtime loaded — or the answer to give instead (the stored one for a
 * carrier's retry of the step; "lost" for a call we do not know).
 */
export async function openStep(db: Db, req: CarrierRequest, step: number, deps: VoiceDeps): Promise<Response | { call: CallRow; claimed: CallRow; runtime: CallRuntime }> {
  const { call } = await authenticateCallWebhook(db, req);
  if (!call) return twimlResponse(hangupTwiml([{ say: LINES.lost }]));
  const claimed = await claimStep(db, call, step);
  if (!claimed) return replayed(db, call.id, step);
  return { call, claimed, runtime: await loadRuntime(db, claimed, deps) };
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
export async function claimStep(db: Db, call: CallRow, step: number, callerTurn?: TranscriptTurn): Promise<CallRow | null> {
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
export async function resumeStep(db: Db, call: Pick<CallRow, "id" | "organizationId">, step: number): Promise<CallRow | null> {
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A retry of a step already claimed: the answer stored for it (waiting while the first request
 * finishes), or — when the claim expires with no answer — the call itself, to answer the step again.
 */
export async function replay(db: Db, callId: string, step: number, organizationId?: string): Promise<Response | CallRow> {
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
export async function replayed(db: Db, callId: string, step: number): Promise<Response> {
  const answer = await replay(db, callId, step);
  return answer instanceof Response ? answer : twimlResponse(hangupTwiml([{ say: LINES.lost }]));
}

export type Ending = { status: "completed" | "voicemail"; outcome: CallOutcome };

export type Answer = {
  xml: string;
  turns?: TranscriptTurn[];
  mode?: CallMode;
  silentPrompts?: number;
  failureClass?: FailureClass;
  ended?: Ending;
  extra?: Partial<typeof calls.$inferInsert>;
  timing?: { llmMs?: number; ttsMs?: number };
};

export function jsonb(value: unknown): SQL {
  return sql`${JSON.stringify(value)}::jsonb`;
}

/**
 * Stores the answer to step `step` with the call (so a retry replays it) and what the step changed,
 * in one update; a call that ends here gets its end time, and the post-call job is queued.
 */
export async function respond(runtime: CallRuntime, req: CarrierRequest, step: number, answer: Answer): Promise<Response> {
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

export const gatherUrl = (step: number) => telephonyUrl("gather", { step });
export const dialUrl = (step: number, to: string) => telephonyUrl("dial", { step, to });
export const whisperUrl = (callId: string) => telephonyUrl("whisper", { callId });

/** <Dial> to a person: the caller's own number as caller ID, and the briefing whispered to whoever answers. */
export function dialPerson(call: CallRow, prompts: Prompt[], to: string, step: number, timeoutSeconds?: number): string {
  return dialTwiml(prompts, to, { callerId: call.fromNumber, actionUrl: dialUrl(step, to), timeoutSeconds, whisperUrl: whisperUrl(call.id) });
}
export const recordUrl = (step: number) => telephonyUrl("record", { step });
export const recordingUrl = () => telephonyUrl("recording");

export function turn(speaker: TranscriptTurn["speaker"], text: string, extra: Partial<TranscriptTurn> = {}): TranscriptTurn {
  return { speaker, text, at: new Date().toISOString(), ...extra };
}

/** The line in the assistant's voice; if speech synthesis fails, Twilio's own <Say> (the call goes on). */
export async function line(runtime: CallRuntime, text: string): Promise<{ prompt: Prompt; ttsMs: number; failed: boolean }> {
  try {
    const spoken = await speak(runtime, text, { cache: true });
    return { prompt: { play: spoken.url }, ttsMs: spoken.ttsMs, failed: false };
  } catch (error) {
    console.error(`[telephony] speech synthesis failed for call ${runtime.call.id}:`, error instanceof Error ? error.message : error);
    return { prompt: { say: text }, ttsMs: 0, failed: true };
  }
}

/** A line in the caller's language (Spanish lines are said by the same voice until a Spanish offline voice is wired in). */
export async function lineOf(runtime: CallRuntime, text: string) {
  return line(runtime, text);
}

export function businessName(runtime: CallRuntime): string {
  return runtime.profile.name;
}

/** A voicemail from here: the prompt, then <Record>. */
export async function voicemailAnswer(runtime: CallRuntime, step: number, text: string, turns: TranscriptTurn[], opts: { say?: boolean } = {}): Promise<Answer> {
  const spoken = opts.say ? { prompt: { say: text } as Prompt, ttsMs: 0 } : await line(runtime, text);
  return {
    xml: recordTwiml([spoken.prompt], recordUrl(step + 1), recordingUrl()),
    turns: [...turns, turn("assistant", text)],
    mode: "voicemail",
    timing: { ttsMs: spoken.ttsMs },
  };
}
