import { readFileSync } from "node:fs";
import path from "node:path";
import { DIALOGUE_LINES, DIALOGUE_LINES_ES } from "@/lib/scheduling/dialogue/dialogue";
import { createLocalResponder } from "@/lib/platform/providers/llm/local";
import { digitsAloud, promisesIn, REPLIES, say, UnbackedPromiseError, unbackedPromises, type ReplyKey } from "./replies";

/**
 * Say what you did, do what you said: every line of the engine that promises a call back, a
 * booking or a transfer is refused unless the turn has written what backs it, and every line that
 * makes such a promise in its words declares it.
 */
const vars = { business: "Harbor Dental", name: "Tom Baker", digits: "5 5 5, 0 1 2, 3 4 5 6" };
const keys = Object.keys(REPLIES) as ReplyKey[];

describe("every reply template's promise is backed", () => {
  it.each(keys.flatMap((key) => (["en", "es"] as const).map((lang) => [key, lang] as const)))("%s (%s)", (key, lang) => {
    const declared = REPLIES[key].promises;
    const text = say(key, lang, vars, { task: true, appointment: true, transfer: true });
    // What the words promise is exactly what the template declares.
    expect([...promisesIn(text)]).toEqual(declared ? [declared] : []);
    if (declared) {
      // Without the row (or the <Dial>) of the same turn, the line cannot be said.
      expect(() => say(key, lang, vars, {})).toThrow(UnbackedPromiseError);
      expect(() => say(key, lang, vars, { [declared]: true })).not.toThrow();
    } else {
      expect(() => say(key, lang, vars, {})).not.toThrow();
    }
  });

  it("the booking dialogue says \"booked\" only in the lines written after the appointment row", () => {
    const sample = { readBack: "Cleaning on Tuesday, December 8th at 3 PM for Tom Baker" };
    const slot = { start: "2026-12-08T20:00:00Z", localDate: "2026-12-08", localTime: "15:00", spoken: "Tuesday, December 8 at 3:00 PM" };
    const render = (line: unknown): string => {
      if (typeof line === "string") return line;
      const fn = line as (...a: unknown[]) => string;
      for (const args of [[sample.readBack, "Tuesday, December 8", [slot]], [sample.readBack, [slot]], [[slot]], [["Cleaning", "Whitening"]], [sample.readBack]]) {
        try {
          return fn(...args);
        } catch {
          // another shape of arguments
        }
      }
      throw new Error("a dialogue line with arguments this test does not know");
    };
    const lines = Object.entries(DIALOGUE_LINES).map(([key, line]) => [key, render(line)] as const);
    const booking = lines.filter(([, text]) => promisesIn(text).has("appointment")).map(([key]) => key);
    // booked / moved are returned by the dialogue only after port.confirm wrote the appointment (dialogue.test.ts).
    expect(booking.sort()).toEqual(["booked", "moved"]);
    expect(lines.filter(([, text]) => promisesIn(text).has("task"))).toEqual([]);
    // The same lines in Spanish promise the same, and nothing more.
    const es = Object.entries(DIALOGUE_LINES_ES).map(([key, line]) => [key, render(line)] as const);
    expect(es.filter(([, text]) => promisesIn(text).has("appointment")).map(([key]) => key)).toEqual(["booked"]);
    expect(es.filter(([, text]) => promisesIn(text).has("task") || promisesIn(text).has("transfer"))).toEqual([]);
  });

  /**
   * The local (offline) responder answers with no task written in its turn, so none of its lines may
   * promise a call back, a booking or a transfer: it may only offer to take a message.
   */
  it("no line the local responder can say promises anything (every string in its source)", () => {
    const files = ["lib/platform/providers/llm/local.ts", "lib/platform/providers/llm/knowledge.ts"];
    const lines = files.flatMap((file) => {
      const source = readFileSync(path.join(process.cwd(), file), "utf8");
      return [...source.matchAll(/`((?:[^`\\]|\\.)*)`|"((?:[^"\\]|\\.)*)"/g)].map((m) => [file, m[1] ?? m[2]] as const);
    });
    expect(lines.length).toBeGreaterThan(50);
    expect(lines.filter(([, text]) => promisesIn(text).size > 0)).toEqual([]);
  });

  it("the local responder's replies to questions it cannot answer promise nothing", async () => {
    const llm = createLocalResponder();
    const questions = [
      "Do you accept Delta Dental insurance?",
      "What are your hours?",
      "How much is a root canal?",
      "Can I speak to a person?",
      "I have a problem with my bill",
      "Your staff were rude to me",
      "I'd like to order two boxes of gloves",
      "Where is my order?",
      "Do you do catering for weddings?",
      "Is there parking?",
      "Can I come in Tuesday at 3 for a cleaning?",
    ];
    for (const text of questions) {
      const reply = await llm.generateReply({ assistant: { name: "Front Desk", personality: "friendly", instructions: "", greeting: "" }, profile: { name: "Harbor Dental" }, history: [], text });
      expect([text, unbackedPromises(reply.text, {})]).toEqual([text, []]);
    }
  });

  it("finds promises made in any words, and which are unbacked", () => {
    expect(unbackedPromises("Someone will call you back shortly.", {})).toEqual(["task"]);
    expect(unbackedPromises("You're booked for Tuesday.", { appointment: true })).toEqual([]);
    expect(unbackedPromises("Let me connect you with someone.", {})).toEqual(["transfer"]);
    expect(unbackedPromises("Le devolverán la llamada mañana.", {})).toEqual(["task"]);
    expect(unbackedPromises("We're open until 5 PM.", {})).toEqual([]);
    expect(unbackedPromises("I've noted your question, and someone will follow up.", {})).toEqual(["task"]);
    expect(unbackedPromises("I'll pass it to the team, and they'll confirm the details.", {})).toEqual(["task"]);
    expect(unbackedPromises("If you'd like a quote, I can take your name and number for the team.", {})).toEqual([]);
    // What a language model says in its own words (issue 27): the same three promises.
    expect(unbackedPromises("I've booked you for Tuesday at 3.", {})).toEqual(["appointment"]);
    expect(unbackedPromises("Your appointment has been moved to Thursday.", {})).toEqual(["appointment"]);
    expect(unbackedPromises("I've noted it and will pass it to the team.", {})).toEqual(["task"]);
    expect(unbackedPromises("I'm connecting you now.", {})).toEqual(["transfer"]);
    expect(unbackedPromises("Shall I book it? It isn't booked yet.", {})).toEqual([]);
    expect(unbackedPromises("I've noted that you'd like to place an order.", {})).toEqual([]);
  });

  it("reads a number back digit by digit", () => {
    expect(digitsAloud("+15555550123")).toBe("5 5 5, 5 5 5, 0 1 2 3");
  });
});
