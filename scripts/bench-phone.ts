// npm run bench:phone — the phone loop under load (docs/benchmarks.md#phone-loop).
//
// (a) 50 concurrent simulated calls × 5 turns, callers pausing 3 s between turns, offline providers
//     (local responder + offline speech), through the real webhook route handlers in process, signed
//     like Twilio, by the same carrier client as the phone panel. Run twice, in child processes: on
//     embedded PGlite and on PostgreSQL (a scratch database on BENCH_DATABASE_URL, default
//     postgres://postgres@127.0.0.1:5432/test, dropped afterwards). Reports p50/p95 of the Gather
//     webhook's response time and of the server's own overhead (its Server-Timing total minus the
//     language model and speech), the greeting, and errors.
// (b) The ConversationRelay gateway with the real Anthropic SDK against the local fake at 300 ms to
//     its first token: prompt (last) → first `text` token, p50/p95, next to the 300 ms floor.
//
// Sizes: BENCH_CALLS (50), BENCH_TURNS (5), BENCH_PAUSE_MS (3000, each pause ±BENCH_PAUSE_JITTER, 0.2), BENCH_RELAY_CALLS (20),
// BENCH_RELAY_PROMPTS (3), BENCH_FIRST_TOKEN_MS (300). BENCH_ONLY=pglite|postgres|gateway runs one part.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The p-th percentile (nearest rank) of the samples. */
function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const CALLS = Number(process.env.BENCH_CALLS ?? 50);
const TURNS = Number(process.env.BENCH_TURNS ?? 5);
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 3000);
const JITTER = Number(process.env.BENCH_PAUSE_JITTER ?? 0.2);
const RELAY_CALLS = Number(process.env.BENCH_RELAY_CALLS ?? 20);
const RELAY_PROMPTS = Number(process.env.BENCH_RELAY_PROMPTS ?? 3);
const FIRST_TOKEN_MS = Number(process.env.BENCH_FIRST_TOKEN_MS ?? 300);
/** Setup → first prompt: the welcome greeting playing (0 sends the first prompt with the setup). */
const GREETING_MS = Number(process.env.BENCH_GREETING_MS ?? 1500);

const QUESTIONS = [
  "What are your opening hours?",
  "Where are you located?",
  "What services do you offer?",
  "I'd like to book a cleaning",
  "Tuesday at 3pm",
  "How much does a filling cost?",
  "Do you take walk-ins on Saturday?",
  "Is there parking nearby?",
  "Can I bring my kids?",
  "I have a question about my bill",
];

const f = (n: number) => n.toFixed(1);

function row(name: string, values: number[]) {
  return `| ${name} | ${values.length} | ${f(percentile(values, 50))} | ${f(percentile(values, 95))} | ${f(Math.max(...values))} |`;
}

type LoopResult = {
  driver: string;
  greeting: number[];
  gather: number[];
  serverTotal: number[];
  overhead: number[];
  /** Caller understanding's own time per turn (part of the overhead). */
  nlu: number[];
  llm: number[];
  tts: number[];
  errors: string[];
  wallSeconds: number;
  /** The process's event-loop delay during the run (ms) and the CPU it used (s): queueing inside the process shows here. */
  loopDelayP50: number;
  loopDelayP99: number;
  cpuSeconds: number;
};

async function setupBusiness() {
  const { getDb } = await import("@/lib/platform/database");
  const { organizations, voiceAssistants, phoneNumbers } = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");
  const { changeCredits } = await import("@/lib/workspace/billing/ledger");
  const { POST: register } = await import("@/app/api/auth/register/route");
  const { simulatedAccount } = await import("@/lib/phone/telephony/account");
  const db = await getDb();
  const res = await register(
    new Request("http://localhost:3000/api/auth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "bench@example.com", username: "bench", password: "bench-pass-123", firstName: "Bench", lastName: "Mark" }),
    }),
    { params: Promise.resolve({}) },
  );
  if (!res.ok) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const account = (await res.json()) as { sessionId: string; organizationId: string };
  await db
    .update(organizations)
    .set({ name: "Bench Dental", businessProfile: { hours: "Mon–Fri 9 AM–5 PM", address: "1 Main Street", services: ["cleanings", "fillings", "whitening"] } })
    .where(eq(organizations.id, account.organizationId));
  await changeCredits(db, account.organizationId, "grant", 100_000, { reason: "bench" });
  const assistantId = crypto.randomUUID();
  await db.insert(voiceAssistants).values({
    id: assistantId,
    organizationId: account.organizationId,
    name: "Riley",
    greeting: "Thanks for calling Bench Dental, this is Riley. How can I help?",
    instructions: "Offer the next free appointment.",
  });
  const numberId = crypto.randomUUID();
  await db.insert(phoneNumbers).values({
    id: numberId,
    organizationId: account.organizationId,
    phoneNumber: "+14155550100",
    friendlyName: "Bench line",
    provider: "simulated",
    assistantId,
  });
  return { db, account, numberId, carrier: await simulatedAccount(db, account.organizationId) };
}

