/**
 * The language model (ARCHITECTURE: providers): Anthropic when the organization or the environment
 * has a key, otherwise the local responder. Both classify the caller's intent and write the
 * assistant's reply, whole (`generateReply`) or streamed as text deltas (`streamReply`).
 */

export const intents = [
  "greeting",
  "hours",
  "pricing",
  "appointment",
  "human_handoff",
  "complaint",
  "order",
  "spam",
  "other",
] as const;

export type Intent = (typeof intents)[number];

export function isIntent(value: unknown): value is Intent {
  return typeof value === "string" && (intents as readonly string[]).includes(value);
}

export type LlmProviderName = "anthropic" | "local";

/** The assistant as the model sees it (a voice_assistant row, or the public demo assistant). */
export type AssistantPersona = {
  name: string;
  /** A personality id (friendly, professional, caring, energetic, concise, playful). */
  personality: string;
  /** One line on the manner of speaking, given to the model (the feature resolves it from the id). */
  personalityDescription?: string;
  instructions: string;
  description?: string;
  greeting?: string;
};

/** What the business tells callers: organizations.name plus its business profile. */
export type BusinessInfo = {
  name: string;
  hours?: string;
  address?: string;
  services?: string[];
  phone?: string;
};

export type ChatMessage = { role: "user" | "assistant"; content: string; intent?: string | null };

export type ReplyInput = {
  assistant: AssistantPersona;
  profile: BusinessInfo;
  /** Earlier turns of the conversation, oldest first (the pipeline sends the last ~10). */
  history: ChatMessage[];
  /** What the caller just said. */
  text: string;
};

export type Reply = { text: string; intent: Intent };

export type ReplyEvent = { type: "delta"; text: string } | { type: "done"; reply: Reply };

/** A finished conversation (call or voicemail) for the post-call analysis. */
export type ConversationInput = {
  profile: BusinessInfo;
  /** Who called (caller name or number), for the summary. */
  caller: string;
  channel: "call" | "voicemail";
  turns: { speaker: "caller" | "assistant" | "agent"; text: string; kind?: "message" | "dtmf" }[];
  /** What happened, as the call record knows it: transferred, voicemail left, message taken… */
  outcome?: string | null;
};

export type Sentiment = "positive" | "neutral" | "negative";

export type ConversationAnalysis = {
  /** Two or three plain sentences. */
  summary: string;
  sentiment: Sentiment;
  /** 1 (very negative) … 5 (very positive). */
  sentimentScore: number;
  intent: Intent;
  /** What the team should do next, each one short imperative line; empty when nothing is needed. */
  actionItems: string[];
};

export interface LlmProvider {
  readonly name: LlmProviderName;
  generateReply(input: ReplyInput, options?: { signal?: AbortSignal }): Promise<Reply>;
  /** Text deltas as they are produced, then one final `done` with the whole reply and its intent. */
  streamReply(input: ReplyInput, options?: { signal?: AbortSignal }): AsyncIterable<ReplyEvent>;
  /** Summary, sentiment, intent and action items of a finished call or voicemail. */
  analyzeConversation(input: ConversationInput, options?: { signal?: AbortSignal }): Promise<ConversationAnalysis>;
}

/** The three-way label of a 1–5 sentiment score. */
export function sentimentLabel(score: number): Sentiment {
  return score >= 4 ? "positive" : score <= 2 ? "negative" : "neutral";
}

export class LlmError extends Error {
  constructor(
    message: string,
    readonly provider: LlmProviderName,
    readonly status?: number,
  ) {
    super(message);
    this.name = "LlmError";
  }
}

/** Runs `streamReply` to the end and returns its reply (for providers whose generate is a stream). */
export async function finishStream(events: AsyncIterable<ReplyEvent>): Promise<Reply> {
  let reply: Reply | null = null;
  for await (const event of events) if (event.type === "done") reply = event.reply;
  if (!reply) throw new Error("The reply stream ended without a reply");
  return reply;
}
