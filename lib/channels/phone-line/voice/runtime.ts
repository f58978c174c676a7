import "server-only";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { audioClips, calls, organizations, phoneNumbers, type TranscriptTurn } from "@/db/schema";
import { notFound } from "@/lib/platform/http/errors";
import { resolveVoice } from "@/lib/agents/assistants/voices";
import { getBlobStore, type BlobStore } from "@/lib/platform/blob-store";
import type { BusinessInfo, ChatMessage, LlmProvider } from "@/lib/platform/providers/llm/interface";
import type { TtsProvider } from "@/lib/platform/providers/tts/interface";
import { offlineSpeechEngine } from "@/lib/platform/providers/tts/offline";
import { selectLlm } from "@/lib/workspace/provider-selection/llm";
import { bookingAwareLlm } from "@/lib/scheduling/dialogue/conversation";
import type { DialogueTurn } from "@/lib/scheduling/dialogue/dialogue";
import type { BookingDeps } from "@/lib/scheduling/service";
import { selectTts } from "@/lib/workspace/provider-selection/tts";
import { audioDurationMs } from "@/lib/phone/voice/audio";
import { saveAudioClip, signedAudioUrl } from "@/lib/phone/voice/audio-clips";
import { assistantById, businessInfo, type ResolvedAssistant } from "@/lib/phone/voice/context";
import { HISTORY_TURNS } from "@/lib/phone/voice/service";
import { absoluteUrl } from "@/lib/phone/telephony/urls";
import type { Understanding } from "@/lib/agents/conversation/understanding/types";
import { bookingHeard } from "@/lib/agents/conversation/engine";
import { loadTurnContext } from "@/lib/agents/conversation/context";
import { DEFAULT_CALL_RULES } from "@/lib/agents/conversation/call-rules";

export type CallRow = typeof calls.$inferSelect;
export type NumberRow = typeof phoneNumbers.$inferSelect;

/** Overrides for tests and the benchmark; otherwise everything is selected per organization. */
export type VoiceDeps = {
  llm?: LlmProvider;
  tts?: TtsProvider;
  store?: BlobStore;
  /** A reply that takes longer is abandoned (failure class "timeout") and the caller is offered voicemail. */
  turnTimeoutMs?: number;
  /** The appointment book's clock and messaging (tests fix the clock). */
  booking?: BookingDeps;
};

/** Twilio waits 15 s for a webhook; a reply must be ready well before. */
export const DEFAULT_TURN_TIMEOUT_MS = 10_000;

export type CallRuntime = {
  db: Db;
  call: CallRow;
  number: NumberRow | null;
  assistant: ResolvedAssistant | null;
  profile: BusinessInfo;
  /** A Free organization whose period has ended gets its monthly credits before spending (lazily). */
  freePeriodDue: boolean;
  llm: LlmProvider;
  tts: TtsProvider;
  store: BlobStore;
  turnTimeoutMs: number;
  booking: BookingDeps;
  /** The business's staff by name ("is Marco there?" asks for a person), read with the context, not on every turn. */
  staff: string[];
  /** The booking dialogue's turns during this request (the call records what they did). */
  bookingTurns: DialogueTurn[];
  /** The caller's words of this step, already in the transcript (written with the step's claim). */
  callerWordsWritten?: string;
  /** What understanding read in this step's words, and how long it took (the benchmark reports it). */
  understanding?: Understanding | null;
  nluMs?: number;
};

export async function numberOfCall(db: DbOrTx, call: Pick<CallRow, "organizationId" | "phoneNumberId">): Promise<NumberRow | null> {
  if (!call.phoneNumberId) return null;
  const [row] = await db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.id, call.phoneNumberId), eq(phoneNumbers.organizationId, call.organizationId)));
  return row ?? null;
}

async function organizationOf(db: DbOrTx, organizationId: string) {
  const [org] = await db
    .select({ name: organizations.name, profile: organizations.businessProfile, tier: organizations.subscriptionTier, periodEnd: organizations.currentPeriodEnd })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org) throw notFound("Organization");
  return org;
}