async function loopChild(driver: string): Promise<LoopResult[]> {
  const { createFilesystemBlobStore, setBlobStore } = await import("@/lib/platform/blob-store");
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-phone-audio-"));
  setBlobStore(createFilesystemBlobStore(blobDir));
  const { SimulatedCall } = await import("@/lib/phone/telephony/simulator/carrier-client");
  const { inProcessTransport, carrierAccountFrom } = await import("@/tests/helpers/in-process-carrier");
  const { getDbHandle, closeDb } = await import("@/lib/platform/database");
  const handle = await getDbHandle();
  if (handle.driver !== driver) throw new Error(`expected ${driver}, opened ${handle.driver}`);
  const { carrier } = await setupBusiness();
  const account = carrierAccountFrom(carrier);

  // Warm up: one call, so module loading and the speech engine's start are not measured.
  const warmUp = new SimulatedCall(account, inProcessTransport, {
    play: async () => undefined,
    listen: (() => {
      const lines = ["What are your opening hours?"];
      return async () => lines.shift() ?? "Bye!";
    })(),
    dial: async () => "no-answer",
    record: async () => null,
  }, { from: "+15555550199", to: "+14155550100" });
  await warmUp.start();

  const round = async (label: string, round: number): Promise<LoopResult> => {
  const result: LoopResult = { driver: `${driver}, ${label}`, greeting: [], gather: [], serverTotal: [], overhead: [], nlu: [], llm: [], tts: [], errors: [], wallSeconds: 0, loopDelayP50: 0, loopDelayP99: 0, cpuSeconds: 0 };
  const { monitorEventLoopDelay } = await import("node:perf_hooks");
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const cpuBefore = process.cpuUsage();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CALLS }, async (_, c) => {
      await sleep(Math.random() * PAUSE_MS); // callers arrive over the first pause, not in lock step
      let turn = 0;
      let call: InstanceType<typeof SimulatedCall> | null = null;
      call = new SimulatedCall(
        account,
        inProcessTransport,
        {
          async play(url) {
            // The carrier fetches every clip it plays.
            const res = await inProcessTransport.fetch(url);
            if (!res.ok) result.errors.push(`audio ${res.status}`);
            await res.arrayBuffer();
          },
          async listen() {
            if (turn >= TURNS) {
              call!.hangUp();
              return "";
            }
            // People do not pause to the millisecond: 3 s on average, ±JITTER. Exact pauses would lock
            // all fifty callers into step after the first slow moment, which no real line does.
            await sleep(PAUSE_MS * (1 + JITTER * (2 * Math.random() - 1)));
            const text = QUESTIONS[(c + turn) % QUESTIONS.length];
            turn += 1;
            return text;
          },
          dial: async () => "no-answer",
          record: async () => null,
          onEvent(event) {
            if (event.type !== "request") return;
            if (event.path === "/api/telephony/voice") {
              result.greeting.push(event.ms);
              return;
            }
            if (!event.path.startsWith("/api/telephony/voice/gather")) return;
            result.gather.push(event.ms);
            const t = event.serverTiming;
            if (t.total !== undefined) {
              result.serverTotal.push(t.total);
              result.llm.push(t.llm ?? 0);
              result.tts.push(t.tts ?? 0);
              result.overhead.push(t.total - (t.llm ?? 0) - (t.tts ?? 0));
              result.nlu.push(t.nlu ?? 0);
            }
          },
        },
        { from: `+1555${round}55${String(1000 + c).slice(-4)}`, to: "+14155550100" },
      );
      try {
        await call.start();
      } catch (error) {
        result.errors.push(error instanceof Error ? error.message : String(error));
      }
    }),
  );
  result.wallSeconds = (performance.now() - started) / 1000;
  loopDelay.disable();
  result.loopDelayP50 = loopDelay.percentile(50) / 1e6;
  result.loopDelayP99 = loopDelay.percentile(99) / 1e6;
  const cpu = process.cpuUsage(cpuBefore);
  result.cpuSeconds = (cpu.user + cpu.system) / 1e6;

  return result;
  };
  // Round 1 starts with an empty speech cache: the first caller to ask each question waits for its
  // synthesis. Round 2 is the same line a minute later, in its steady state.
  const cold = await round("first round (empty speech cache)", 1);
  const steady = await round("second round (steady state)", 2);
  await closeDb();
  fs.rmSync(blobDir, { recursive: true, force: true });
  return [cold, steady];
}

