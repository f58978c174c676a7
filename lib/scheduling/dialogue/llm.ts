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
    return { text: turn.reply, intent: "appointment" };
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
