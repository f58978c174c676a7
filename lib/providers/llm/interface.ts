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

/**
 * What the business tells callers, gathered by the voice service (lib/voice/context.ts
 * `assistantContext`): the organization's name and business profile, and — when the profile has no
 * hours — its phone numbers' business hours, written out ("Tue–Sun 7 AM–3 PM").
 */
export type BusinessInfo = {
  name: string;
  hours?: string;
  address?: string;
  services?: string[];
  phone?: string;
  /** Whether the business is open at the moment of the turn, when its hours say so (a schedule with a time zone). */
  openNow?: boolean;
};

export type ChatMessage = { role: "user" | "assistant"; content: string; intent?: string | null };

/** A tool the model may call, as the model sees it (names: letters, digits, _ and -, at most 64). */
export type ToolDefinition = { name: string; description: string; inputSchema: Record<string, unknown> };

export type ToolCallResult = { text: string; isError: boolean };

/**
 * Tools offered to the model during one reply (e.g. the tools of the organization's healthy MCP
 * services, lib/mcp/assistant-tools.ts). The feature that offers them runs them: the provider only
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
};

export type Reply = { text: string; intent: Intent };

export type ReplyEvent = { type: "delta"; text: string } | { type: "done"; reply: Reply };

export interface LlmProvider {
  readonly name: LlmProviderName;
  generateReply(input: ReplyInput, options?: { signal?: AbortSignal }): Promise<Reply>;
  /** Text deltas as they are produced, then one final `done` with the whole reply and its intent. */
  streamReply(input: ReplyInput, options?: { signal?: AbortSignal }): AsyncIterable<ReplyEvent>;
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
