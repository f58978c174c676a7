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

/** A day as the assistant tells it, already read in the business's time zone (holidays applied). */
export type KnowledgeDay = {
  /** "YYYY-MM-DD" */
  date: string;
  /** "Monday" */
  weekday: string;
  /** "today", "tomorrow", or the weekday ("Monday"), relative to the turn. */
  label: string;
  /** "8 AM–6 PM", "8 AM–12 PM and 1 PM–5 PM", or "closed". */
  hours: string;
  /** A holiday's name when one applies ("Thanksgiving"). */
  note?: string;
};

/** A service as the assistant may describe it: only what the business entered. */
export type KnowledgeService = {
  name: string;
  description?: string;
  /** "45 minutes", "1 hour 30 minutes" */
  duration?: string;
  /** "$120", or the business's own words ("from $80"). */
  price?: string;
  bookable?: boolean;
};

/**
 * What the business tells callers: organizations.name plus its business profile, rendered by the
 * feature (lib/phone/voice/context.ts `assistantContext` with lib/knowledge/business-profile/knowledge.ts; when the
 * profile has no hours, the phone numbers' business hours written out) — providers compute nothing
 * from the database or the clock. These are the only facts the assistant may state.
 */
export type BusinessInfo = {
  name: string;
  /** The opening hours in one line ("Monday to Friday 8 AM–6 PM; Saturday 9 AM–1 PM; Sunday closed"). */
  hours?: string;
  address?: string;
  /** Service names (matched against the caller's words). */
  services?: string[];
  phone?: string;
  /** Whether the business is open at the moment of the turn, when its hours say so (a schedule with a time zone). */
  openNow?: boolean;
  website?: string;
  /** IANA time zone the hours are in. */
  timezone?: string;
  /** Opening hours per weekday: [{day: "Monday", hours: "8 AM–6 PM"}, …]. */
  weeklyHours?: { day: string; hours: string }[];
  /** The moment of the turn in the business's time zone and whether it is open then. */
  now?: { date: string; weekday: string; time: string; openNow: boolean; status: string };
  /** Today and the next six days, holidays applied. */
  nextDays?: KnowledgeDay[];
  /** Upcoming holidays and special hours (beyond or within the next days). */
  specialDays?: KnowledgeDay[];
  serviceDetails?: KnowledgeService[];
  policies?: { title: string; text: string }[];
  /** Questions and answers, including the owner's answers to earlier knowledge gaps. */
  faqs?: { question: string; answer: string }[];
};

export type ChatMessage = { role: "user" | "assistant"; content: string; intent?: string | null };

/** A tool the model may call, as the model sees it (names: letters, digits, _ and -, at most 64). */
export type ToolDefinition = { name: string; description: string; inputSchema: Record<string, unknown> };

/**
 * What a tool wrote or did for the caller (a successful booking tool, a task, a transfer): the model
 * path checks the reply's promises against the effects of the same reply (lib/agents/conversation/promise-guard.ts).
 */
export type ToolEffect = { kind: "appointment" } | { kind: "task" } | { kind: "transfer"; to: string };

export type ToolCallResult = { text: string; isError: boolean; effect?: ToolEffect };

/**
 * Tools offered to the model during one reply (e.g. the tools of the organization's healthy MCP
 * services, lib/agents/mcp/assistant-tools.ts). The feature that offers them runs them: the provider only
 * hands over the model's calls and feeds the results back.
 */
export type ReplyTools = {
  definitions: ToolDefinition[];
  call(name: string, input: unknown, options?: { signal?: AbortSignal }): Promise<ToolCallResult>;
};

export type ReplyInput = {
  assistant: AssistantPersona;
  profile: BusinessInfo;
  /** Earlier turns of the conversation, oldest first (the pipeline sends the last ~10). */
  history: ChatMessage[];
  /** What the caller just said. */
  text: string;
  /** Tools the model may use; providers without tool use ignore them. */
  tools?: ReplyTools;
  /** What the business remembers about this caller, with their consent (name, stated preferences, earlier calls, open follow-ups). */
  caller?: string[];
};

/**
 * A reply, its intent, and — when the caller asked something the business's knowledge does not
 * answer — the question, so the feature logs a knowledge gap (the reply then says it does not know).
 */
export type Reply = {
  text: string;
  intent: Intent;
  knowledgeGap?: { question: string };
  /** The model's transfer tool succeeded in this reply: the channel connects the call (a <Dial>). */
  transfer?: { to: string };
  /** The model's take_message tool wrote the task in this reply: the channel does not ask for (or write) another. */
  messageTaken?: boolean;
};

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
