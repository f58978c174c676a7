/**
 * The Deepgram adapter with the real @deepgram/sdk against the local fake in
 * tests/fakes/deepgram-server.ts. Nothing here reaches the internet.
 */
import { startFakeDeepgram, type FakeDeepgram } from "@/tests/fakes/deepgram-server";
import { createDeepgramStt } from "./deepgram";
import { SttError } from "./interface";

const KEY = "dg-test-key";
let fake: FakeDeepgram;

beforeEach(async () => {
  fake = await startFakeDeepgram({ apiKey: KEY, transcript: "I'd like to book a cleaning", confidence: 0.93, durationSeconds: 2.5 });
});
afterEach(() => fake.close());

const stt = (apiKey = KEY) => createDeepgramStt({ apiKey, baseUrl: fake.url, maxRetries: 0 });

describe("Deepgram transcription (real SDK, fake server)", () => {
  it("uploads a recording's bytes to /v1/listen with Token auth and reads the transcript", async () => {
    const audio = Buffer.alloc(1000, 7);
    const result = await stt().transcribe({ audio, contentType: "audio/wav" });
    expect(result).toEqual({ transcript: "I'd like to book a cleaning", confidence: 0.93, durationSeconds: 2.5 });
    const [req] = fake.requests;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/listen");
    expect(req.headers.authorization).toBe(`Token ${KEY}`);
    expect(req.bytes).toBe(1000);
    expect(req.query).toMatchObject({ model: "nova-3", smart_format: "true", punctuate: "true", language: "en" });
  });

  it("sends a URL as JSON for Deepgram to fetch", async () => {
    await stt().transcribe({ url: "https://example.com/recording.mp3" });
    const [req] = fake.requests;
    expect(req.contentType).toContain("application/json");
    expect(req.json).toEqual({ url: "https://example.com/recording.mp3" });
  });

  it("turns a refused key into an SttError with the status (one request)", async () => {
    const error = await stt("wrong").transcribe({ audio: Buffer.alloc(10, 1) }).catch((e) => e);
    expect(error).toBeInstanceOf(SttError);
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/the API key was refused/);
    expect(fake.requests).toHaveLength(1);
  });

  it("reports a provider error without retrying when maxRetries is 0", async () => {
    fake.failNext(500, "INTERNAL", "boom");
    const error = await stt().transcribe({ audio: Buffer.alloc(10, 1) }).catch((e) => e);
    expect(error).toBeInstanceOf(SttError);
    expect(error.status).toBe(500);
    expect(fake.requests).toHaveLength(1);
  });
});