type RelayResult = { firstToken: number[]; beforeModel: number[]; modelFirstToken: number[]; floor: number; errors: string[]; loopDelay: { p50: number; p99: number; max: number } };

async function gatewayChild(): Promise<RelayResult> {
  const { default: WebSocket } = await import("ws");
  const { default: twilio } = await import("twilio");
  const { getDb, closeDb } = await import("@/lib/platform/database");
  const { createAnthropicLlm } = await import("@/lib/platform/providers/llm/anthropic");
  const { startRelayGateway } = await import("@/lib/channels/phone-line/relay/gateway");
  const { phoneNumbers } = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");
  const { inProcessTransport, carrierAccountFrom } = await import("@/tests/helpers/in-process-carrier");
  const { postWebhook } = await import("@/lib/phone/telephony/simulator/carrier-client");
  const { twilioSid } = await import("@/lib/phone/telephony/signature");

  const { db, carrier, numberId } = await setupBusiness();
  await db.update(phoneNumbers).set({ streaming: true }).where(eq(phoneNumbers.id, numberId));
  // The fake model runs in a process of its own, so its 300 ms are 300 ms whatever this one is doing.
  const { spawn } = await import("node:child_process");
  const fakeProcess = spawn(process.execPath, [...process.execArgv, __filename, "--fake-anthropic"], { stdio: ["ignore", "pipe", "inherit"] });
  const fakeUrl = await new Promise<string>((resolve, reject) => {
    fakeProcess.stdout.on("data", (d: Buffer) => {
      const m = /FAKE (\S+)/.exec(d.toString());
      if (m) resolve(m[1]);
    });
    fakeProcess.once("exit", (code) => reject(new Error(`the fake model exited (${code})`)));
  });
  const fake = { url: fakeUrl, close: async () => void fakeProcess.kill() };
  const result: RelayResult = { firstToken: [], beforeModel: [], modelFirstToken: [], floor: FIRST_TOKEN_MS, errors: [], loopDelay: { p50: 0, p99: 0, max: 0 } };
  const { monitorEventLoopDelay } = await import("node:perf_hooks");
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const gateway = await startRelayGateway({
    port: 0,
    host: "127.0.0.1",
    getDb: async () => getDb(),
    deps: {
      llm: createAnthropicLlm({ apiKey: "sk-bench", baseURL: fake.url, maxRetries: 0 }),
      log: () => undefined,
      onTurnTiming: (t) => {
        result.beforeModel.push(t.beforeModelMs);
        result.modelFirstToken.push(t.modelFirstTokenMs);
      },
    },
  });
  const account = carrierAccountFrom(carrier);

  const placeCall = async (c: number, timed: boolean, prompts: number) => {
    const callSid = twilioSid("CA");
    const answer = await postWebhook(account, inProcessTransport, account.voiceUrl, {
      AccountSid: account.accountSid,
      CallSid: callSid,
      From: `+1555556${String(1000 + c).slice(-4)}`,
      To: "+14155550100",
      CallStatus: "ringing",
      Direction: "inbound",
    });
    const url = answer.verbs[0]?.children[0]?.attrs.url;
    if (!url) {
      result.errors.push("no ConversationRelay in the answer");
      return;
    }
    const ws = new WebSocket(url.replace("//localhost:", "//127.0.0.1:"), { headers: { "x-twilio-signature": twilio.getExpectedTwilioSignature(account.authToken, url, {}) } });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    ws.send(JSON.stringify({ type: "setup", callSid, from: "+15555550100", to: "+14155550100" }));
    // Twilio plays the welcome greeting before the caller can speak (a short greeting is ~2 s of audio).
    await new Promise((r) => setTimeout(r, timed ? GREETING_MS : 200));
    for (let p = 0; p < prompts; p++) {
      const sent = performance.now();
      const first = new Promise<number>((resolve) => {
        const onMessage = (data: Buffer) => {
          const frame = JSON.parse(data.toString()) as { type: string; token?: string; last?: boolean };
          if (frame.type === "text" && frame.token) {
            ws.off("message", onMessage);
            resolve(performance.now() - sent);
          }
        };
        ws.on("message", onMessage);
      });
      const done = new Promise<void>((resolve) => {
        const onMessage = (data: Buffer) => {
          const frame = JSON.parse(data.toString()) as { type: string; last?: boolean };
          if (frame.type === "text" && frame.last) {
            ws.off("message", onMessage);
            resolve();
          }
        };
        ws.on("message", onMessage);
      });
      ws.send(JSON.stringify({ type: "prompt", voicePrompt: "What are your opening hours?", lang: "en-US", last: true }));
      const ms = await first;
      if (timed) result.firstToken.push(ms);
      await done;
      await new Promise((r) => setTimeout(r, 500));
    }
    ws.close();
  };
  // One untimed call warms the process first (as in part (a)): a gateway serves calls for days, and
  // its first prompt pays for loading code, the time zone data and the first connections.
  const timingsBefore = { beforeModel: result.beforeModel.length };
  await placeCall(RELAY_CALLS, false, 2);
  result.beforeModel.splice(timingsBefore.beforeModel);
  result.modelFirstToken.splice(timingsBefore.beforeModel);
  loopDelay.reset();
  await Promise.all(
    Array.from({ length: RELAY_CALLS }, async (_, c) => {
      await new Promise((r) => setTimeout(r, Math.random() * 1000));
      await placeCall(c, true, RELAY_PROMPTS);
    }),
  );
  loopDelay.disable();
  result.loopDelay = { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 };
  await gateway.close();
  await fake.close();
  await closeDb();
  return result;
}

