import type { ReplyEvent, ReplyTools } from "@/lib/platform/providers/llm/interface";
import { countingEffects, guardPromises, type ReplyEffects } from "./promise-guard";

/**
 * The promise rule on the model path, without a model: a streamed reply whose promise no tool of the
 * same reply backs never reaches the caller (it becomes an offer to take a message); a promise said
 * before the tool that backs it waits for that tool instead of being dropped.
 */
type Step = { text: string } | { tool: string };

/** A fake model stream: text pieces and tool calls in order (a tool runs when the stream reaches it). */
async function* modelStream(steps: Step[], tools: ReplyTools): AsyncGenerator<ReplyEvent> {
  let text = "";
  for (const step of steps) {
    if ("tool" in step) {
      await tools.call(step.tool, {});
      continue;
    }
    text += step.text;
    yield { type: "delta", text: step.text };
  }
  yield { type: "done", reply: { text: text.trim(), intent: "other" } };
}

const tools = (outcomes: Record<string, { isError: boolean; effect?: NonNullable<Awaited<ReturnType<ReplyTools["call"]>>["effect"]> }>): ReplyTools => ({
  definitions: [],
  call: async (name) => ({ text: name, ...outcomes[name] }),
});

async function run(steps: Step[], outcomes: Parameters<typeof tools>[0] = {}, lang: "en" | "es" = "en") {
  const effects: ReplyEffects = {};
  const counted = countingEffects(tools(outcomes), effects);
  const deltas: string[] = [];
  let final: Extract<ReplyEvent, { type: "done" }>["reply"] | null = null;
  for await (const event of guardPromises(modelStream(steps, counted), effects, lang)) {
    if (event.type === "delta") deltas.push(event.text);
    else final = event.reply;
  }
  return { spoken: deltas.join(""), reply: final!, deltas };
}

describe("the promise guard on the model path", () => {
  it("passes a reply that promises nothing unchanged, sentence by sentence", async () => {
    const { spoken, reply, deltas } = await run([{ text: "We open at nine. " }, { text: "Anything else?" }]);
    expect(spoken).toBe("We open at nine. Anything else?");
    expect(reply.text).toBe(spoken);
    expect(deltas).toEqual(["We open at nine.", " Anything else?"]);
  });

  it("replaces a claim no tool backs with an offer to take a message, once, in the caller's language", async () => {
    const { reply } = await run([{ text: "Sure. I've booked you for Tuesday. Someone will call you back to confirm. Bye!" }]);
    expect(reply.text).toBe("Sure. I can't do that from here myself, but I can take your name, your number and a message for the team. Would you like that? Bye!");
    const es = await run([{ text: "Le devolverán la llamada mañana." }], {}, "es");
    expect(es.reply.text).toMatch(/^No puedo hacerlo yo desde aquí/);
  });

  it("a refused tool backs nothing; a successful one backs its own promise only", async () => {
    const refused = await run([{ tool: "confirm_booking" }, { text: "You're booked!" }], { confirm_booking: { isError: true } });
    expect(refused.reply.text).not.toMatch(/booked/);
    const booked = await run([{ tool: "confirm_booking" }, { text: "You're booked! The team will call you back too." }], { confirm_booking: { isError: false, effect: { kind: "appointment" } } });
    expect(booked.reply.text).toMatch(/^You're booked! I can't do that from here myself/);
    expect(booked.reply.messageTaken).toBeUndefined();
    const taken = await run([{ tool: "take_message" }, { text: "Thanks, the team will call you back." }], { take_message: { isError: false, effect: { kind: "task" } } });
    expect([taken.reply.text, taken.reply.messageTaken]).toEqual(["Thanks, the team will call you back.", true]);
  });

  it("holds a promise said before its tool until the tool succeeds, and carries the transfer to the channel", async () => {
    const { reply, deltas } = await run([{ text: "Connecting you now. " }, { tool: "transfer" }, { text: "One moment." }], { transfer: { isError: false, effect: { kind: "transfer", to: "+14155550100" } } });
    expect(reply.text).toBe("Connecting you now. One moment.");
    expect(deltas).toEqual(["Connecting you now.", " One moment."]);
    expect(reply.transfer).toEqual({ to: "+14155550100" });
  });
});
