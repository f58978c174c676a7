import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { assistantActions, audioClips, calls, logisticsRequests, type CallOutcome } from "@/db/schema";
import { getCreditBalance, spendCredits } from "@/lib/workspace/billing/ledger";
import { settleCallCredits } from "@/lib/phone/routing/policy";
import { categoryOf, creditPrices } from "@/lib/workspace/billing/prices";
import { captureLogisticsRequest } from "@/lib/reports/crm-voice/logistics";
import { getBlobStore, type BlobStore } from "@/lib/platform/blob-store";
import { HttpError } from "@/lib/platform/http/errors";
import { emitEvent, notifyMissedCall } from "@/lib/channels/integrations/webhooks";
import { defineJob } from "@/lib/platform/jobs/types";
import { analyzeLocally } from "@/lib/platform/providers/llm/local-analysis";
import type { ConversationAnalysis, ConversationInput, LlmProvider } from "@/lib/platform/providers/llm/interface";
import { TelephonyError, type Recording, type TelephonyProvider } from "@/lib/platform/providers/telephony/interface";
import type { SttProvider } from "@/lib/platform/providers/stt/interface";
import { selectLlm } from "@/lib/workspace/provider-selection/llm";
import { selectStt } from "@/lib/workspace/provider-selection/stt";
import { getTelephonyProviderFor } from "@/lib/workspace/provider-selection/telephony";
import { followUpCall } from "@/lib/receptionist/follow-up";
import { saveAudioClip } from "@/lib/phone/voice/audio-clips";
import { businessInfo } from "@/lib/phone/voice/context";
import type { CallRow } from "./runtime";
import { callFacts, truthfulAnalysis } from "./call-record";
import { isUniqueViolation } from "@/lib/platform/database-errors";

/**
 * After the call, in jobs (never in the webhook): the analysis (summary, sentiment and its 1–5
 * score, intent, action items — the language model, or the local analysis offline), the call's
 * outcome, and one notification per call (call.completed or voicemail.received to webhooks, the
 * missed-call message to Slack). Voicemails first go through `voicemail.process`: the recording is
 * fetched from the carrier, stored in the blob store and transcribed.
 */

export const TRANSCRIPTION_NOT_INSTALLED =
  "Voicemail transcription is not installed on this server. Install it with `apt-get install -y libpocketsphinx3 pocketsphinx-en-us` (or add a Deepgram key in Settings → API Keys); the recording is kept.";

type CallRef = { callId: string; organizationId: string };

async function loadCall(db: Db, ref: CallRef): Promise<CallRow | null> {
  const [row] = await db
    .select()
    .from(calls)
    .where(and(eq(calls.id, ref.callId), eq(calls.organizationId, ref.organizationId)));
  return row ?? null;
}

const TERMINAL = new Set(["completed", "missed", "voicemail", "failed"]);

function outcomeOf(call: CallRow): CallOutcome {
  if (call.outcome) return call.outcome;
  if (call.status === "missed") return "missed";
  if (call.status === "failed") return "failed";
  if (call.status === "voicemail") return "voicemail";
  return call.transcript.some((t) => t.speaker === "assistant") ? "answered_by_assistant" : "missed";
}

async function outcomeText(db: Db, call: CallRow, outcome: CallOutcome): Promise<string | null> {
  const taken = await db
    .select({ id: assistantActions.id })
    .from(assistantActions)
    .where(and(eq(assistantActions.callId, call.id), eq(assistantActions.organizationId, call.organizationId), eq(assistantActions.type, "took_message")))
    .limit(1);
  switch (outcome) {
    case "transferred":
      return "the call was transferred to the team";
    case "voicemail":
      return "the caller left a voicemail";
    case "missed":
      return "the call was missed";
    case "failed":
      return "the assistant could not answer the call";
    case "blocked":
      return "the call was blocked";
    default:
      return taken.length ? "the assistant took a message for the team" : null;
  }
}

export type AnalysisDeps = { llm?: LlmProvider };

