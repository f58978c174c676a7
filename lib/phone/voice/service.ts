import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { chatTurns } from "@/db/schema";
import { recordAssistantReply, type NewAssistantReply } from "@/lib/agents/assistants/replies";
import { openTurn } from "@/lib/agents/conversation/turn";
import { getBlobStore, type BlobStore } from "@/lib/platform/blob-store";
import { renderKnowledge } from "@/lib/knowledge/business-profile/knowledge";
import { recordKnowledgeGap } from "@/lib/knowledge/gaps/service";
import { HttpError } from "@/lib/platform/http/errors";
import { loadAssistantTools, type AssistantToolSet } from "@/lib/agents/mcp/assistant-tools";
import type { ChatMessage, LlmProvider } from "@/lib/platform/providers/llm/interface";
import { resolveCredentials } from "@/lib/workspace/provider-selection/credentials";
import { llmFor } from "@/lib/workspace/provider-selection/llm";
import type { TtsProvider } from "@/lib/platform/providers/tts/interface";
import { ttsFor } from "@/lib/workspace/provider-selection/tts";
import { abandonBooking, bookingAwareLlm, bookingInProgress } from "@/lib/scheduling/dialogue/conversation";
import { fixedLine, voiceTestEngineStep, type EngineStep, type VoiceTestDecision } from "./engine-turn";
import { saveAudioClip, signedAudioUrl } from "./audio-clips";
import { assistantContext, personaForModel, voiceOf, type AssistantContext } from "./context";
import { DEMO_ASSISTANT, DEMO_BUSINESS_NAME, DEMO_PROFILE, DEMO_SERVICES, DEMO_SESSION_PREFIX } from "./demo";
import type { ProvidersUsed } from "./labels";
import { PipelineError, runVoiceTurn, type PipelineMode, type TurnTimings } from "./pipeline";

/** How many earlier turns (user and assistant messages) the model sees. */
export const HISTORY_TURNS = 10;

/**
 * The tools the model may use in an organization's turn: its MCP services' tools, with a model that
 * can call tools (Anthropic). The caller closes the set when the turn is over.
 */
export async function toolsForTurn(db: Db, organizationId: string | null, llm: LlmProvider): Promise<AssistantToolSet | null> {
  if (!organizationId || llm.name !== "anthropic") return null;
  return loadAssistantTools(db, organizationId);
}

export type VoiceTurnRequest = {
  /** null: the signed-out public demo. */
  organizationId: string | null;
  userId: string | null;
  text: string;
  assistantId?: string;
  /** A chat session keeps context across turns; null for a one-off voice test. */
  chatSessionId: string | null;
  source: "voice_test" | "chat";
  /** performance.now() when the request arrived: the server total is measured from here. */
  startedAt: number;
  /** Overrides for tests and the benchmark; otherwise selected per organization. */
  providers?: { llm?: LlmProvider; tts?: TtsProvider; mode?: PipelineMode };
  store?: BlobStore;
  /** The clock the business's hours are read at (tests fix it). */
  now?: Date;
};

export type VoiceTurnResult = {
  replyId: string | null;
  input: string;
  aiResponse: string;
  intent: string;
  /** The question the assistant could not answer from the business's knowledge (logged as a knowledge gap), or null. */
  knowledgeGap: { id: string | null; question: string } | null;
  audioId: string;
  audioUrl: string;
  contentType: string;
  durationMs: number | null;
  timestamp: string;
  assistant: { id: string | null; name: string };
  providers: ProvidersUsed;
  mode: PipelineMode;
  timings: TurnTimings & { totalMs: number };
  /** Tools of the organization's MCP services the model called in this turn. */
  toolCalls: { service: string; tool: string; isError: boolean; durationMs: number }[];
  /**
   * What the conversation engine decided beyond the words (lib/phone/voice/engine-turn.ts): a goodbye, a
   * transfer the browser cannot dial ("would transfer to …"), a task written, spam declined. null
   * when the turn was answered (the booking dialogue or the model) or for the public demo.
   */
  decision: VoiceTestDecision | null;
};

/** A turn that failed after its credits were spent (they are refunded): the route answers 502. */
export class VoiceTurnError extends HttpError {
  constructor(message: string) {
    super(502, message);
    this.name = "VoiceTurnError";
  }
}

function sessionScope(organizationId: string | null, chatSessionId: string) {
  return organizationId
    ? and(eq(chatTurns.organizationId, organizationId), eq(chatTurns.chatSessionId, chatSessionId))
    : and(isNull(chatTurns.organizationId), eq(chatTurns.chatSessionId, chatSessionId));
}

