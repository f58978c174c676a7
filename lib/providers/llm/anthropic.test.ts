/**
 * The Anthropic adapter with the real @anthropic-ai/sdk against the local fake Messages API in
 * tests/fakes/anthropic-server.ts (SSE with event: lines). Nothing here reaches the internet.
 */
import { startFakeAnthropic, type FakeAnthropic } from "@/tests/fakes/anthropic-server";
import { createAnthropicLlm, systemPrompt, toMessages } from "./anthropic";
import { LlmError, type ReplyEvent, type ReplyInput } from "./interface";

const KEY = "sk-ant-test-key";
let fake: FakeAnthropic;
let replyText = "[intent:hours]\nWe're open Monday to Friday. See you soon!";

beforeEach(async () => {
  replyText = "[intent:hours]\nWe're open Monday to Friday. See you soon!";
  fake = await startFakeAnthropic({ apiKey: KEY, reply: () => replyText });
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
    expect(prompt).toContain("Services: cleanings, whitening");
    expect(toMessages({ ...input, history: [] })).toEqual([{ role: "user", content: "When are you open?" }]);
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