function runChild(mode: string, env: Record<string, string | undefined>): unknown {
  // BENCH_CPU_PROF=<folder>: each child writes a V8 CPU profile there (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const out = spawnSync(process.execPath, [...process.execArgv, ...profile, __filename, "--child", mode], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  const text = out.stdout.toString();
  const line = text.split("\n").find((l) => l.startsWith("RESULT "));
  if (out.status !== 0 || !line) throw new Error(`bench child ${mode} failed (${out.status}):\n${text.slice(-2000)}`);
  return JSON.parse(line.slice("RESULT ".length));
}

function printLoop(r: LoopResult) {
  const turns = r.gather.length;
  console.log(`\n(a) ${r.driver}: ${CALLS} calls × ${TURNS} turns, ${PAUSE_MS / 1000} s pauses (±${Math.round(JITTER * 100)}%) — ${turns} turns in ${r.wallSeconds.toFixed(1)} s (${(turns / r.wallSeconds).toFixed(1)} turns/s), errors ${r.errors.length}`);
  console.log("| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|");
  console.log(row("Gather webhook response (carrier side)", r.gather));
  console.log(row("server total (its Server-Timing)", r.serverTotal));
  console.log(row("  language model (local responder)", r.llm));
  console.log(row("  speech (offline)", r.tts));
  console.log(row("  server overhead (total − model − speech)", r.overhead));
  console.log(row("    of which caller understanding (NLU)", r.nlu));
  console.log(row("greeting (voice webhook)", r.greeting));
  const synthesized = r.tts.filter((v) => v > 0).length;
  console.log(`speech synthesized for ${synthesized} of ${r.tts.length} replies; the rest were lines said before, played from the speech cache`);
  console.log(`process: ${r.cpuSeconds.toFixed(1)} s of CPU in ${r.wallSeconds.toFixed(1)} s (carrier clients, fake clip fetches and server together); event-loop delay p50 ${r.loopDelayP50.toFixed(1)} ms, p99 ${r.loopDelayP99.toFixed(1)} ms`);
  if (r.errors.length) console.log(`errors: ${[...new Set(r.errors)].slice(0, 5).join("; ")}`);
}