/** The session's last HISTORY_TURNS messages, oldest first. */
export async function loadHistory(db: Db, organizationId: string | null, chatSessionId: string): Promise<ChatMessage[]> {
  const rows = await db
    .select({ role: chatTurns.role, content: chatTurns.content, intent: chatTurns.intent })
    .from(chatTurns)
    .where(sessionScope(organizationId, chatSessionId))
    .orderBy(desc(chatTurns.createdAt), desc(chatTurns.role)) // same instant: the user's turn first
    .limit(HISTORY_TURNS);
  return rows.reverse();
}

/** The chat_turn key of a request's session: demo sessions carry a prefix of their own. */
export function chatSessionKey(organizationId: string | null, sessionId: string | null): string | null {
  if (!sessionId) return null;
  return organizationId ? sessionId : `${DEMO_SESSION_PREFIX}${sessionId}`;
}

function failureMessage(error: unknown): string {
  if (error instanceof PipelineError) {
    const what = error.stage === "llm" ? "The language model" : "Speech synthesis";
    return `${what} failed. ${error.message}`;
  }
  return "The voice pipeline failed. Please try again.";
}

const round1 = (ms: number | null) => (ms === null ? null : Math.round(ms * 10) / 10);

/**
 * One voice-test or chat turn: assistant → providers → credits (spent before running, refunded if
 * the turn fails) → reply and audio → stored clip, chat turns and the assistant_reply row with its
 * timings. The public demo (organizationId null) spends nothing and records no assistant_reply
 * (that table belongs to organizations); its clip and chat turns have no owner.
 */
