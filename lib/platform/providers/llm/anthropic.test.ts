/**
 * The Anthropic adapter with the real @anthropic-ai/sdk against the local fake Messages API in
 * tests/fakes/anthropic-server.ts (SSE with event: lines). Nothing here reaches the internet.
 */
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicRequest, type FakeReply } from "@/tests/fakes/anthropic-server";
import { createAnthropicLlm, systemPrompt, toMessages } from "./anthropic";
import { LlmError, type ReplyEvent, type ReplyInput, type ReplyTools } from "./interface";

const KEY = "sk-ant-test-key";
let fake: FakeAnthropic;
let replyText = "[intent:hours]\nWe're open Monday to Friday. See you soon!";
let replyFor: ((request: FakeAnthropicRequest) => FakeReply) | null = null;

beforeEach(async () => {
  replyText = "[intent:hours]\nWe're open Monday to Friday. See you soon!";
  replyFor = null;
  fake = await startFakeAnthropic({ apiKey: KEY, reply: (request) => (replyFor ? replyFor(request) : replyText) });
});
afterEach(() => fake.close());

const input: ReplyInput = {
  assistant: { name: "Front Desk", personality: "professional", personalityDescription: "Polished and precise: courteous.", instructions: "Never quote prices.", greeting: "" },
  profile: { name: "Harbor Dental Studio", hours: "Mon–Fri 8 AM–6 PM", address: "214 Harbor Street", services: ["cleanings", "whitening"] },
  history: [
    { role: "assistant", content: "Hello, Harbor Dental." },
    { role: "user", content: "Hi" },
    { role: "assistant", content: "How can I help?" },
  ],
  text: "When are you open?",
};

const llm = (apiKey = KEY) => createAnthropicLlm({ apiKey, baseURL: fake.url, maxRetries: 0, model: "claude-test" });

