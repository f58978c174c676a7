/**
 * The ElevenLabs adapter with the real @elevenlabs/elevenlabs-js SDK against the local fake in
 * tests/fakes/elevenlabs-server.ts (chunked audio/mpeg). Nothing here reaches the internet.
 */
import { resolveVoice } from "@/lib/agents/assistants/voices";
import { concatMp3 } from "@/lib/phone/voice/audio";
import { fakeSpeech, MP3_FRAME_BYTES, startFakeElevenLabs, type FakeElevenLabs } from "@/tests/fakes/elevenlabs-server";
import { createElevenLabsTts, ELEVENLABS_DEFAULT_MODEL } from "./elevenlabs";
import { TtsError } from "./interface";

const KEY = "xi-test-key";
let fake: FakeElevenLabs;

beforeEach(async () => {
  fake = await startFakeElevenLabs({ apiKey: KEY, chunkGapMs: 5, framesPerChunk: 4 });
});
afterEach(() => fake.close());

const tts = (apiKey = KEY) => createElevenLabsTts({ apiKey, baseUrl: fake.url, maxRetries: 0 });

describe("ElevenLabs speech synthesis (real SDK, fake server)", () => {
  it("streams MP3 chunks from /v1/text-to-speech/{voice}/stream for the assistant's mapped voice", async () => {
    const voice = resolveVoice("nova");
    const chunks: Buffer[] = [];
    for await (const chunk of tts().synthesizeStream("Thanks for calling, how can I help?", voice)) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    const audio = Buffer.concat(chunks);
    expect(audio.equals(fakeSpeech("Thanks for calling, how can I help?"))).toBe(true);
    expect(audio[0]).toBe(0xff);

    const [req] = fake.requests;
    expect(req.method).toBe("POST");
    expect(req.path).toBe(`/v1/text-to-speech/${voice.elevenlabs.voiceId}/stream`);
    expect(req.headers["xi-api-key"]).toBe(KEY);
    expect(req.query.output_format).toBe("mp3_44100_128");
    expect(req.body).toEqual({ text: "Thanks for calling, how can I help?", model_id: ELEVENLABS_DEFAULT_MODEL });
  });

  it("returns the whole clip from synthesize, and clips join frame-aligned", async () => {
    const a = await tts().synthesize("One.", resolveVoice("alloy"));
    const b = await tts().synthesize("Two sentences here.", resolveVoice("alloy"));
    expect(a.contentType).toBe("audio/mpeg");
    const joined = concatMp3([a.audio, b.audio]);
    expect(joined.length % MP3_FRAME_BYTES).toBe(0);
    expect(joined.length).toBe(a.audio.length + b.audio.length);
  });

  it("unknown voice ids fall back to the default voice's ElevenLabs voice", async () => {
    await tts().synthesize("Hello.", resolveVoice("no-such-voice"));
    expect(fake.requests[0].voiceId).toBe(resolveVoice("alloy").elevenlabs.voiceId);
  });

  it("turns a refused key into a TtsError with the status (one request)", async () => {
    const error = await tts("wrong").synthesize("Hello.", resolveVoice("alloy")).catch((e) => e);
    expect(error).toBeInstanceOf(TtsError);
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/ElevenLabs speech synthesis failed \(401\): the API key was refused/);
    expect(fake.requests).toHaveLength(1);
  });

  it("reports quota errors without retrying when maxRetries is 0", async () => {
    fake.failNext(429, "quota exceeded");
    const error = await tts().synthesize("Hello.", resolveVoice("alloy")).catch((e) => e);
    expect(error).toBeInstanceOf(TtsError);
    expect(error.status).toBe(429);
    expect(fake.requests).toHaveLength(1);
  });
});
