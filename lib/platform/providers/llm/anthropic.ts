import "server-only";
import Anthropic, { APIError } from "@anthropic-ai/sdk";
import type { MessageParam, Tool, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import {
  intents,
  isIntent,
  LlmError,
  finishStream,
  sentimentLabel,
  type ConversationAnalysis,
  type ConversationInput,
  type Intent,
  type LlmProvider,
  type ReplyEvent,
  type ReplyInput,
} from "./interface";
import { classifyIntent } from "./intents";
import { knowledgeFacts } from "./knowledge";
import { analyzeLocally } from "./local-analysis";

export const ANTHROPIC_DEFAULT_MODEL = "claude-haiku-5-5";

/** Rounds of tool use in one reply; the last round answers without tools. */
export const MAX_TOOL_ROUNDS = 4;

export type AnthropicOptions = {
  apiKey: string;
  model?: string;
  /** Tests and the benchmark point the real SDK at a local fake. */
  baseURL?: string;
  maxRetries?: number;
  maxTokens?: number;
};

/**
 * How the intent comes back: the system prompt asks the model to start its answer with one tag line,
 * `[intent:appointment]`, before the spoken reply. The adapter strips the tag from the streamed
 * text (it is never spoken). If the model leaves it out or names an unknown intent, the intent is
 * classified locally from the caller's words (lib/platform/providers/llm/intents.ts), so a reply always has
 * one. One request, no second classification call.
 *
 * A question the business's facts do not answer is marked on the same line,
 * `[intent:pricing] [unanswered: Do you accept Delta Dental?]`: the reply then carries
 * `knowledgeGap` and the feature logs the question for the owner (a knowledge gap).
 */
const TAG = /^\s*\[intent:\s*([a-z_]+)\s*\][ \t]*(?:\[(?:unanswered|gap)(?::\s*([^\]\n]*))?\])?[ \t]*\n?\s*/i;
/** How long the tag line may grow before the head is spoken as it is (a model that ignored the format). */
const MAX_TAG_LINE = 320;

export function systemPrompt(input: Pick<ReplyInput, "assistant" | "profile" | "tools" | "caller">): string {
  const { assistant, profile } = input;
  return [
    `You are ${assistant.name}, the AI voice assistant answering calls and messages for ${profile.name}.`,
    `Personality: ${assistant.personalityDescription ?? assistant.personality}`,
    assistant.description ? `Your role: ${assistant.description}` : null,
    assistant.instructions ? `Instructions from the business (facts in them may be stated too): ${assistant.instructions}` : null,
    assistant.greeting ? `Greeting for a new conversation: ${assistant.greeting}` : null,
    `Facts about the business (the only facts you may state):\n${knowledgeFacts(profile)}`,
    input.caller?.length
      ? `What the business remembers about this caller (they agreed to it; use it naturally, e.g. their name, and never state it as a fact about the business):\n${input.caller.join("\n")}`
      : null,
    [
      "Rules:",
      "- Your reply is spoken aloud on the phone: one to three short sentences, plain words, no lists, markdown, emoji or links.",
      "- Answer only from the facts above and the business's instructions. Never invent prices, hours, services, policies, availability or any other fact; if they do not answer the question, say plainly that you don't have that information and won't guess, and offer to take their name and number for the team (never promise a call back yourself: only the engine's message-taking writes the task that backs it). Never say you lack a fact that is given above.",
      "- Whether the business is open now, today or on a given day comes only from the facts above (they are already in the business's time zone).",
      input.tools?.definitions.length
        ? "- You may use the tools you are given to look things up or act for the caller; say what you found in plain words. If a tool fails, say so and offer to take their name and number for the team.\n- Say that something is booked, moved or cancelled, that the team will call back, or that you are connecting the caller only after the tool that does it (confirm_booking, cancel_appointment, take_message, transfer) succeeded in this reply: otherwise those words are taken out of your reply."
        : "- You cannot book, transfer calls or look up orders yourself: offer to take their name and number for the team instead of promising that anyone will confirm or call.",
      "- Politely decline sales calls and spam.",
    ].join("\n"),
    [
      "Output format: the first line is exactly one intent tag, then the reply on the next line. For example:",
      "[intent:hours]",
      "We're open nine to five on weekdays.",
      `The intent is the caller's latest message, one of: ${intents.join(", ")}.`,
      "When the caller asked something the facts above do not answer, add an unanswered tag with the question in a few words on the same first line, for example:",
      "[intent:pricing] [unanswered: Do you accept Delta Dental insurance?]",
      "I don't have that information, so I won't guess — I've noted your question, and I can take your name and number for the team.",
    ].join("\n"),
  ]
    .filter(Boolean)
    .join("\n\n");
}

