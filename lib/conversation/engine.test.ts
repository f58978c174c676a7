import { DEFAULT_CALL_RULES } from "@/db/schema";
import { decide, type Situation } from "./engine";
import type { Understanding } from "./understanding/types";

const base: Omit<Situation, "text" | "understanding"> = {
  channel: "call",
  takingMessage: false,
  bookingActive: false,
  forwardTo: null,
  rules: DEFAULT_CALL_RULES,
  silentPrompts: 0,
  canTransfer: true,
};
const heard = (u: Partial<Understanding>): Understanding => ({ language: "en", intent: "other", confidence: 1, intents: [], ...u }) as Understanding;

describe("decide: a call back asked for", () => {
  it("with who and what about in the same words is written down at once, not asked for again", () => {
    const text = "can the doctor call me about my dog's lab results, my number is 480 555 0122, it's greg hunt";
    const d = decide({ ...base, text, understanding: heard({ intent: "callback", confidence: 0.9, name: "Greg Hunt", phone: "+14805550122" }) });
    expect(d).toMatchObject({ kind: "take_message" });
  });

  it("without a name or a subject asks what to pass on", () => {
    const d = decide({ ...base, text: "can someone call me back", understanding: heard({ intent: "callback", confidence: 0.9 }) });
    expect(d).toMatchObject({ kind: "ask_message", reason: "callback" });
  });
});
