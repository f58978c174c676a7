import "server-only";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { DEFAULT_CALL_RULES, phoneNumbers, type TranscriptTurn } from "@/db/schema";
import { legacyIntent } from "@/lib/agents/conversation/engine";
import { hearingContext, loadTurnContext } from "@/lib/agents/conversation/context";
import { actOn, decideTurn, hear, languageOf, messageReasonOf, SPAM_DECLINED, surelySpam, type Decided, type TurnInput } from "@/lib/agents/conversation/turn";
import type { BusinessInfo, ChatMessage, Intent, LlmProvider, Reply } from "@/lib/platform/providers/llm/interface";
import type { ResolvedAssistant } from "./context";

/**
 * The browser voice test (and the mobile chat) asks the conversation engine first, like every
 * channel (lib/agents/conversation/turn.ts): a goodbye ends the test call, a request for a person or an
 * emergency is a transfer — shown as "would transfer to …", since the browser cannot dial — a
 * message is written as a task, spam is declined before any credit. Only an `answer` reaches the
 * booking dialogue or the language model.
 */

/** What the engine decided, as the voice test shows it. */
export type VoiceTestDecision = {
  kind: Decided["decision"]["kind"] | "spam";
  /** The call would end here (a goodbye, spam). */
  ended: boolean;
  /** The number the phone line would connect the caller to. */
  wouldTransferTo: string | null;
  /** A task was written for the team (a message, a complaint). */
  taskWritten: boolean;
  /** One plain sentence for the screen: what the phone line would do beyond saying the reply. */
  note: string | null;
};

export type EngineStep =
  /** The engine answered with a line of its own (written what it needed first, except spam: nothing written). */
  | { kind: "line"; line: string; intent: Intent; tag: string; decision: VoiceTestDecision; free: boolean }
  | { kind: "answer"; intent: Intent; leaveBooking: boolean };

const VOICEMAIL_LINE = "I'll send you to voicemail now. Please leave your message after the tone.";

/** The voice test's chat history as the engine reads a transcript (the last line, why a message is being taken). */
function transcriptOf(history: ChatMessage[]): TranscriptTurn[] {
  return history.map((m) => ({ speaker: m.role === "user" ? "caller" : "assistant", text: m.content, at: "", ...(m.intent ? { intent: m.intent } : {}) }));
}

/** The number a transfer goes to from this assistant's phone line (its number's forward-to), if it has one. */
async function forwardToOf(db: Db, organizationId: string, assistantId: string | null): Promise<string | null> {
  if (!assistantId) return null;
  const [row] = await db
    .select({ forwardTo: phoneNumbers.forwardTo })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.organizationId, organizationId), eq(phoneNumbers.assistantId, assistantId), isNotNull(phoneNumbers.forwardTo)))
    .limit(1);
  return row?.forwardTo ?? null;
}

export async function voiceTestEngineStep(
  db: Db,
  input: {
    organizationId: string;
    assistant: ResolvedAssistant;
    profile: BusinessInfo;
    text: string;
    history: ChatMessage[];
    now: Date;
    turnId: string;
    bookingActive: () => Promise<boolean>;
  },
): Promise<EngineStep> {
  const transcript = transcriptOf(input.history);
  const lastAssistant = [...transcript].reverse().find((t) => t.speaker === "assistant");
  const takingMessage = Boolean(lastAssistant?.intent?.startsWith("message:"));
  const language = languageOf(transcript);
  // The staff by name, loaded as on every channel (lib/agents/conversation/context.ts): "is Dr. Chen in?".
  const [heard, forwardTo, bookingActive] = await Promise.all([
    loadTurnContext(db, input.organizationId).then((context) => hear(input.text, hearingContext(input.profile, context, { now: input.now, expecting: takingMessage ? "message" : null, language })).then((h) => ({ ...h, people: context.people }))),
    forwardToOf(db, input.organizationId, input.assistant.id),
    takingMessage ? Promise.resolve(false) : input.bookingActive(),
  ]);
  const u = heard.understanding;
  if (surelySpam(u)) {
    return {
      kind: "line",
      line: SPAM_DECLINED,
      intent: "spam",
      tag: "spam",
      free: true,
      decision: { kind: "spam", ended: true, wouldTransferTo: null, taskWritten: false, note: "Spam: the phone line would hang up, and nothing is charged." },
    };
  }
  const turn: TurnInput = {
    db,
    channel: "voice_test",
    organizationId: input.organizationId,
    caller: null,
    text: input.text,
    understanding: u,
    people: heard.people,
    situation: {
      takingMessage,
      messageReason: messageReasonOf(transcript),
      bookingActive,
      forwardTo,
      rules: input.assistant.callRules ?? DEFAULT_CALL_RULES,
      silentPrompts: 0,
      // The decision is made as the phone line would make it; the browser only shows the transfer.
      canTransfer: true,
    },
    business: input.profile.name,
    assistantName: input.assistant.persona.name,
    transcript,
    language,
    record: { callId: null, step: transcript.length, taskKey: `voice-test:${input.turnId}:message` },
    callerName: async () => u?.name ?? null,
  };
  const decided = await decideTurn(turn);
  const d = decided.decision;
  if (d.kind === "answer") return { kind: "answer", intent: d.intent, leaveBooking: d.leaveBooking };
  const intent = legacyIntent(u);
  if (d.kind === "voicemail" || d.kind === "silence") {
    return {
      kind: "line",
      line: VOICEMAIL_LINE,
      intent,
      tag: "voicemail",
      free: false,
      decision: { kind: d.kind, ended: true, wouldTransferTo: null, taskWritten: false, note: "The phone line would record a voicemail here." },
    };
  }
  const outcome = await actOn(turn, decided);
  if (outcome.kind !== "line") return { kind: "answer", intent, leaveBooking: false };
  const wouldTransferTo = outcome.transfer?.to ?? null;
  const decision: VoiceTestDecision = {
    kind: d.kind,
    ended: Boolean(outcome.end),
    wouldTransferTo,
    taskWritten: Boolean(outcome.message),
    note: wouldTransferTo
      ? `Would transfer to ${wouldTransferTo}${outcome.transfer?.emergency ? " (emergency)" : ""}: the browser cannot dial, a phone call would be connected.`
      : outcome.end
        ? "The call would end here."
        : outcome.message
          ? "A task was written for the team."
          : d.kind === "forget"
            ? "On a call this erases what the business remembers about the caller; the browser has no caller, so nothing was erased."
            : null,
  };
  return { kind: "line", line: outcome.line, intent, tag: outcome.tag, free: false, decision };
}

/** A "model" that says one fixed line: the engine's line goes through the same voice pipeline (audio, timings, records). */
export function fixedLine(line: string, intent: Intent, base: LlmProvider): LlmProvider {
  const reply: Reply = { text: line, intent };
  return {
    name: "local",
    generateReply: async () => reply,
    async *streamReply() {
      yield { type: "delta", text: line };
      yield { type: "done", reply };
    },
    analyzeConversation: (input, options) => base.analyzeConversation(input, options),
  };
}
