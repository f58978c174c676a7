import type { LlmProvider, Reply, ReplyEvent, ReplyInput, ReplyTools } from "@/lib/platform/providers/llm/interface";
import { finishStream } from "@/lib/platform/providers/llm/interface";
import { countingEffects, guardPromises, type ReplyEffects } from "@/lib/agents/conversation/promise-guard";
import { detectLanguage } from "@/lib/agents/conversation/understanding/language";
import type { DialogueTurn } from "./dialogue";

export type BookingDialogueOptions = {
  /**
   * The tools for a reply the model writes — the booking tools (./model-tools.ts), take_message and
   * transfer (lib/agents/conversation/model-tools.ts), merged with the channel's own — only for a model that
   * can use tools (not the local responder).
   */
  tools?: (input: ReplyInput) => Promise<ReplyTools | null>;
};

/**
 * A channel's language model and the booking dialogue, two ways (issue 27):
 *
 * - **A real model (Anthropic) leads.** Every turn the engine leaves to an answer goes to the model
 *   with its tools; the deterministic dialogue never answers before it. The dialogue's rules are the
 *   guard the tools go through instead: a spoken day is read by the same chrono code (resolve_date),
 *   only a free slot can be held, and a booking, move or cancellation is written only after the
 *   read-back was given in an earlier turn and the caller's own words in this turn are a yes. The
 *   reply's promises are checked against what its tools did (lib/agents/conversation/promise-guard.ts).
 * - **The local responder (offline)**: a turn about booking (or any turn while a booking is under
 *   way) is answered by the deterministic dialogue, everything else by the responder, as before.
 *
 * The channels (phone loop, relay, texts, chat, voice test, A2A) wrap their provider with this, so
 * their pipelines, credits, speech and records stay as they are. `onTurn` sees each booking turn of
 * the dialogue (the channel records it); the model's writes reach it through the tools.
 */
export function withBookingDialogue(
  llm: LlmProvider,
  answer: (text: string) => Promise<DialogueTurn | null>,
  onTurn?: (turn: DialogueTurn) => void | Promise<void>,
  options: BookingDialogueOptions = {},
): LlmProvider {
  if (llm.name !== "local") return modelLeads(llm, options);
  const booking = async (input: ReplyInput): Promise<Reply | null> => {
    const turn = await answer(input.text);
    if (!turn) return null;
    await onTurn?.(turn);
    // "Do you take Aetna, and can I book a cleaning Monday at 9?": the side question answered first.
    const aside = await sideAnswer(llm, input);
    return { text: aside ? `${aside} ${turn.reply}` : turn.reply, intent: "appointment" };
  };
  return {
    name: llm.name,
    async generateReply(input, opts) {
      return (await booking(input)) ?? llm.generateReply(input, opts);
    },
    async *streamReply(input, opts): AsyncIterable<ReplyEvent> {
      const reply = await booking(input);
      if (!reply) {
        yield* llm.streamReply(input, opts);
        return;
      }
      yield { type: "delta", text: reply.text };
      yield { type: "done", reply };
    },
    analyzeConversation: (input, opts) => llm.analyzeConversation(input, opts),
  };
}

/** Where one request ends and the next begins in one breath. */
const CLAUSES = /\?\s+|[,;]\s*(?:and|also|plus|oh and)\s+(?:if so,?\s+|if you do,?\s+)?|;\s*/i;
/** A question about the business, as it begins ("do you take…", "what time do you open…"). */
const ASKS = /^(?:(?:hi|hey|hello|so|ok|okay|um|uh|yeah)[,!.\s]+)*(?:do|does|are|is|what|what's|when|where|how)\b/i;
/** A time of day said in a clause ("do you have Saturday at 9am?"): the booking's, not a side question. */
const NAMES_A_TIME = /\b(?:at\s+)?\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\bat\s+\d{1,2}(?::\d{2})?\b|\b(?:noon|noonish)\b/i;
/** Words of the booking itself: such a clause is the dialogue's, not a side question. */
const BOOKING_WORDS = /\b(book|booking|appointment|schedule|available|availability|openings?|slots?|reserv\w*|table|come in|get in|free|anything)\b/i;

/**
 * A question about the business asked in the same breath as a booking: the local responder's answer
 * to it from what the business wrote, without its closing question; null when there is none, or the
 * answer is not known (never a guess in front of a booking).
 */
async function sideAnswer(llm: LlmProvider, input: ReplyInput): Promise<string | null> {
  const clauses = input.text.split(CLAUSES).map((c) => c.trim()).filter(Boolean);
  if (clauses.length < 2) return null;
  const side = clauses.find((c) => ASKS.test(c) && !BOOKING_WORDS.test(c) && !NAMES_A_TIME.test(c) && c.split(/\s+/).length >= 3);
  if (!side) return null;
  const asked = side.replace(/^(?:(?:hi|hey|hello|so|ok|okay|um|uh|yeah)[,!.\s]+)+/i, "");
  const reply = await llm.generateReply({ ...input, text: /\?$/.test(asked) ? asked : `${asked}?` });
  if (reply.knowledgeGap || !["hours", "pricing", "other"].includes(reply.intent)) return null;
  const sentences = reply.text.split(/(?<=[.!?])\s+/);
  while (sentences.length && /\?$/.test(sentences[sentences.length - 1])) sentences.pop();
  const text = sentences.join(" ").trim();
  return text || null;
}

/** The model with its tools for every answered turn, its promises held to what the tools did. */
function modelLeads(llm: LlmProvider, options: BookingDialogueOptions): LlmProvider {
  async function* streamReply(input: ReplyInput, opts?: { signal?: AbortSignal }): AsyncGenerator<ReplyEvent> {
    const effects: ReplyEffects = {};
    const tools = options.tools ? await options.tools(input) : (input.tools ?? null);
    const withTools: ReplyInput = tools ? { ...input, tools: countingEffects(tools, effects) } : input;
    yield* guardPromises(llm.streamReply(withTools, opts), effects, detectLanguage(input.text));
  }
  return {
    name: llm.name,
    generateReply: (input, opts) => finishStream(streamReply(input, opts)),
    streamReply,
    analyzeConversation: (input, opts) => llm.analyzeConversation(input, opts),
  };
}
