import type { LlmProvider, Reply, ReplyEvent, ReplyInput, ReplyTools } from "@/lib/providers/llm/interface";
import type { DialogueTurn } from "./dialogue";

export type BookingDialogueOptions = {
  /**
   * The booking tools for a reply the model writes (./model-tools.ts), merged with the channel's
   * own tools; only for a model that can use tools (not the local responder).
   */
  tools?: (input: ReplyInput) => Promise<ReplyTools | null>;
};

/**
 * The language model with the booking dialogue in front of it: a turn about booking (or any turn
 * while a booking is under way) is answered by the dialogue — deterministic, writing only through
 * the appointment book — and everything else by the model as before, which (Anthropic) is also
 * offered the booking tools, so a request the dialogue does not recognise can still be booked,
 * moved or cancelled, through the same service functions and only after a read-back and a yes.
 * The channels (phone loop, relay, texts, chat, voice test, A2A) wrap their provider with this, so
 * their pipelines, credits, speech and records stay as they are. `onTurn` sees each booking turn
 * (the channel records it).
 */
export function withBookingDialogue(
  llm: LlmProvider,
  answer: (text: string) => Promise<DialogueTurn | null>,
  onTurn?: (turn: DialogueTurn) => void | Promise<void>,
  options: BookingDialogueOptions = {},
): LlmProvider {
  const booking = async (input: ReplyInput): Promise<Reply | null> => {
    const turn = await answer(input.text);
    if (!turn) return null;
    await onTurn?.(turn);
    return { text: turn.reply, intent: "appointment" };
  };
  const forModel = async (input: ReplyInput): Promise<ReplyInput> => {
    if (llm.name === "local" || !options.tools) return input;
    const tools = await options.tools(input);
    return tools ? { ...input, tools } : input;
  };
  // The dialogue and the model's tools are looked up side by side (the tools only read): a turn that
  // is not about booking reaches the model without waiting for one after the other.
  const both = (input: ReplyInput) => {
    const modelInput = forModel(input);
    modelInput.catch(() => undefined);
    return { reply: booking(input), modelInput };
  };
  return {
    name: llm.name,
    async generateReply(input, opts) {
      const { reply, modelInput } = both(input);
      return (await reply) ?? llm.generateReply(await modelInput, opts);
    },
    async *streamReply(input, opts): AsyncIterable<ReplyEvent> {
      const looked = both(input);
      const reply = await looked.reply;
      if (!reply) {
        yield* llm.streamReply(await looked.modelInput, opts);
        return;
      }
      yield { type: "delta", text: reply.text };
      yield { type: "done", reply };
    },
    analyzeConversation: (input, opts) => llm.analyzeConversation(input, opts),
  };
}