async function child(mode: string) {
  const result = mode === "gateway" ? await gatewayChild() : await loopChild(mode === "postgres" ? "postgres" : "pglite");
  console.log(`RESULT ${JSON.stringify(result)}`);
  process.exit(0);
}

async function parent() {
  const only = process.env.BENCH_ONLY;
  console.log(`bench:phone — ${new Date().toISOString()} — Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  const common = { BETTER_AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123456789", SEED_DEMO_DATA: "false", JOBS_IN_PROCESS: "false", NODE_ENV: "production", ANTHROPIC_API_KEY: "", ELEVENLABS_API_KEY: "", DEEPGRAM_API_KEY: "", TWILIO_ACCOUNT_SID: "", TWILIO_AUTH_TOKEN: "", PUBLIC_URL: "http://localhost:3000", GATEWAY_PORT: "off" };

  if (!only || only === "pglite") for (const r of runChild("pglite", { ...common, DATABASE_URL: "", PGLITE_DATA_DIR: "memory://" }) as LoopResult[]) printLoop(r);

  // A scratch database per part on the PostgreSQL server, dropped afterwards.
  const admin = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const pg = await import("pg");
  async function withScratch<T>(part: string, run: (url: string) => T): Promise<T | null> {
    const name = `bench_phone_${part}_${Date.now()}`;
    const client = new pg.default.Client({ connectionString: admin });
    try {
      await client.connect();
      await client.query(`create database "${name}"`);
      const url = new URL(admin);
      url.pathname = `/${name}`;
      return run(url.toString());
    } catch (error) {
      console.log(`\n${part} on PostgreSQL: skipped (${error instanceof Error ? error.message.split("\n")[0] : error})`);
      return null;
    } finally {
      await client.query(`drop database if exists "${name}" with (force)`).catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  }

  if (!only || only === "postgres") {
    const results = await withScratch("loop", (url) => runChild("postgres", { ...common, DATABASE_URL: url, DATABASE_POOL_MAX: "20" }) as LoopResult[]);
    for (const r of results ?? []) printLoop(r);
  }

  if (!only || only === "gateway") {
    const printRelay = (driver: string, r: RelayResult) => {
      console.log(`\n(b) ConversationRelay gateway on ${driver}: ${RELAY_CALLS} concurrent calls × ${RELAY_PROMPTS} prompts, fake Anthropic at ${r.floor} ms to its first token, first prompt ${GREETING_MS} ms after setup (the greeting) — errors ${r.errors.length}`);
      console.log("| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|");
      console.log(row("prompt (last) → first text token", r.firstToken));
      console.log(row(`  minus the model's ${r.floor} ms floor`, r.firstToken.map((v) => v - r.floor)));
      console.log(row("  the gateway before the model request (message in → request out)", r.beforeModel));
      console.log(row("  the model's first token seen from the gateway (SDK + HTTP + fake)", r.modelFirstToken));
      console.log(`the gateway process's event loop delay (5 ms resolution): p50 ${r.loopDelay.p50.toFixed(1)} ms, p99 ${r.loopDelay.p99.toFixed(1)} ms, max ${r.loopDelay.max.toFixed(1)} ms`);
    };
    const onPostgres = await withScratch("gateway", (url) => runChild("gateway", { ...common, DATABASE_URL: url, DATABASE_POOL_MAX: "20" }) as RelayResult);
    if (onPostgres) printRelay("PostgreSQL", onPostgres);
    printRelay("PGlite", runChild("gateway", { ...common, DATABASE_URL: "", PGLITE_DATA_DIR: "memory://" }) as RelayResult);
  }
}

async function fakeAnthropic() {
  const { startFakeAnthropic } = await import("@/tests/fakes/anthropic-server");
  const fake = await startFakeAnthropic({
    apiKey: "sk-bench",
    firstTokenDelayMs: FIRST_TOKEN_MS,
    perSentenceDelayMs: 40,
    reply: () => "[intent:hours]\nWe're open Monday to Friday, nine to five. Anything else I can help with?",
  });
  console.log(`FAKE ${fake.url}`);
}

const childIndex = process.argv.indexOf("--child");
if (process.argv.includes("--fake-anthropic")) void fakeAnthropic();
else if (childIndex >= 0) void child(process.argv[childIndex + 1]);
else
  void parent().catch((error) => {
    console.error(error);
    process.exit(1);
  });
