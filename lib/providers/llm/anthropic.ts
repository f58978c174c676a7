import "server-only";
import Anthropic, { APIError } from "@anthropic-ai/sdk";
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
import { analyzeLocally } from "./local-analysis";

export const ANTHROPIC_DEFAULT_MODEL = "claude-haiku-5-5";

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
 * classified locally from the caller's words (lib/providers/llm/intents.ts), so a reply always has
 * one. One request, no second classification call.
 */
const TAG = /^\s*\[intent:\s*([a-z_]+)\s*\]\s*/i;

export function systemPrompt(input: Pick<ReplyInput, "assistant" | "profile">): string {
  const { assistant, profile } = input;
  const facts = [
    `Business name: ${profile.name}`,
    profile.hours ? `Opening hours: ${profile.hours}` : null,
    profile.address ? `Address: ${profile.address}` : null,
    profile.services?.length ? `Services: ${profile.services.join(", ")}` : null,
    profile.phone ? `Phone: ${profile.phone}` : null,
  ].filter(Boolean);
  return [
    `You are ${assistant.name}, the AI voice assistant answering calls and messages for ${profile.name}.`,
    `Personality: ${assistant.personalityDescription ?? assistant.personality}`,
    assistant.description ? `Your role: ${assistant.description}` : null,
    assistant.instructions ? `Instructions from the business: ${assistant.instructions}` : null,
    `Facts about the business (the only facts you may state):\n${facts.map((f) => `- ${f}`).join("\n")}`,
    [
      "Rules:",
      "- Your reply is spoken aloud on the phone: one to three short sentences, plain words, no lists, markdown, emoji or links.",
      "- Never invent prices, availability or any fact not listed above; offer a follow-up from the team instead.",
      "- You cannot book, transfer calls or look up orders yourself: take the details and say the team will confirm or follow up.",
      "- Politely decline sales calls and spam.",
    ].join("\n"),
    [
      "Output format: the first line is exactly one intent tag, then the reply on the next line. For example:",
      "[intent:hours]",
      "We're open nine to five on weekdays.",
      `The intent is the caller's latest message, one of: ${intents.join(", ")}.`,
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
    let head = ""; // text before the tag is settled
    let tagSettled = false;
    let intent: Intent | null = null;
    let text = "";
    try {
      const stream = client.messages.stream(
        { model, max_tokens: options.maxTokens ?? 300, system: systemPrompt(input), messages: toMessages(input) },
        opts?.signal ? { signal: opts.signal } : undefined,
      );
      for await (const event of stream) {
        if (event.type !== "content_block_delta" || event.delta.type !== "text_delta") continue;
        let piece = event.delta.text;
        if (!tagSettled) {
          head += piece;
          const trimmed = head.trimStart();
          if (trimmed.startsWith("[") && !trimmed.includes("]") && trimmed.length < 40) continue; // tag still arriving
          const match = TAG.exec(head);
          if (match) {
            const named = match[1].toLowerCase();
            if (isIntent(named)) intent = named;
            piece = head.slice(match[0].length);
          } else {
            piece = head;
          }
          tagSettled = true;
          if (!piece) continue;
        }
        text += piece;
        yield { type: "delta", text: piece };
      }
    } catch (error) {
      throw describe(error);
    }
    if (!tagSettled && head) {
      // The whole answer was shorter than a tag: use what there is.
      const match = TAG.exec(head);
      if (match && isIntent(match[1].toLowerCase())) intent = match[1].toLowerCase() as Intent;
      const rest = match ? head.slice(match[0].length) : head;
      if (rest) {
        text += rest;
        yield { type: "delta", text: rest };
      }
    }
    const reply = text.trim();
    if (!reply) throw new LlmError("Anthropic returned an empty reply", "anthropic");
    yield { type: "done", reply: { text: reply, intent: intent ?? classifyIntent(input.text, input.history).intent } };
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
