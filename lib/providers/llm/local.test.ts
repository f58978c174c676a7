/**
 * The local responder: intent classification by keyword scoring, replies built from the business
 * profile and the assistant's personality, and honesty — it never states a price it does not have.
 */
import { splitSentences } from "@/lib/text/sentences";
import type { ReplyInput } from "./interface";
import { classifyIntent, mentionedWhen } from "./intents";
import { createLocalResponder } from "./local";

const llm = createLocalResponder();

const base: ReplyInput = {
  assistant: {
    name: "Front Desk",
    personality: "friendly",
    instructions: "Greet callers warmly, offer the next free appointment, never quote prices you do not have.",
    greeting: "Thanks for calling Harbor Dental Studio, this is the front desk. How can I help?",
  },
  profile: {
    name: "Harbor Dental Studio",
    hours: "Mon–Fri 8 AM–6 PM, Sat 9 AM–1 PM",
    address: "214 Harbor Street, Portland, OR 97201",
    services: ["cleanings", "whitening", "fillings", "night guards", "emergency visits"],
  },
  history: [],
  text: "",
};

const ask = (text: string, extra: Partial<ReplyInput> = {}) => llm.generateReply({ ...base, ...extra, text });

describe("intent classification", () => {
  it.each([
    ["Hello, I'd like to book an appointment", "appointment"],
    ["What are your opening hours?", "hours"],
    ["Are you open on Saturday?", "hours"],
    ["How much does a cleaning cost?", "pricing"],
    ["Can I speak to a person?", "human_handoff"],
    ["Please transfer me to a real person", "human_handoff"],
    ["I have a problem with my bill", "complaint"],
    ["The service was terrible and the staff were rude", "complaint"],
    ["Where is my order? It hasn't been delivered", "order"],
    ["I'd like to track my package", "order"],
    ["Congratulations, you've won a free cruise! Press 1 to claim your prize", "spam"],
    ["We're calling about your car's extended warranty", "spam"],
    ["Hi there!", "greeting"],
    ["Good morning", "greeting"],
    ["Do you have parking?", "other"],
    ["Can I reschedule my appointment to Friday?", "appointment"],
  ])("%s → %s", (text, intent) => {
    expect(classifyIntent(text).intent).toBe(intent);
  });

  it("reads a time given after the assistant asked for one as part of the booking", () => {
    const history = [
      { role: "user" as const, content: "I'd like an appointment", intent: "appointment" },
      { role: "assistant" as const, content: "What day and time work best for you?", intent: "appointment" },
    ];
    expect(classifyIntent("Tuesday at 3pm").intent).toBe("other");
    expect(classifyIntent("Tuesday at 3pm", history).intent).toBe("appointment");
    expect(mentionedWhen("maybe tomorrow morning?")).toBe("tomorrow morning");
  });
});

describe("replies", () => {
  it("never invents prices: no amounts, and a promise that someone follows up", async () => {
    for (const text of ["How much does a cleaning cost?", "What are your prices?", "Is whitening expensive? What's the fee in $?"]) {
      const reply = await ask(text);
      expect(reply.intent).toBe("pricing");
      expect(reply.text).not.toMatch(/[$€£]|\d/);
      expect(reply.text).toMatch(/follow up/i);
      expect(reply.text).toMatch(/automated assistant/i);
    }
    const reply = await ask("How much does a cleaning cost?");
    expect(reply.text).toContain("a quote for cleanings");
  });

  it("answers hours and address from the business profile", async () => {
    const reply = await ask("What are your opening hours?");
    expect(reply.text).toContain("Mon–Fri 8 AM–6 PM, Sat 9 AM–1 PM");
    expect(reply.text).toContain("214 Harbor Street");
  });

  it("says it does not know the hours when the profile has none, instead of guessing", async () => {
    const reply = await ask("When are you open?", { profile: { name: "Acme Plumbing" } });
    expect(reply.intent).toBe("hours");
    expect(reply.text).toMatch(/don't have Acme Plumbing's opening hours/);
    expect(reply.text).not.toMatch(/\d/);
  });

  it("uses the assistant's greeting on the first turn", async () => {
    expect((await ask("Hello")).text).toBe(base.assistant.greeting);
  });

  it("takes the tone of the personality", async () => {
    const friendly = await ask("I have a problem with my bill");
    const professional = await ask("I have a problem with my bill", { assistant: { ...base.assistant, personality: "professional" } });
    expect(friendly.text).toMatch(/^Oh no, I'm sorry to hear that\./);
    expect(professional.text).toMatch(/^I apologize for the trouble\./);
    expect(friendly.text).toContain("problem with your bill");
  });

  it("follows the instructions' cue to offer the next free appointment", async () => {
    const reply = await ask("Hello, I'd like to book an appointment");
    expect(reply.intent).toBe("appointment");
    expect(reply.text).toContain("next free appointment");
    expect(reply.text).toMatch(/What day and time work best for you\?$/);
  });

  it("continues a booking from the conversation history without claiming it is confirmed", async () => {
    const first = await ask("I'd like to book a cleaning");
    const second = await ask("Tuesday at 3pm", {
      history: [
        { role: "user", content: "I'd like to book a cleaning", intent: first.intent },
        { role: "assistant", content: first.text, intent: first.intent },
      ],
    });
    expect(second.intent).toBe("appointment");
    expect(second.text).toMatch(/^Tuesday at 3pm — noted\./);
    expect(second.text).toMatch(/can't see the live calendar/);
  });

  it("hands over to a person honestly", async () => {
    const reply = await ask("Can I speak to a person?");
    expect(reply.text).toMatch(/automated assistant/);
    expect(reply.text).toMatch(/name and the best number/);
  });

  it("declines spam", async () => {
    expect((await ask("You've won a free cruise, press 1 now")).text).toMatch(/not interested/);
  });

  it("streams the reply sentence by sentence, then the whole reply with its intent", async () => {
    const events = [];
    for await (const event of llm.streamReply({ ...base, text: "What are your opening hours?" })) events.push(event);
    const done = events.at(-1);
    expect(done?.type).toBe("done");
    const deltas = events.filter((e) => e.type === "delta").map((e) => (e.type === "delta" ? e.text : ""));
    expect(deltas.length).toBe(splitSentences(done?.type === "done" ? done.reply.text : "").length);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("").trim()).toBe(done?.type === "done" ? done.reply.text : "");
  });
});

describe("sentence splitting", () => {
  it("splits on sentence ends but not on decimals or abbreviations", () => {
    expect(splitSentences("Dr. Smith is in. It costs 3.5 units! Right? Yes")).toEqual(["Dr. Smith is in.", "It costs 3.5 units!", "Right?", "Yes"]);
  });
});
