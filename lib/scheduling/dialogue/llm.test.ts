import { createLocalResponder } from "@/lib/platform/providers/llm/local";
import type { ReplyInput } from "@/lib/platform/providers/llm/interface";
import { withBookingDialogue } from "./llm";
import type { DialogueTurn } from "./dialogue";

/** The booking dialogue's turn, fixed: what matters here is what is said before it. */
const readBack: DialogueTurn = { reply: "Just to confirm, I have a Teeth Cleaning on Monday, December 7, 2026 at 9:00 AM for Rosa Diaz. Shall I book it?", state: null, events: ["held"] };

const input = (text: string): ReplyInput =>
  ({
    text,
    history: [],
    assistant: { name: "Riley", personality: "friendly" },
    profile: {
      name: "Lakeshore Family Dental",
      serviceDetails: [{ name: "Teeth Cleaning", price: "$120" }],
      faqs: [{ question: "Do you take insurance?", answer: "We accept Delta Dental, Cigna, Aetna and MetLife PPO plans." }],
    },
  }) as unknown as ReplyInput;

describe("a question asked in the same breath as a booking (gen2)", () => {
  const llm = withBookingDialogue(createLocalResponder(), async () => readBack);

  it("is answered before the read-back, without the responder's closing question", async () => {
    const reply = await llm.generateReply(input("hi, do you take aetna, and if so can i book a cleaning next monday at 9? this is rosa diaz"));
    expect(reply.text).toBe(`We accept Delta Dental, Cigna, Aetna and MetLife PPO plans. ${readBack.reply}`);
  });

  it("a booking alone is only the booking; a question the business has no answer to is not guessed", async () => {
    expect((await llm.generateReply(input("can i book a cleaning next monday at 9, this is rosa diaz"))).text).toBe(readBack.reply);
    expect((await llm.generateReply(input("do you do veneers, and can i book a cleaning next monday at 9?"))).text).toBe(readBack.reply);
  });
});