describe("Anthropic language model (real SDK, fake server)", () => {
  it("streams the reply without its intent tag, and returns the tagged intent", async () => {
    const events: ReplyEvent[] = [];
    for await (const event of llm().streamReply(input)) events.push(event);
    const deltas = events.filter((e) => e.type === "delta").map((e) => (e as { text: string }).text);
    expect(deltas.join("")).toBe("We're open Monday to Friday. See you soon!");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).not.toContain("[intent");
    expect(events.at(-1)).toEqual({ type: "done", reply: { text: "We're open Monday to Friday. See you soon!", intent: "hours" } });
  });

  it("sends the Messages API request the SDK makes: bearer key, version, model, system prompt, alternating turns", async () => {
    await llm().generateReply(input);
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/messages");
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers["anthropic-version"]).toBeTruthy();
    expect(req.body.stream).toBe(true);
    expect(req.body.model).toBe("claude-test");
    expect(req.body.system).toContain("Harbor Dental Studio");
    expect(req.body.system).toContain("Opening hours: Mon–Fri 8 AM–6 PM");
    expect(req.body.system).toContain("Never quote prices.");
    expect(req.body.system).toContain("[intent:");
    // History starts with the user and alternates; the new message is last.
    expect(req.body.messages).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "How can I help?" },
      { role: "user", content: "When are you open?" },
    ]);
  });

  it("classifies locally when the model leaves out the tag, or names an unknown intent", async () => {
    replyText = "We open at eight. Bye.";
    expect(await llm().generateReply(input)).toEqual({ text: "We open at eight. Bye.", intent: "hours" });
    replyText = "[intent:weather]\nIt is sunny.";
    expect(await llm().generateReply({ ...input, text: "How much is a cleaning?" })).toEqual({ text: "It is sunny.", intent: "pricing" });
  });

  it("turns a refused key into an LlmError with the status (one request, no retries)", async () => {
    const error = await llm("wrong-key").generateReply(input).catch((e) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/Anthropic failed \(401\): the API key was refused/);
    expect(fake.requests).toHaveLength(1);
  });

  it("surfaces an overloaded error sent in the middle of the stream", async () => {
    fake.failMidStream("overloaded_error", "Overloaded");
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of llm().streamReply(input)) if (event.type === "delta") seen.push(event.text);
    })().catch((e) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect(error.message).toMatch(/Overloaded/);
    expect(seen.join("")).toBe("We're open Monday to Friday. ");
  });

  it("answers 529/500 errors without retrying when maxRetries is 0", async () => {
    fake.failNext(529, "overloaded_error", "Overloaded");
    const error = await llm().generateReply(input).catch((e) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect(error.status).toBe(529);
    expect(fake.requests).toHaveLength(1);
  });

  it("builds the system prompt from personality, instructions and profile", () => {
    const prompt = systemPrompt(input);
    expect(prompt).toContain("Polished and precise");
    expect(prompt).toContain("Services (no prices or durations given): cleanings, whitening");
    expect(toMessages({ ...input, history: [] })).toEqual([{ role: "user", content: "When are you open?" }]);
  });

  it("puts the structured knowledge in the prompt: hours per day, open now, holidays, services with prices, policies, FAQs", () => {
    const prompt = systemPrompt({ ...input, profile: knowledgeProfile });
    expect(prompt).toContain("Right now it is Tuesday 2026-11-24, 3:05 PM local time. We're open right now, until 6 PM.");
    expect(prompt).toContain("  Monday: 8 AM–6 PM");
    expect(prompt).toContain("  Sunday: closed");
    expect(prompt).toContain("Thursday 2026-11-26: closed (Thanksgiving)");
    expect(prompt).toContain("  - Cleaning: 1 hour, $120. Polish and check-up");
    expect(prompt).toContain("  - Cancellation: Please give 24 hours' notice.");
    expect(prompt).toContain("  Q: Do you take insurance?\n  A: Yes, most PPO plans.");
    expect(prompt).toMatch(/Answer only from the facts above/);
    expect(prompt).toContain("[unanswered:");
  });

  it("reads an [unanswered: …] tag as a knowledge gap, never speaks it, however the stream splits it", async () => {
    for (const answer of [
      "[intent:pricing] [unanswered: Do you accept Delta Dental?]\nI don't have that information, so I won't guess. The team will follow up.",
      "[intent:other][unanswered]\nI don't know that, sorry. Someone will call you back.",
    ]) {
      replyText = answer;
      const events: ReplyEvent[] = [];
      for await (const event of llm().streamReply({ ...input, text: "Do you take Delta Dental insurance?" })) events.push(event);
      const spoken = events.filter((e) => e.type === "delta").map((e) => (e as { text: string }).text).join("");
      expect(spoken).not.toMatch(/\[|unanswered|intent/);
      const done = events.at(-1) as Extract<ReplyEvent, { type: "done" }>;
      expect(done.reply.knowledgeGap?.question).toBe(answer.includes("Delta Dental?]") ? "Do you accept Delta Dental?" : "Do you take Delta Dental insurance?");
      expect(done.reply.intent).toBe(answer.includes("pricing") ? "pricing" : "other");
    }
    replyText = "[intent:hours]\nWe're open Monday to Friday.";
    const reply = await llm().generateReply(input);
    expect(reply.knowledgeGap).toBeUndefined();

    // Three characters per delta: the tag line arrives in pieces and is still never spoken.
    const chopped = await startFakeAnthropic({
      apiKey: KEY,
      reply: () => "[intent:pricing] [unanswered: Do you offer payment plans?]\nI don't have that information. The team will follow up.",
      split: (text) => text.match(/[\s\S]{1,3}/g) ?? [],
    });
    try {
      const events: ReplyEvent[] = [];
      for await (const event of createAnthropicLlm({ apiKey: KEY, baseURL: chopped.url, maxRetries: 0 }).streamReply(input)) events.push(event);
      const spoken = events.filter((e) => e.type === "delta").map((e) => (e as { text: string }).text).join("");
      expect(spoken).toBe("I don't have that information. The team will follow up.");
      expect((events.at(-1) as Extract<ReplyEvent, { type: "done" }>).reply).toEqual({
        text: "I don't have that information. The team will follow up.",
        intent: "pricing",
        knowledgeGap: { question: "Do you offer payment plans?" },
      });
    } finally {
      await chopped.close();
    }
  });

  it("analyses a finished call with one non-streamed request for JSON", async () => {
    replyText = JSON.stringify({
      summary: "Pat asked about opening hours and booked a cleaning for Tuesday.",
      sentimentScore: 4,
      intent: "appointment",
      actionItems: ["Confirm Tuesday's cleaning with Pat"],
    });
    const analysis = await llm().analyzeConversation({
      profile: input.profile,
      caller: "Pat (+15555550123)",
      channel: "call",
      turns: [
        { speaker: "caller", text: "When are you open?" },
        { speaker: "assistant", text: "Mon–Fri 8 to 6." },
      ],
      outcome: null,
    });
    expect(analysis).toEqual({
      summary: "Pat asked about opening hours and booked a cleaning for Tuesday.",
      sentimentScore: 4,
      sentiment: "positive",
      intent: "appointment",
      actionItems: ["Confirm Tuesday's cleaning with Pat"],
    });
    const [req] = fake.requests;
    expect(req.body.stream).toBeFalsy();
    expect(req.body.system).toContain("call analyst for Harbor Dental Studio");
    expect(req.body.messages?.[0].content).toContain("Caller: When are you open?");
  });

  it("falls back to the local analysis when the answer is not the JSON asked for", async () => {
    replyText = "Sure! The caller asked about hours.";
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    const analysis = await llm().analyzeConversation({
      profile: input.profile,
      caller: "Pat",
      channel: "call",
      turns: [{ speaker: "caller", text: "When are you open?" }],
    });
    expect(analysis.intent).toBe("hours");
    expect(analysis.summary).toMatch(/^Pat called Harbor Dental Studio and asked about opening hours/);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});

describe("Anthropic tool use (real SDK, fake server returning tool_use)", () => {
  function toolsRecording(answer: (name: string, input: unknown) => { text: string; isError: boolean }) {
    const calls: { name: string; input: unknown }[] = [];
    const tools: ReplyTools = {
      definitions: [
        {
          name: "inventory__check_stock",
          description: "How many of an item are in stock.",
          inputSchema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] },
        },
      ],
      async call(name, toolInput) {
        calls.push({ name, input: toolInput });
        return answer(name, toolInput);
      },
    };
    return { tools, calls };
  }

  it("offers the tools, runs the model's tool_use, feeds the result back and speaks the final answer", async () => {
    const { tools, calls } = toolsRecording(() => ({ text: "4 whitening kit in stock.", isError: false }));
    replyFor = (request) => {
      const last = request.body.messages!.at(-1)!;
      if (typeof last.content === "string") {
        return { text: "[intent:order]\nLet me check.", toolUses: [{ id: "toolu_1", name: "inventory__check_stock", input: { item: "whitening kit" } }] };
      }
      return "We have four whitening kits in stock.";
    };
    const events: ReplyEvent[] = [];
    for await (const event of llm().streamReply({ ...input, text: "Do you have whitening kits?", tools })) events.push(event);

    expect(calls).toEqual([{ name: "inventory__check_stock", input: { item: "whitening kit" } }]);
    expect(events.at(-1)).toEqual({ type: "done", reply: { text: "Let me check. We have four whitening kits in stock.", intent: "order" } });
    expect(fake.requests).toHaveLength(2);
    const [first, second] = fake.requests;
    expect(first.body.tools).toEqual([
      { name: "inventory__check_stock", description: "How many of an item are in stock.", input_schema: tools.definitions[0].inputSchema },
    ]);
    expect(first.body.system).toContain("You may use the tools you are given");
    // The second request carries the assistant's tool_use and our tool_result for it.
    const assistantTurn = second.body.messages!.at(-2)!;
    expect(assistantTurn.role).toBe("assistant");
    expect(assistantTurn.content).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "tool_use", id: "toolu_1", name: "inventory__check_stock", input: { item: "whitening kit" } })]),
    );
    expect(second.body.messages!.at(-1)).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "4 whitening kit in stock." }],
    });
  });

  it("passes a failed tool back as is_error, and stops offering tool calls after the last round", async () => {
    const { tools, calls } = toolsRecording(() => ({ text: "Service unavailable", isError: true }));
    replyFor = (request) =>
      request.body.tool_choice?.type === "none"
        ? "[intent:order]\nSorry, I could not check that; the team will follow up."
        : { toolUses: [{ name: "inventory__check_stock", input: { item: "floss" } }] };
    const reply = await llm().generateReply({ ...input, text: "Any floss?", tools });
    expect(reply).toEqual({ text: "Sorry, I could not check that; the team will follow up.", intent: "order" });
    expect(calls).toHaveLength(3);
    expect(fake.requests).toHaveLength(4);
    expect(fake.requests[3].body.tool_choice).toEqual({ type: "none" });
    const results = fake.requests[1].body.messages!.at(-1)!.content as Record<string, unknown>[];
    expect(results[0]).toMatchObject({ type: "tool_result", is_error: true, content: "Service unavailable" });
  });

  it("sends no tools when none are offered", async () => {
    await llm().generateReply(input);
    expect(fake.requests[0].body.tools).toBeUndefined();
    expect(fake.requests[0].body.system).toContain("You cannot book");
  });
});
const knowledgeProfile: ReplyInput["profile"] = {
  name: "Harbor Dental Studio",
  hours: "Monday to Friday 8 AM–6 PM; Saturday 9 AM–1 PM; Sunday closed",
  timezone: "America/Los_Angeles",
  weeklyHours: [
    { day: "Monday", hours: "8 AM–6 PM" },
    { day: "Tuesday", hours: "8 AM–6 PM" },
    { day: "Wednesday", hours: "8 AM–6 PM" },
    { day: "Thursday", hours: "8 AM–6 PM" },
    { day: "Friday", hours: "8 AM–6 PM" },
    { day: "Saturday", hours: "9 AM–1 PM" },
    { day: "Sunday", hours: "closed" },
  ],
  now: { date: "2026-11-24", weekday: "Tuesday", time: "3:05 PM", openNow: true, status: "We're open right now, until 6 PM." },
  nextDays: [
    { date: "2026-11-24", weekday: "Tuesday", label: "today", hours: "8 AM–6 PM" },
    { date: "2026-11-25", weekday: "Wednesday", label: "tomorrow", hours: "8 AM–6 PM" },
    { date: "2026-11-26", weekday: "Thursday", label: "Thursday", hours: "closed", note: "Thanksgiving" },
  ],
  serviceDetails: [{ name: "Cleaning", description: "Polish and check-up", duration: "1 hour", price: "$120" }],
  services: ["Cleaning"],
  policies: [{ title: "Cancellation", text: "Please give 24 hours' notice." }],
  faqs: [{ question: "Do you take insurance?", answer: "Yes, most PPO plans." }],
};