export async function runVoiceTest(db: Db, request: VoiceTurnRequest): Promise<VoiceTurnResult> {
  const { organizationId, userId, text, chatSessionId, source } = request;
  const store = request.store ?? getBlobStore();

  const now = request.now ?? new Date();
  const context: AssistantContext = organizationId
    ? await assistantContext(db, organizationId, request.assistantId, { now })
    : {
        assistant: { id: null, persona: DEMO_ASSISTANT, voice: DEMO_ASSISTANT.voice },
        business: renderKnowledge(DEMO_BUSINESS_NAME, DEMO_PROFILE, DEMO_SERVICES, now),
      };
  const { assistant, business: profile } = context;
  const [credentials, history] = await Promise.all([
    request.providers?.llm && request.providers?.tts ? null : resolveCredentials(db, organizationId, ["anthropic", "elevenlabs"]),
    chatSessionId ? loadHistory(db, organizationId, chatSessionId) : Promise.resolve([]),
  ]);
  const selectedLlm = request.providers?.llm ?? llmFor(credentials!.anthropic);
  const tts = request.providers?.tts ?? ttsFor(credentials!.elevenlabs);

  // Booking by chat and in the voice test: the dialogue answers turns about appointments (a chat
  // session keeps its booking; the one-off voice test keeps one per user), the model everything else.
  const bookingRef = chatSessionId ?? (userId ? `user:${userId}` : null);
  const bookingChannel = source === "chat" ? "chat" : "voice_test";
  const bookingDeps = request.now ? { now: () => request.now! } : {};
  const turnId = crypto.randomUUID();

  // The conversation engine decides first, as on the phone: spam is declined before any credit;
  // a goodbye, a transfer, a message taken are the engine's lines; only an answer reaches the model.
  const step: EngineStep | null = organizationId
    ? await voiceTestEngineStep(db, {
        organizationId,
        assistant,
        profile,
        text,
        history,
        now,
        turnId,
        bookingActive: () => (bookingRef ? bookingInProgress(db, organizationId, bookingChannel, bookingRef, bookingDeps) : Promise.resolve(false)),
      })
    : null;
  if (organizationId && bookingRef && step?.kind === "answer" && step.leaveBooking) await abandonBooking(db, organizationId, bookingChannel, bookingRef, bookingDeps);
  const engineLine = step?.kind === "line" ? step : null;
  const llm = engineLine
    ? fixedLine(engineLine.line, engineLine.intent, selectedLlm)
    : organizationId && bookingRef
      ? bookingAwareLlm(db, organizationId, selectedLlm, { channel: bookingChannel, ref: bookingRef, callerPhone: null }, bookingDeps)
      : selectedLlm;

  // Charged before running and given back once if the turn fails (lib/agents/conversation/turn.ts, every channel's credit).
  // Spam costs nothing.
  const credit = organizationId && !engineLine?.free
    ? openTurn(db, {
        channel: "voice_test",
        organizationId,
        reference: `voice-turn:${turnId}`,
        reason: source === "chat" ? "Mobile chat turn" : "Voice test turn",
        actorUserId: userId,
        metadata: { source, assistantId: assistant.id, turnId },
      })
    : null;
  await credit?.spent;

  let tools: AssistantToolSet | null = null;
  try {
    tools = engineLine ? null : await toolsForTurn(db, organizationId, llm);
    const mode: PipelineMode = request.providers?.mode ?? (llm.name === "local" ? "sequential" : "overlapped");
    const userAt = new Date();
    const result = await runVoiceTurn({
      llm,
      tts,
      voice: voiceOf(assistant),
      input: {
        assistant: personaForModel(assistant),
        profile,
        history,
        text,
        ...(tools ? { tools } : {}),
      },
      mode,
    });
    const toolCalls = tools?.calls ?? [];
    const clip = await saveAudioClip(db, store, {
      organizationId,
      audio: result.audio,
      contentType: result.contentType,
      durationMs: result.durationMs,
      source,
      speech: { text: result.reply.text, voiceId: voiceOf(assistant).id },
    });
    const providers = { llm: llm.name, tts: tts.name } as ProvidersUsed;
    const t = result.timings;
    const totalMs = performance.now() - request.startedAt;
    const replyId = organizationId ? crypto.randomUUID() : null;
    const replyAt = new Date(Math.max(Date.now(), userAt.getTime() + 1));
    const logged: { gap: { gapId: string } | null } = { gap: null };

    const reply: NewAssistantReply | null =
      organizationId && replyId
        ? {
            id: replyId,
            organizationId,
            assistantId: assistant.id,
            source,
            intent: result.reply.intent,
            inputText: text,
            replyText: result.reply.text,
            llmProvider: providers.llm,
            ttsProvider: providers.tts,
            llmFirstTokenMs: t.llmFirstTokenMs === null ? null : Math.round(t.llmFirstTokenMs),
            llmTotalMs: Math.round(t.llmTotalMs),
            ttsFirstByteMs: t.ttsFirstByteMs === null ? null : Math.round(t.ttsFirstByteMs),
            ttsTotalMs: Math.round(t.ttsTotalMs),
            totalMs: Math.round(totalMs),
            toolCalls,
            createdAt: replyAt,
          }
        : null;
    if (reply && !chatSessionId && !result.reply.knowledgeGap) {
      await recordAssistantReply(db, reply); // one row: no transaction needed (the voice test's usual turn)
    } else {
      await db.transaction(async (tx) => {
        if (chatSessionId) {
          await tx.insert(chatTurns).values([
            { id: crypto.randomUUID(), organizationId, chatSessionId, role: "user", content: text, intent: result.reply.intent, createdAt: userAt },
            {
              id: crypto.randomUUID(),
              organizationId,
              chatSessionId,
              role: "assistant",
              content: result.reply.text,
              // The engine's tag ("message:callback"…): the next turn knows a message is being taken.
              intent: engineLine?.tag ?? result.reply.intent,
              createdAt: replyAt,
            },
          ]);
        }
        if (reply) await recordAssistantReply(tx, reply);
        if (organizationId && result.reply.knowledgeGap) {
          logged.gap = await recordKnowledgeGap(tx, {
            organizationId,
            question: result.reply.knowledgeGap.question,
            source,
            chatSessionId,
            assistantId: assistant.id,
            assistantReplyId: replyId,
            replyText: result.reply.text,
            at: userAt,
          });
        }
      });
    }

    return {
      replyId,
      input: text,
      aiResponse: result.reply.text,
      intent: result.reply.intent,
      knowledgeGap: result.reply.knowledgeGap ? { id: logged.gap?.gapId ?? null, question: result.reply.knowledgeGap.question } : null,
      audioId: clip.id,
      audioUrl: signedAudioUrl(clip.id),
      contentType: result.contentType,
      durationMs: result.durationMs,
      timestamp: replyAt.toISOString(),
      assistant: { id: assistant.id, name: assistant.persona.name },
      providers,
      mode,
      timings: {
        llmFirstTokenMs: round1(t.llmFirstTokenMs),
        llmTotalMs: round1(t.llmTotalMs)!,
        ttsFirstByteMs: round1(t.ttsFirstByteMs),
        ttsTotalMs: round1(t.ttsTotalMs)!,
        firstAudioByteMs: round1(t.firstAudioByteMs),
        pipelineMs: round1(t.pipelineMs)!,
        totalMs: round1(totalMs)!,
      },
      toolCalls: toolCalls.map(({ service, tool, isError, durationMs }) => ({ service, tool, isError, durationMs })),
      decision: engineLine?.decision ?? null,
    };
  } catch (error) {
    await credit?.refund();
    if (error instanceof PipelineError) throw new VoiceTurnError(failureMessage(error));
    throw error;
  } finally {
    await tools?.close();
  }
}
