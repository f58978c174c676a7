import { expect, test, type APIRequestContext } from "@playwright/test";
import { demoAccount } from "../../lib/consoles/demo-accounts";

/**
 * The speech worker pool in the production build (`next start`), over HTTP only: the worker file
 * must be found and started outside the bundle, and synthesis must leave the server's event loop
 * free. A behavioural bound, not a benchmark: `npm run bench:voice` measures the real figures
 * (docs/benchmarks.md).
 */

async function signInDemo(request: APIRequestContext): Promise<string> {
  const response = await request.post("/api/auth/login", { data: { email: demoAccount.email, password: demoAccount.password } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { sessionId: string }).sessionId;
}

async function voiceTest(request: APIRequestContext, sessionId: string, testText: string) {
  const response = await request.post("/api/voice/test", { headers: { authorization: `Bearer ${sessionId}` }, data: { testText } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { audioUrl: string; providers: { llm: string; tts: string }; durationMs: number };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

test("a voice test on the production build answers with a 16 kHz WAV made in the worker pool", async ({ request }) => {
  const sessionId = await signInDemo(request);
  const result = await voiceTest(request, sessionId, "What are your opening hours?");
  expect(result.providers).toEqual({ llm: "local", tts: "offline" });

  const audio = await request.get(result.audioUrl);
  expect(audio.status()).toBe(200);
  expect(audio.headers()["content-type"]).toBe("audio/wav");
  const wav = await audio.body();
  expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
  expect(wav.toString("ascii", 8, 12)).toBe("WAVE");
  expect({ format: wav.readUInt16LE(20), channels: wav.readUInt16LE(22), sampleRate: wav.readUInt32LE(24), bits: wav.readUInt16LE(34) }).toEqual({
    format: 1,
    channels: 1,
    sampleRate: 16000,
    bits: 16,
  });
  const seconds = (wav.length - 44) / 32000;
  expect(seconds).toBeGreaterThan(1);
  expect(Math.abs(seconds * 1000 - result.durationMs)).toBeLessThan(50);
});

test("a request that touches no database stays fast while 10 voice tests run at once", async ({ request }) => {
  test.setTimeout(120_000);
  const sessionId = await signInDemo(request);
  await voiceTest(request, sessionId, "Hello"); // the pool and the route are warm

  const TURNS_EACH = 3;
  let running = true;
  let turns = 0;
  const voice = Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let i = 0; i < TURNS_EACH; i++) {
        await voiceTest(request, sessionId, i % 2 ? "Can I speak to a person?" : "Hello");
        turns += 1;
      }
    }),
  ).finally(() => (running = false));

  const latencies: number[] = [];
  while (running) {
    const started = performance.now();
    const response = await request.get("/api/subscription-plans");
    latencies.push(performance.now() - started);
    expect(response.status()).toBe(200);
  }
  await voice;

  console.log(
    `no-database request while ${turns} voice turns ran: ${latencies.length} requests, p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms`,
  );
  expect(turns).toBe(10 * TURNS_EACH);
  expect(latencies.length).toBeGreaterThanOrEqual(10);
  expect(percentile(latencies, 95)).toBeLessThan(500);
});