/** Runs the analysis and stores it with the call. A failing model falls back to the local analysis. */
export async function analyzeCall(db: Db, call: CallRow, deps: AnalysisDeps = {}): Promise<ConversationAnalysis> {
  const [profile, llm] = await Promise.all([businessInfo(db, call.organizationId), deps.llm ?? selectLlm(db, call.organizationId)]);
  const turns: ConversationInput["turns"] = call.transcript.map((t) => ({ speaker: t.speaker, text: t.heard ?? t.text, kind: t.kind }));
  if (call.voicemailTranscript) turns.push({ speaker: "caller", text: call.voicemailTranscript });
  // What the engine did (its action rows), the caller's given name (never a device label), in the business's zone.
  const facts = await callFacts(db, call, outcomeOf(call), profile.timezone ?? "UTC");
  const input: ConversationInput = {
    profile,
    caller: facts.name ? `${facts.name} (${call.fromNumber})` : call.fromNumber,
    channel: call.status === "voicemail" ? "voicemail" : "call",
    turns,
    outcome: facts.outcome ?? (await outcomeText(db, call, outcomeOf(call))),
  };
  let analysis: ConversationAnalysis;
  try {
    analysis = await llm.analyzeConversation(input, { signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    console.error(`[calls] analysis of ${call.id} by ${llm.name} failed; using the local analysis:`, error instanceof Error ? error.message : error);
    analysis = analyzeLocally(input);
  }
  // The record tells the truth: the outcome first, and no action item for what the engine already did.
  analysis = truthfulAnalysis(analysis, facts, call.callerName && !facts.name ? call.callerName : null);
  await db
    .update(calls)
    .set({
      summary: analysis.summary,
      sentiment: analysis.sentiment,
      sentimentScore: analysis.sentimentScore,
      intent: call.isSpam ? "spam" : analysis.intent,
      actionItems: analysis.actionItems,
      callerName: facts.name,
      analyzedAt: new Date(),
    })
    .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId)));
  if (!call.isSpam && analysis.intent === "order") {
    // An order, delivery or pickup the caller asked for goes on the team's logistics list (CRM voice), once per call.
    const callerWords = turns.filter((t) => t.speaker === "caller" && !t.kind).map((t) => t.text).join(" ").trim();
    const [existing] = await db.select({ id: logisticsRequests.id }).from(logisticsRequests).where(and(eq(logisticsRequests.callId, call.id), eq(logisticsRequests.organizationId, call.organizationId)));
    if (callerWords && !existing) {
      await captureLogisticsRequest(db, call.organizationId, { text: callerWords, source: "call", contact: facts.name ? `${facts.name} (${call.fromNumber})` : call.fromNumber, callId: call.id });
    }
  }
  return analysis;
}

/** The call's one notification: claimed with notified_at, so a job run twice sends it once. */
async function notifyOnce(db: Db, ref: CallRef): Promise<void> {
  const [call] = await db
    .update(calls)
    .set({ notifiedAt: new Date() })
    .where(and(eq(calls.id, ref.callId), eq(calls.organizationId, ref.organizationId), isNull(calls.notifiedAt)))
    .returning();
  if (!call) return;
  const payload = {
    callId: call.id,
    phoneNumberId: call.phoneNumberId,
    from: call.fromNumber,
    to: call.toNumber,
    callerName: call.callerName,
    status: call.status,
    outcome: call.outcome,
    durationSeconds: call.durationSeconds,
    startedAt: call.startedAt.toISOString(),
    endedAt: call.endedAt?.toISOString() ?? null,
    summary: call.summary,
    sentiment: call.sentiment,
    sentimentScore: call.sentimentScore,
    intent: call.intent,
    actionItems: call.actionItems,
  };
  if (call.status === "voicemail") {
    await emitEvent(db, call.organizationId, "voicemail.received", { ...payload, transcript: call.voicemailTranscript, transcriptionStatus: call.transcriptionStatus });
  } else {
    await emitEvent(db, call.organizationId, "call.completed", payload);
  }
  if (call.outcome === "missed") {
    await notifyMissedCall(db, call.organizationId, {
      id: call.id,
      fromNumber: call.fromNumber,
      toNumber: call.toNumber,
      callerName: call.callerName,
      startedAt: call.startedAt,
    });
  }
}

/** The post-call work of an ended call. Idempotent: analysis once, notification once. */
export async function finishCall(db: Db, ref: CallRef, deps: AnalysisDeps = {}): Promise<void> {
  let call = await loadCall(db, ref);
  if (!call || !TERMINAL.has(call.status)) return;
  const outcome = outcomeOf(call);
  if (outcome !== call.outcome) {
    await db
      .update(calls)
      .set({ outcome })
      .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId)));
    call = { ...call, outcome };
  }
  // Cost and credit-back (short, spam, failed on our side) through the ledger; run again after a transcription.
  await settleCallCredits(db, call.organizationId, call.id);
  // A voicemail is analysed and announced once it is transcribed (voicemail.process).
  const waitingForRecording = call.status === "voicemail" && (call.transcriptionStatus === null || call.transcriptionStatus === "pending");
  if (waitingForRecording) return;
  if (!call.analyzedAt) await analyzeCall(db, call, deps);
  await notifyOnce(db, ref);
  // Tasks, caller memory, the text-back and the owner's notice (lib/receptionist/follow-up.ts).
  await followUpCall(db, ref);
}

export const finishCallJob = defineJob<CallRef>({
  name: "call.finish",
  retryLimit: 3,
  retryDelaySeconds: 30,
  async handler(data, { db }) {
    await finishCall(db, data);
  },
});

// ─── Voicemail ────────────────────────────────────────────────────────────────────────────────

export type VoicemailJob = CallRef & { recordingSid: string; durationSeconds: number };

export type VoicemailDeps = AnalysisDeps & {
  /** The carrier to fetch the recording from (default: the one that holds the call's number). */
  provider?: TelephonyProvider;
  /** The transcriber; null means none is installed (default: selectStt). */
  stt?: SttProvider | null;
  store?: BlobStore;
};