type Context = {
  number: NumberRow | null;
  assistant: ResolvedAssistant | null;
  org: Awaited<ReturnType<typeof organizationOf>>;
  business: BusinessInfo;
  llm: LlmProvider;
  tts: TtsProvider;
  staff: string[];
};

/**
 * What every turn of a business's calls reads — the assistant, the business profile, its staff and
 * the chosen providers — kept for CONTEXT_TTL_MS per instance: a busy line's turns then cost a few round trips
 * instead of seven, and a change in those settings reaches live calls within that time. The number
 * (forward-to, routing) is read fresh every time (docs/telephony.md "What a call reads when").
 */
export const CONTEXT_TTL_MS = 2000;
const contexts = new Map<string, { at: number; value: Promise<Context> }>();

function loadContext(db: Db, call: CallRow, number: NumberRow | null | undefined): Promise<Context> {
  // The number itself (its forward-to, routing, assistant) is never cached: a change reaches the
  // next call and the next turn at once, on every instance (issue 26 §15). It is one lookup by key.
  const freshNumber = number !== undefined ? Promise.resolve(number) : numberOfCall(db, call);
  return Promise.all([cachedContext(db, call), freshNumber]).then(([context, n]) => ({ ...context, number: n }));
}

function cachedContext(db: Db, call: CallRow): Promise<Context> {
  const key = `${call.organizationId}|${call.phoneNumberId ?? ""}|${call.assistantId ?? ""}`;
  const now = Date.now();
  const hit = contexts.get(key);
  if (hit && now - hit.at < CONTEXT_TTL_MS) return hit.value;
  const value = Promise.all([
    null as NumberRow | null,
    assistantById(db, call.organizationId, call.assistantId),
    organizationOf(db, call.organizationId),
    businessInfo(db, call.organizationId, { phoneNumberId: call.phoneNumberId, assistantId: call.assistantId }),
    selectLlm(db, call.organizationId),
    selectTts(db, call.organizationId),
    loadTurnContext(db, call.organizationId).then((c) => c.people),
  ]).then(([n, assistant, org, business, llm, tts, staff]) => ({ number: n, assistant, org, business, llm, tts, staff }));
  if (contexts.size > 1000) contexts.clear();
  contexts.set(key, { at: now, value });
  value.catch(() => contexts.delete(key));
  return value;
}

/** Forgets the cached context (tests that change settings between turns). */
export function forgetCallContexts() {
  contexts.clear();
}

/** Everything a turn of this call needs, loaded together. */
export async function loadRuntime(db: Db, call: CallRow, deps: VoiceDeps = {}, number?: NumberRow | null): Promise<CallRuntime> {
  const context = await loadContext(db, call, number);
  const { assistant, org } = context;
  const resolvedNumber = context.number;
  const bookingTurns: DialogueTurn[] = [];
  const booking = deps.booking ?? {};
  // Booking by voice: the dialogue answers turns about appointments, the model everything else.
  const holder: { runtime?: CallRuntime } = {};
  const heard = () => bookingHeard(holder.runtime?.understanding ?? null);
  const llm = bookingAwareLlm(db, call.organizationId, deps.llm ?? context.llm, {
    channel: "call",
    ref: call.id,
    callerPhone: call.fromNumber,
    heard,
    // The model's transfer tool: a phone call can be connected (<Dial>), to the owner's numbers.
    conversation: { canTransfer: true, forwardTo: resolvedNumber?.forwardTo ?? null, rules: assistant?.callRules ?? DEFAULT_CALL_RULES, record: { callId: call.id } },
  }, booking, (t) => {
    bookingTurns.push(t);
  });
  const tts = deps.tts ?? context.tts;
  return (holder.runtime = {
    booking,
    bookingTurns,
    staff: context.staff,
    db,
    call,
    number: resolvedNumber,
    assistant,
    profile: context.business,
    freePeriodDue: org.tier === "free" && org.periodEnd <= new Date(),
    llm,
    tts,
    store: deps.store ?? getBlobStore(),
    turnTimeoutMs: deps.turnTimeoutMs ?? DEFAULT_TURN_TIMEOUT_MS,
  });
}

