/**
 * The streamed pipeline with the real Anthropic and ElevenLabs SDKs against the local fakes, which
 * inject delays: the first sentence's audio must start while the model is still writing.
 */
import { resolveVoice } from "@/lib/agents/assistants/voices";
import { createAnthropicLlm } from "@/lib/platform/providers/llm/anthropic";
import { createLocalResponder } from "@/lib/platform/providers/llm/local";
import { createElevenLabsTts } from "@/lib/platform/providers/tts/elevenlabs";
import { closeSpeechPools } from "@/lib/platform/providers/speech-pool";
import { createOfflineTts } from "@/lib/platform/providers/tts/offline";
import { startFakeAnthropic, type FakeAnthropic } from "@/tests/fakes/anthropic-server";
import { fakeSpeech, startFakeElevenLabs, type FakeElevenLabs } from "@/tests/fakes/elevenlabs-server";
import { parseWav } from "./audio";
import { runVoiceTurn } from "./pipeline";

const REPLY = "[intent:appointment]\nI can help you book that. We have openings on Tuesday morning. Which time suits you best?";
const SENTENCES = ["I can help you book that.", "We have openings on Tuesday morning.", "Which time suits you best?"];

let anthropic: FakeAnthropic;
let elevenlabs: FakeElevenLabs;
/** Set by a test: awaited by the fake model before each sentence after the first. */
let holdModel: ((sentence: number) => Promise<void>) | null = null;

beforeAll(async () => {
  anthropic = await startFakeAnthropic({
    apiKey: "k",
    reply: () => REPLY,
    firstTokenDelayMs: 150,
    perSentenceDelayMs: 120,
    beforeSentence: (sentence) => holdModel?.(sentence) ?? Promise.resolve(),
  });
  elevenlabs = await startFakeElevenLabs({ apiKey: "x", firstByteDelayMs: 60 });
});
afterAll(async () => {
  await anthropic.close();
  await elevenlabs.close();
  await closeSpeechPools();
});

const input = {
  assistant: { name: "Front Desk", personality: "friendly", instructions: "" },
  profile: { name: "Acme" },
  history: [],
  text: "I want to book",
};

function providers() {
  return {
    llm: createAnthropicLlm({ apiKey: "k", baseURL: anthropic.url, maxRetries: 0, model: "claude-test" }),
    tts: createElevenLabsTts({ apiKey: "x", baseUrl: elevenlabs.url, maxRetries: 0 }),
  };
}

describe("voice pipeline", () => {
  it("overlapped: synthesizes sentence by sentence while the model streams, and joins the MP3", async () => {
    elevenlabs.requests.length = 0;
    // The model's last sentence waits until the first synthesis request has arrived: only a pipeline
    // that speaks while the model is still writing lets it through before the hold gives up.
    let heldUntil: "synthesis" | "gave up" | null = null;
    holdModel = async (sentence) => {
      if (sentence !== SENTENCES.length - 1) return;
      const deadline = Date.now() + 5000;
      while (elevenlabs.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      heldUntil = elevenlabs.requests.length > 0 ? "synthesis" : "gave up";
    };
    const result = await runVoiceTurn({ ...providers(), voice: resolveVoice("alloy"), input, mode: "overlapped" }).finally(() => {
      holdModel = null;
    });
    expect(heldUntil).toBe("synthesis");
    expect(result.reply).toEqual({ text: SENTENCES.join(" "), intent: "appointment" });
    expect(elevenlabs.requests.map((r) => r.body.text)).toEqual(SENTENCES);
    expect(result.segments).toBe(3);
    expect(result.audio.equals(Buffer.concat(SENTENCES.map(fakeSpeech)))).toBe(true);
    const t = result.timings;
    expect(t.llmFirstTokenMs!).toBeGreaterThanOrEqual(140);
    expect(t.ttsFirstByteMs!).toBeGreaterThanOrEqual(55);
  });

  it("sequential: the whole reply first, then one synthesis", async () => {
    elevenlabs.requests.length = 0;
    const result = await runVoiceTurn({ ...providers(), voice: resolveVoice("alloy"), input, mode: "sequential" });
    expect(elevenlabs.requests.map((r) => r.body.text)).toEqual([SENTENCES.join(" ")]);
    expect(result.timings.firstAudioByteMs!).toBeGreaterThan(result.timings.llmTotalMs);
  });

  it("offline: local responder and flite give one 16 kHz WAV however many sentences", async () => {
    const result = await runVoiceTurn({
      llm: createLocalResponder(),
      tts: createOfflineTts(),
      voice: resolveVoice("echo"),
      input: { ...input, text: "Can I speak to a person?" },
      mode: "overlapped",
    });
    expect(result.segments).toBeGreaterThan(1);
    expect(result.contentType).toBe("audio/wav");
    const wav = parseWav(result.audio);
    expect(wav.sampleRate).toBe(16000);
    expect(wav.durationMs).toBe(result.durationMs);
    expect(wav.durationMs).toBeGreaterThan(1000);
  });
});
