import type { LlmProvider, Reply, ReplyEvent, ReplyInput } from "@/lib/providers/llm/interface";
import type { DialogueTurn } from "./dialogue";

/**
 * The language model with the booking dialogue in front of it: a turn about booking (or any turn
 * while a booking is under way) is answered by the dialogue — deterministic, writing only through
 * the appointment book — and everything else by the model as before. The channels (phone loop,
 * relay, texts, chat, voice test, A2A) wrap their provider with this, so their pipelines, credits,
 * speech and records stay as they are. `onTurn` sees each booking turn (the channel records it).
 */
export function withBookingDialogue(
  llm: LlmProvider,
  answer: (text: string) => Promise<DialogueTurn | null>,
  onTurn?: (turn: DialogueTurn) => void | Promise<void>,
): LlmProvider {
  const booking = async (input: ReplyInput): Promise<Reply | null> => {
    const turn = await answer(input.text);
    if (!turn) return null;
    await onTurn?.(turn);
    return { text: turn.reply, intent: "appointment" };
  };
  return {
    name: llm.name,
    async generateReply(input, options) {
      return (await booking(input)) ?? llm.generateReply(input, options);
    },
    async *streamReply(input, options): AsyncIterable<ReplyEvent> {
      const reply = await booking(input);
      if (!reply) {
        yield* llm.streamReply(input, options);
        return;
      }
      yield { type: "delta", text: reply.text };
      yield { type: "done", reply };
    },
    analyzeConversation: (input, options) => llm.analyzeConversation(input, options),
  };
}