type Message = { role: "user" | "assistant"; content: string };

/** History plus the new message, as the API wants it: starting with the user, roles alternating. */
export function toMessages(input: ReplyInput): Message[] {
  const out: Message[] = [];
  for (const m of [...input.history, { role: "user" as const, content: input.text }]) {
    if (!m.content.trim()) continue;
    if (out.length === 0 && m.role !== "user") continue;
    const last = out[out.length - 1];
    if (last && last.role === m.role) last.content += `\n${m.content}`;
    else out.push({ role: m.role, content: m.content });
  }
  return out;
}

function describe(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof APIError) {
    const detail =
      error.status === 401
        ? "the API key was refused"
        : error.status === 429
          ? "rate limited"
          : error.status === 529
            ? "overloaded"
            : error.message;
    return new LlmError(`Anthropic failed (${error.status ?? "no status"}): ${detail}`, "anthropic", error.status);
  }
  return new LlmError(`Anthropic failed: ${(error as Error).message}`, "anthropic");
}

export function analysisPrompt(input: ConversationInput): string {
  return [
    `You are a call analyst for ${input.profile.name}. Read the ${input.channel === "voicemail" ? "voicemail transcript" : "phone call transcript"} between a caller and the business's AI assistant and report on it for the business owner.`,
    `Answer with one JSON object and nothing else: {"summary": string (two or three plain sentences: who called, what they wanted, how it ended), "sentimentScore": integer 1-5 (1 very negative, 3 neutral, 5 very positive; the caller's mood), "intent": one of ${intents.join(", ")} (the caller's main reason), "actionItems": string[] (what the team must do next, short imperative lines; [] when nothing)}.`,
    "Never invent facts that are not in the transcript.",
  ].join("\n\n");
}

function transcriptText(input: ConversationInput): string {
  const lines = input.turns.map((t) => {
    const who = t.speaker === "caller" ? "Caller" : t.speaker === "agent" ? "Staff" : "Assistant";
    return `${who}${t.kind === "message" ? " (message for the team)" : ""}: ${t.text}`;
  });
  return [`Caller: ${input.caller}`, input.outcome ? `Outcome: ${input.outcome}` : null, "", ...lines].filter((l) => l !== null).join("\n");
}

/** The model's JSON answer, checked field by field; null when it is not usable. */
export function parseAnalysis(text: string): ConversationAnalysis | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>;
  } catch {
    return null;
  }
  const score = Number(raw.sentimentScore);
  if (typeof raw.summary !== "string" || !raw.summary.trim() || !Number.isInteger(score) || score < 1 || score > 5) return null;
  const intent = typeof raw.intent === "string" && isIntent(raw.intent) ? raw.intent : "other";
  const actionItems = Array.isArray(raw.actionItems)
    ? raw.actionItems.filter((a): a is string => typeof a === "string" && a.trim() !== "").map((a) => a.trim()).slice(0, 8)
    : [];
  return { summary: raw.summary.trim(), sentimentScore: score, sentiment: sentimentLabel(score), intent, actionItems };
}

