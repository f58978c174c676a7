/**
 * The promise rule on the language-model path (issue 27, "say what you did, do what you said"): a
 * reply may say "you're booked", "someone will call you back" or "I'm connecting you" only when a
 * tool of the same reply wrote the appointment, the task or set up the transfer. The model's tools are
 * wrapped so their effects are counted (`countingEffects`), and its streamed reply is read sentence by
 * sentence (`guardPromises`): a sentence that promises something not yet done is held back until a
 * later tool call of the same reply does it, and at the end of the reply a promise still not backed is
 * replaced by an offer to take a message. Sentences without a promise pass through at once, so a
 * spoken reply still starts as soon as its first sentence is written.
 */
import type { ReplyEvent, ReplyTools } from "@/lib/platform/providers/llm/interface";
import { takeSentences } from "@/lib/platform/text/sentences";
import { say, unbackedPromises, type TurnEffects } from "./replies";
import type { Language } from "./understanding/types";

export type ReplyEffects = TurnEffects & { transferTo?: string };

/** The tools with every successful effect noted in `effects` (a refused tool call counts for nothing). */
export function countingEffects(tools: ReplyTools, effects: ReplyEffects): ReplyTools {
  return {
    definitions: tools.definitions,
    async call(name, input, options) {
      const result = await tools.call(name, input, options);
      if (!result.isError && result.effect) {
        if (result.effect.kind === "appointment") effects.appointment = true;
        else if (result.effect.kind === "task") effects.task = true;
        else {
          effects.transfer = true;
          effects.transferTo = result.effect.to;
        }
      }
      return result;
    },
  };
}

/**
 * The model's reply events with unbacked promises taken out (see above). The final reply's text is
 * what was let through, and it carries the transfer when the transfer tool succeeded.
 */
export async function* guardPromises(events: AsyncIterable<ReplyEvent>, effects: ReplyEffects, lang: Language): AsyncGenerator<ReplyEvent> {
  let buffer = "";
  const held: string[] = [];
  const said: string[] = [];
  let offered = false;
  const emit = (sentence: string): ReplyEvent => {
    const text = said.length ? ` ${sentence}` : sentence;
    said.push(sentence);
    return { type: "delta", text };
  };
  // Sentences in order: one that promises what is not done yet waits (and so do the ones after it).
  function* release(final: boolean): Generator<ReplyEvent> {
    while (held.length) {
      const sentence = held[0];
      if (unbackedPromises(sentence, effects).length === 0) {
        held.shift();
        yield emit(sentence);
        continue;
      }
      if (!final) return;
      held.shift();
      if (!offered) {
        offered = true;
        yield emit(say("offerMessage", lang, { business: "" }, {}));
      }
    }
  }
  for await (const event of events) {
    if (event.type === "delta") {
      buffer += event.text;
      const { sentences, rest } = takeSentences(buffer);
      buffer = rest;
      held.push(...sentences);
      yield* release(false);
      continue;
    }
    held.push(...takeSentences(buffer, true).sentences);
    buffer = "";
    yield* release(true);
    const text = said.join(" ").trim() || say("offerMessage", lang, { business: "" }, {});
    if (said.length === 0) yield { type: "delta", text };
    yield {
      type: "done",
      reply: {
        ...event.reply,
        text,
        ...(effects.transfer && effects.transferTo ? { transfer: { to: effects.transferTo } } : {}),
        ...(effects.task ? { messageTaken: true } : {}),
      },
    };
  }
}
