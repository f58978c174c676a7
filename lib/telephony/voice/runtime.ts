import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { audioClips, calls, phoneNumbers, type TranscriptTurn } from "@/db/schema";
import { resolveVoice } from "@/lib/assistants/voices";
import { getBlobStore, type BlobStore } from "@/lib/blob-store";
import type { BusinessInfo, ChatMessage, LlmProvider } from "@/lib/providers/llm/interface";
import type { TtsProvider } from "@/lib/providers/tts/interface";
import { selectLlm } from "@/lib/provider-selection/llm";
import { selectTts } from "@/lib/provider-selection/tts";
import { audioDurationMs } from "@/lib/voice/audio";
import { saveAudioClip, signedAudioUrl } from "@/lib/voice/audio-clips";
import { assistantById, businessInfo, type ResolvedAssistant } from "@/lib/voice/context";
import { HISTORY_TURNS } from "@/lib/voice/service";
import { absoluteUrl } from "../urls";

export type CallRow = typeof calls.$inferSelect;
export type NumberRow = typeof phoneNumbers.$inferSelect;

/** Overrides for tests and the benchmark; otherwise everything is selected per organization. */
export type VoiceDeps = {
  llm?: LlmProvider;
  tts?: TtsProvider;
  store?: BlobStore;
  /** A reply that takes longer is abandoned (failure class "timeout") and the caller is offered voicemail. */
  turnTimeoutMs?: number;
};

/** Twilio waits 15 s for a webhook; a reply must be ready well before. */
export const DEFAULT_TURN_TIMEOUT_MS = 10_000;

export type CallRuntime = {
  db: Db;
  call: CallRow;
  number: NumberRow | null;
  assistant: ResolvedAssistant | null;
  profile: BusinessInfo;
  llm: LlmProvider;
  tts: TtsProvider;
  store: BlobStore;
  turnTimeoutMs: number;
};

export async function numberOfCall(db: DbOrTx, call: Pick<CallRow, "organizationId" | "phoneNumberId">): Promise<NumberRow | null> {
  if (!call.phoneNumberId) return null;
  const [row] = await db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.id, call.phoneNumberId), eq(phoneNumbers.organizationId, call.organizationId)));
  return row ?? null;
}

/** Everything a turn of this call needs, loaded together. */
export async function loadRuntime(db: Db, call: CallRow, deps: VoiceDeps = {}, number?: NumberRow | null): Promise<CallRuntime> {
  const [resolvedNumber, assistant, profile, llm, tts] = await Promise.all([
    number !== undefined ? number : numberOfCall(db, call),
    assistantById(db, call.organizationId, call.assistantId),
    businessInfo(db, call.organizationId),
    deps.llm ?? selectLlm(db, call.organizationId),
    deps.tts ?? selectTts(db, call.organizationId),
  ]);
  return {
    db,
    call,
    number: resolvedNumber,
    assistant,
    profile,
    llm,
    tts,
    store: deps.store ?? getBlobStore(),
    turnTimeoutMs: deps.turnTimeoutMs ?? DEFAULT_TURN_TIMEOUT_MS,
  };
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
 * Clips of fixed lines (greeting, "are you still there?", goodbyes) are made once per organization,
 * provider, voice and text, and reused while their row exists: a phone desk says them all day.
 */
const phraseCache = new Map<string, string>();
const PHRASE_CACHE_LIMIT = 500;

async function cachedClip(db: DbOrTx, key: string, organizationId: string): Promise<string | null> {
  const id = phraseCache.get(key);
  if (!id) return null;
  const [row] = await db
    .select({ id: audioClips.id })
    .from(audioClips)
    .where(and(eq(audioClips.id, id), eq(audioClips.organizationId, organizationId)));
  if (!row) phraseCache.delete(key);
  return row ? id : null;
}

export type Spoken = { url: string; clipId: string; ttsMs: number };

/** The line in the assistant's voice from the organization's speech provider, as an absolute signed URL. */
export async function speak(runtime: CallRuntime, text: string, options: { cache?: boolean } = {}): Promise<Spoken> {
  const voice = resolveVoice(runtime.assistant?.voice ?? "alloy");
  const organizationId = runtime.call.organizationId;
  const key = `${organizationId}|${runtime.tts.name}|${voice.id}|${text}`;
  if (options.cache) {
    const clipId = await cachedClip(runtime.db, key, organizationId);
    if (clipId) return { url: absoluteUrl(signedAudioUrl(clipId)), clipId, ttsMs: 0 };
  }
  const started = performance.now();
  const { audio, contentType } = await runtime.tts.synthesize(text, voice);
  const ttsMs = performance.now() - started;
  const clip = await saveAudioClip(runtime.db, runtime.store, {
    organizationId,
    audio,
    contentType,
    durationMs: audioDurationMs(audio, contentType),
    source: "call",
  });
  if (options.cache) {
    if (phraseCache.size >= PHRASE_CACHE_LIMIT) phraseCache.delete(phraseCache.keys().next().value as string);
    phraseCache.set(key, clip.id);
  }
  return { url: absoluteUrl(signedAudioUrl(clip.id)), clipId: clip.id, ttsMs };
}