const CLIP_PATH = /^\/api\/audio\/([^/?]+)/;

async function storedRecording(db: Db, call: CallRow, store: BlobStore): Promise<Recording | null> {
  const id = call.recordingUrl ? CLIP_PATH.exec(call.recordingUrl)?.[1] : null;
  if (!id) return null;
  const [clip] = await db
    .select()
    .from(audioClips)
    .where(and(eq(audioClips.id, decodeURIComponent(id)), eq(audioClips.organizationId, call.organizationId)));
  const audio = clip ? await store.get(clip.storageKey) : null;
  return clip && audio ? { audio, contentType: clip.contentType } : null;
}

async function setTranscription(db: Db, call: CallRow, patch: Partial<typeof calls.$inferInsert>) {
  await db
    .update(calls)
    .set(patch)
    .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId)));
}

/**
 * Fetches the recording from the carrier (Twilio with the account's credentials, or the simulated
 * carrier's store), keeps it as the call's recording, transcribes it (credits per started minute,
 * charged once it is transcribed), then analyses and announces the voicemail. A fetch or
 * transcription error is recorded and thrown, so the job retries.
 */
export async function processVoicemail(db: Db, job: VoicemailJob, deps: VoicemailDeps = {}): Promise<void> {
  let call = await loadCall(db, job);
  if (!call) return;
  const store = deps.store ?? getBlobStore();

  let recording = await storedRecording(db, call, store);
  if (!recording) {
    const provider = deps.provider ?? (await getTelephonyProviderFor(db, call.organizationId, call.provider ?? "simulated"));
    if (!provider) {
      await setTranscription(db, call, {
        transcriptionStatus: "failed",
        transcriptionNote: "The voicemail is on Twilio, and no Twilio credentials are set any more: add them in Settings → API Keys.",
      });
      return;
    }
    try {
      recording = await provider.fetchRecording(job.recordingSid);
    } catch (error) {
      // A recording the carrier does not have will not appear by retrying: say so and stop.
      if (error instanceof TelephonyError && error.kind === "not_found") {
        await setTranscription(db, call, { transcriptionStatus: "failed", transcriptionNote: `The recording could not be fetched: ${error.message}`.slice(0, 500) });
        await finishCall(db, job, deps);
        return;
      }
      throw error;
    }
    const clip = await saveAudioClip(db, store, {
      organizationId: call.organizationId,
      audio: recording.audio,
      contentType: recording.contentType,
      durationMs: job.durationSeconds ? job.durationSeconds * 1000 : null,
      source: "voicemail",
    });
    await setTranscription(db, call, { recordingUrl: `/api/audio/${clip.id}`, recordingSid: job.recordingSid });
  }

  if (call.transcriptionStatus !== "done") {
    const stt = deps.stt !== undefined ? deps.stt : await selectStt(db, call.organizationId);
    if (!stt) {
      await setTranscription(db, call, { transcriptionStatus: "unavailable", transcriptionNote: TRANSCRIPTION_NOT_INSTALLED });
    } else {
      const price = creditPrices.transcriptionMinute * Math.max(1, Math.ceil((job.durationSeconds || 1) / 60));
      if ((await getCreditBalance(db, call.organizationId)) < price) {
        await setTranscription(db, call, {
          transcriptionStatus: "failed",
          transcriptionNote: `Not transcribed: it needs ${price} credit${price === 1 ? "" : "s"}. Buy a credit pack in Billing & Credits (/billing); the recording is kept.`,
        });
      } else {
        try {
          const result = await stt.transcribe({ audio: recording.audio, contentType: recording.contentType }, { signal: AbortSignal.timeout(120_000) });
          await setTranscription(db, call, {
            voicemailTranscript: result.transcript,
            transcriptionStatus: "done",
            transcriptionNote: result.transcript ? null : "No words could be made out in the recording.",
          });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          await setTranscription(db, call, { transcriptionStatus: "failed", transcriptionNote: `Transcription failed: ${reason}`.slice(0, 500) });
          throw error;
        }
        try {
          await spendCredits(db, call.organizationId, price, {
            reason: "Voicemail transcription",
            category: categoryOf.transcriptionMinute,
            reference: `transcription:${call.id}`,
            metadata: { callId: call.id, recordingSid: job.recordingSid, provider: stt.name },
          });
        } catch (error) {
          // Already charged (a job run twice: the reference is unique), or the balance ran out meanwhile.
          if (!(error instanceof HttpError && error.status === 402) && !isUniqueViolation(error)) throw error;
        }
      }
    }
  }

  call = await loadCall(db, job);
  if (!call) return;
  await analyzeCall(db, call, deps);
  await finishCall(db, job, deps);
}

export const processVoicemailJob = defineJob<VoicemailJob>({
  name: "voicemail.process",
  retryLimit: 4,
  retryDelaySeconds: 30,
  async handler(data, { db }) {
    await processVoicemail(db, data);
  },
});