/** Claude through the Messages API, streamed (`messages.stream`). */
export function createAnthropicLlm(options: AnthropicOptions): LlmProvider {
  const client = new Anthropic({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: options.maxRetries ?? 1,
  });
  const model = options.model ?? ANTHROPIC_DEFAULT_MODEL;

  async function* streamReply(input: ReplyInput, opts?: { signal?: AbortSignal }): AsyncGenerator<ReplyEvent> {
    let head = ""; // text before the tag line is settled
    let tagSettled = false;
    let intent: Intent | null = null;
    let knowledgeGap: { question: string } | null = null;
    let text = "";
    const readTag = (match: RegExpExecArray) => {
      const named = match[1].toLowerCase();
      if (isIntent(named)) intent = named;
      if (match[0].match(/\[(unanswered|gap)/i)) {
        const question = (match[2] ?? "").trim() || input.text.trim();
        knowledgeGap = { question: question.slice(0, 300) };
      }
    };
    const tools: Tool[] | undefined = input.tools?.definitions.length
      ? input.tools.definitions.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as Tool["input_schema"] }))
      : undefined;
    const messages: MessageParam[] = toMessages(input);
    try {
      for (let round = 1; ; round++) {
        // After the last allowed round the model must answer in words (the tools stay declared,
        // as the API requires once the conversation holds tool blocks).
        const toolChoice = tools && round >= MAX_TOOL_ROUNDS ? { tool_choice: { type: "none" as const } } : {};
        const stream = client.messages.stream(
          {
            model,
            max_tokens: options.maxTokens ?? 300,
            system: systemPrompt(input),
            messages,
            ...(tools ? { tools } : {}),
            ...toolChoice,
          },
          opts?.signal ? { signal: opts.signal } : undefined,
        );
        let spokeThisRound = false;
        for await (const event of stream) {
          if (event.type !== "content_block_delta" || event.delta.type !== "text_delta") continue;
          let piece = event.delta.text;
          if (!tagSettled) {
            head += piece;
            const trimmed = head.trimStart();
            // The tag line is still arriving: wait for its end (a newline), or for text after a closed tag.
            if (trimmed.startsWith("[") && !trimmed.includes("\n") && trimmed.length < MAX_TAG_LINE && !/\]\s*[^\s[]/.test(trimmed)) continue;
            const match = TAG.exec(head);
            if (match) {
              readTag(match);
              piece = head.slice(match[0].length);
            } else {
              piece = head;
            }
            tagSettled = true;
            if (!piece) continue;
          }
          // Words spoken before a tool call and after it are one reply: keep a space between them.
          if (!spokeThisRound && text && !/\s$/.test(text) && !/^\s/.test(piece)) piece = ` ${piece}`;
          spokeThisRound = true;
          text += piece;
          yield { type: "delta", text: piece };
        }
        const final = await stream.finalMessage();
        const uses = final.content.filter((block) => block.type === "tool_use");
        if (final.stop_reason !== "tool_use" || !input.tools || uses.length === 0) break;
        messages.push({ role: "assistant", content: final.content });
        const results: ToolResultBlockParam[] = [];
        for (const use of uses) {
          const result = await input.tools
            .call(use.name, use.input, opts?.signal ? { signal: opts.signal } : undefined)
            .catch((error: unknown): { text: string; isError: boolean } => ({ text: `The tool failed: ${(error as Error).message}`, isError: true }));
          results.push({ type: "tool_result", tool_use_id: use.id, content: result.text, ...(result.isError ? { is_error: true } : {}) });
        }
        messages.push({ role: "user", content: results });
      }
    } catch (error) {
      throw describe(error);
    }
    if (!tagSettled && head) {
      // The whole answer was shorter than a tag: use what there is.
      const match = TAG.exec(head);
      if (match) readTag(match);
      const rest = match ? head.slice(match[0].length) : head;
      if (rest) {
        text += rest;
        yield { type: "delta", text: rest };
      }
    }
    const reply = text.trim();
    if (!reply) throw new LlmError("Anthropic returned an empty reply", "anthropic");
    const gap = knowledgeGap as { question: string } | null;
    yield {
      type: "done",
      reply: { text: reply, intent: intent ?? classifyIntent(input.text, input.history).intent, ...(gap ? { knowledgeGap: gap } : {}) },
    };
  }

  /**
   * One non-streamed request asking for JSON. An answer that is not the JSON asked for falls back to
   * the local analysis (logged), so a call always gets a summary; a failed request throws (the job retries).
   */
  async function analyzeConversation(input: ConversationInput, opts?: { signal?: AbortSignal }): Promise<ConversationAnalysis> {
    let text = "";
    try {
      const message = await client.messages.create(
        {
          model,
          max_tokens: 600,
          system: analysisPrompt(input),
          messages: [{ role: "user", content: transcriptText(input) }],
        },
        opts?.signal ? { signal: opts.signal } : undefined,
      );
      for (const block of message.content) if (block.type === "text") text += block.text;
    } catch (error) {
      throw describe(error);
    }
    const parsed = parseAnalysis(text);
    if (parsed) return parsed;
    console.warn("[llm] Anthropic's call analysis was not the JSON asked for; using the local analysis");
    return analyzeLocally(input);
  }

  return {
    name: "anthropic",
    generateReply: (input, opts) => finishStream(streamReply(input, opts)),
    streamReply,
    analyzeConversation,
  };
}