/** The call's turns as the language model's history (the last HISTORY_TURNS). */
export function historyOf(transcript: TranscriptTurn[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const turn of transcript) {
    if (turn.kind === "dtmf") continue;
    if (turn.speaker === "caller") messages.push({ role: "user", content: turn.text });
    else if (turn.speaker === "assistant") messages.push({ role: "assistant", content: turn.heard ?? turn.text, intent: turn.intent ?? null });
  }
  return messages.slice(-HISTORY_TURNS);
}

/**
 * The cache key of a synthesized line: the same provider, engine, voice and words give the same audio.
 * The offline provider speaks Spanish with eSpeak NG instead of flite: that engine is in the key
 * (flite's keys are as they were, so English clips cached before stay valid). Pass the `language`
 * given to the synthesizer, if any.
 */
export function speechCacheKey(ttsName: string, voiceId: string, text: string, language?: string): string {
  const engine = ttsName === "offline" && offlineSpeechEngine(text, language) === "espeak-ng" ? "\u0000espeak-ng" : "";
  return crypto.createHash("sha256").update(`${ttsName}\u0000${voiceId}\u0000${text}${engine}`).digest("hex");
}

async function cachedClip(db: DbOrTx, organizationId: string, cacheKey: string): Promise<string | null> {
  const [row] = await db
    .select({ id: audioClips.id })
    .from(audioClips)
    .where(and(eq(audioClips.organizationId, organizationId), eq(audioClips.cacheKey, cacheKey)))
    .limit(1);
  return row?.id ?? null;
}

export type Spoken = { url: string; clipId: string; ttsMs: number; cached: boolean };

/**
 * The line in the assistant's voice from the organization's speech provider, as an absolute signed
 * URL. With `cache`, a line said before in the same voice by the same provider is played from its
 * clip (a phone desk says its greeting, "are you still there?" and the local responder's answers
 * all day); the clip's row carries the key, so every instance shares it.
 */
export async function speak(runtime: CallRuntime, text: string, options: { cache?: boolean; signal?: AbortSignal } = {}): Promise<Spoken> {
  const voice = resolveVoice(runtime.assistant?.voice ?? "alloy");
  const organizationId = runtime.call.organizationId;
  const cacheKey = options.cache ? speechCacheKey(runtime.tts.name, voice.id, text) : undefined;
  if (!cacheKey) return synthesize(runtime, text, voice, organizationId, undefined, options.signal);
  const clipId = await cachedClip(runtime.db, organizationId, cacheKey);
  if (clipId) return { url: absoluteUrl(signedAudioUrl(clipId)), clipId, ttsMs: 0, cached: true };
  // Many callers asking the same thing at once: one synthesis, shared (per process).
  const flightKey = `${organizationId}:${cacheKey}`;
  const inFlight = synthesizing.get(flightKey);
  if (inFlight) {
    // This turn's speech time is the wait for the shared synthesis (it is not the server's overhead).
    const waitStarted = performance.now();
    const shared = await inFlight;
    return { ...shared, ttsMs: performance.now() - waitStarted, cached: true };
  }
  const pending = synthesize(runtime, text, voice, organizationId, cacheKey, options.signal);
  synthesizing.set(flightKey, pending);
  try {
    return await pending;
  } finally {
    synthesizing.delete(flightKey);
  }
}

const synthesizing = new Map<string, Promise<Spoken>>();

async function synthesize(
  runtime: CallRuntime,
  text: string,
  voice: ReturnType<typeof resolveVoice>,
  organizationId: string,
  cacheKey: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Spoken> {
  const started = performance.now();
  const { audio, contentType } = await runtime.tts.synthesize(text, voice, signal ? { signal } : undefined);
  const ttsMs = performance.now() - started;
  const clip = await saveAudioClip(runtime.db, runtime.store, {
    organizationId,
    audio,
    contentType,
    durationMs: audioDurationMs(audio, contentType),
    source: "call",
    cacheKey,
    // Its words and voice: a cached line whose bytes are gone is synthesized again, never a 404 (issue 29).
    speech: { text, voiceId: voice.id },
  });
  return { url: absoluteUrl(signedAudioUrl(clip.id)), clipId: clip.id, ttsMs, cached: false };
}
