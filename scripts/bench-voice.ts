// npm run bench:voice — times the voice pipeline.
// (a) Offline providers (local responder + flite in the speech worker pool) on a fresh in-memory
//     PGlite: 200 sequential and 200 more at 20-way concurrency through the POST /api/voice/test
//     route handler (session, credits, pipeline, stored clip, assistant_reply row). p50/p95 of the
//     server total and each stage, and the server overhead (total minus the provider stages).
// (b) The streamed pipeline with the real Anthropic and ElevenLabs SDKs against local fakes that inject
//     delays (model: 300 ms to first token, then 40 ms per sentence; speech: 150 ms to first byte):
//     time to the first audio byte of a three-sentence reply, overlapped vs sequential, in the same run.
// (c) The production build under `next start` (built first if the sources changed), twice, side by
//     side: the speech pool at its default size and SPEECH_WORKERS=1. First both idle for
//     BENCH_IDLE_SECONDS (30): the CPU an idle server uses. Then each: p50/p95 of a request
//     that touches no database (GET /api/subscription-plans) on the idle server, then the same while
//     20 offline voice turns run at once; then offline turns per second at 20-way concurrency, in
//     rounds that alternate between the two servers (BENCH_ROUNDS, default 4), with the server's CPU
//     per turn split by thread (event loop, speech workers, V8/libuv helpers), and the rest of the
//     machine over the same rounds (the load generator, PostgreSQL's processes, other, idle cores).
//     BENCH_DATABASE_URL=postgres://… runs those servers on PostgreSQL (a fresh database each);
//     BENCH_SKIP_SERVER=1 leaves (c) out.
// Record the output in docs/benchmarks.md.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { lightHttpClient, percentile as pct, registerBenchAccount } from "./bench-support";
import { machineCpuSeconds, namedProcessesCpuSeconds, startBenchServer } from "./bench-server";

delete process.env.ANTHROPIC_API_KEY;
delete process.env.ELEVENLABS_API_KEY;

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 200);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const STREAM_RUNS = Number(process.env.BENCH_STREAM_RUNS ?? 10);
const SERVER_PROBES = Number(process.env.BENCH_SERVER_PROBES ?? 300);
/** Turns per server in the throughput phase, split into BENCH_ROUNDS alternating rounds. */
const SERVER_TURNS = Number(process.env.BENCH_SERVER_TURNS ?? 600);

type Timings = {
  llmFirstTokenMs: number | null;
  llmTotalMs: number;
  ttsFirstByteMs: number | null;
  ttsTotalMs: number;
  firstAudioByteMs: number | null;
  pipelineMs: number;
  totalMs: number;
};

const f = (n: number) => n.toFixed(1);

function table(title: string, rows: { timings: Timings; wallMs: number }[]) {
  const series: [string, number[]][] = [
    ["server total", rows.map((r) => r.timings.totalMs)],
    ["  model (local responder)", rows.map((r) => r.timings.llmTotalMs)],
    ["  speech (flite, worker pool)", rows.map((r) => r.timings.ttsTotalMs)],
    ["  overhead (total − model − speech)", rows.map((r) => r.timings.totalMs - r.timings.llmTotalMs - r.timings.ttsTotalMs)],
    ["handler wall time (client side)", rows.map((r) => r.wallMs)],
  ];
  console.log(`\n${title} — ${rows.length} requests`);
  console.log("| measure | p50 ms | p95 ms | max ms |\n|---|---|---|---|");
  for (const [name, values] of series) console.log(`| ${name} | ${f(pct(values, 50))} | ${f(pct(values, 95))} | ${f(Math.max(...values))} |`);
}

async function main() {
  const started = performance.now();
  const { closeDb, getDbHandle } = await import("@/lib/platform/database");
  const { organizations, voiceAssistants } = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");
  const { changeCredits } = await import("@/lib/workspace/billing/ledger");
  const { createFilesystemBlobStore, setBlobStore } = await import("@/lib/platform/blob-store");
  const { POST: register } = await import("@/app/api/auth/register/route");
  const { POST: voiceTest } = await import("@/app/api/voice/test/route");
  const { runVoiceTurn } = await import("@/lib/phone/voice/pipeline");
  const { env } = await import("@/lib/platform/env");
  const { closeSpeechPools, configureSpeechPools, speechWorkerCount } = await import("@/lib/platform/providers/speech-pool");
  configureSpeechPools({ workers: env.SPEECH_WORKERS });
  const { resolveVoice } = await import("@/lib/agents/assistants/voices");
  const { createAnthropicLlm } = await import("@/lib/platform/providers/llm/anthropic");
  const { createElevenLabsTts } = await import("@/lib/platform/providers/tts/elevenlabs");
  const { startFakeAnthropic } = await import("@/tests/fakes/anthropic-server");
  const { startFakeElevenLabs } = await import("@/tests/fakes/elevenlabs-server");

  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-voice-audio-"));
  setBlobStore(createFilesystemBlobStore(blobDir));
  const { db, driver } = await getDbHandle();
  if (driver !== "pglite") throw new Error("bench:voice measures embedded PGlite");

  const account = await registerBenchAccount(register);
  await db
    .update(organizations)
    .set({ name: "Bench Bakery", businessProfile: { hours: "Mon–Sat 7 AM–3 PM", address: "5 Oven Lane", services: ["bread", "cakes"] } })
    .where(eq(organizations.id, account.organizationId));
  await changeCredits(db, account.organizationId, "grant", 10_000, { reason: "bench" });
  await db.insert(voiceAssistants).values({
    id: crypto.randomUUID(),
    organizationId: account.organizationId,
    name: "Counter",
    personality: "friendly",
    instructions: "",
    voice: "alloy",
    // A one-sentence reply: "Hello" is answered with this greeting.
    greeting: "Hello, thanks for calling Bench Bakery, how can I help you today?",
  });

  async function turn(text: string): Promise<{ timings: Timings; wallMs: number }> {
    const t0 = performance.now();
    const response = await voiceTest(
      new Request("http://localhost:3000/api/voice/test", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${account.sessionId}` },
        body: JSON.stringify({ testText: text }),
      }),
      { params: Promise.resolve({}) },
    );
    const body = (await response.json()) as { timings: Timings; aiResponse: string };
    const wallMs = performance.now() - t0;
    if (response.status !== 200) throw new Error(`voice test failed: ${response.status} ${JSON.stringify(body)}`);
    return { timings: body.timings, wallMs };
  }

  console.log(`# bench:voice — ${new Date().toISOString()}`);
  console.log(`node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log(`(a) in process: speech pool of ${speechWorkerCount()} workers`);

  // (a) Offline providers through the route.
  for (let i = 0; i < 5; i++) await turn("Hello"); // warm-up: engine load, JIT, first queries
  const sequential = [];
  for (let i = 0; i < SEQUENTIAL; i++) sequential.push(await turn("Hello"));
  table("(a1) offline, one-sentence reply, sequential", sequential);

  const concurrent: { timings: Timings; wallMs: number }[] = [];
  let next = 0;
  const wallStart = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CONCURRENT) {
        next += 1;
        concurrent.push(await turn("Hello"));
      }
    }),
  );
  const wall = performance.now() - wallStart;
  table(`(a2) offline, one-sentence reply, ${CONCURRENCY}-way concurrent`, concurrent);
  console.log(`throughput: ${(CONCURRENT / (wall / 1000)).toFixed(1)} turns/s`);

  const phrases = [
    "Hello, I'd like to book an appointment",
    "What are your opening hours?",
    "How much does a cleaning cost?",
    "Can I speak to a person?",
    "I have a problem with my bill",
  ];
  const mixed = [];
  for (let i = 0; i < 50; i++) mixed.push(await turn(phrases[i % phrases.length]));
  table("(a3) offline, the five quick phrases (2–4 sentence replies), sequential", mixed);

  // (b) Streamed pipeline, fake remote providers with injected delays.
  const reply =
    "[intent:appointment]\nI can book that for you. We have openings on Tuesday and Thursday mornings. Which day would suit you better?";
  const anthropic = await startFakeAnthropic({ apiKey: "bench", reply: () => reply, firstTokenDelayMs: 300, perSentenceDelayMs: 40 });
  const elevenlabs = await startFakeElevenLabs({ apiKey: "bench", firstByteDelayMs: 150 });
  const llm = createAnthropicLlm({ apiKey: "bench", baseURL: anthropic.url, maxRetries: 0, model: "claude-bench-fake" });
  const tts = createElevenLabsTts({ apiKey: "bench", baseUrl: elevenlabs.url, maxRetries: 0 });
  const input = {
    assistant: { name: "Counter", personality: "friendly", instructions: "" },
    profile: { name: "Bench Bakery" },
    history: [],
    text: "I'd like to book a table",
  };
  const results: Record<"overlapped" | "sequential", Timings[]> = { overlapped: [], sequential: [] };
  await runVoiceTurn({ llm, tts, voice: resolveVoice("alloy"), input, mode: "overlapped" }); // warm-up (connections)
  for (let i = 0; i < STREAM_RUNS; i++) {
    for (const mode of ["overlapped", "sequential"] as const) {
      const r = await runVoiceTurn({ llm, tts, voice: resolveVoice("alloy"), input, mode });
      results[mode].push({ ...r.timings, totalMs: r.timings.pipelineMs });
    }
  }
  console.log(`\n(b) streamed pipeline, fake Anthropic (300 ms to first token, +40 ms/sentence) and fake ElevenLabs (150 ms to first byte), 3-sentence reply, ${STREAM_RUNS} runs each`);
  console.log("| mode | first audio byte p50 ms | p95 ms | model first token p50 | model total p50 | pipeline total p50 |\n|---|---|---|---|---|---|");
  for (const mode of ["overlapped", "sequential"] as const) {
    const r = results[mode];
    const fab = r.map((t) => t.firstAudioByteMs ?? NaN);
    console.log(
      `| ${mode} | ${f(pct(fab, 50))} | ${f(pct(fab, 95))} | ${f(pct(r.map((t) => t.llmFirstTokenMs ?? NaN), 50))} | ${f(pct(r.map((t) => t.llmTotalMs), 50))} | ${f(pct(r.map((t) => t.pipelineMs), 50))} |`,
    );
  }
  await anthropic.close();
  await elevenlabs.close();

  await closeDb();
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeSpeechPools();

  if (process.env.BENCH_SKIP_SERVER !== "1") await serverRuns();
  console.log(`\nbench:voice finished in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

type ThreadCpu = { eventLoop: number; workers: number; helpers: number };

type ServerRun = {
  workers: string;
  idle: number[];
  busy: number[];
  busyTurnMs: number[];
  /** Turns and seconds of steady state (CONCURRENCY turns in flight all along), summed over the rounds. */
  steadyTurns: number;
  steadySeconds: number;
  /** turns/s of each round. */
  rounds: number[];
  /** Server CPU per turn in the throughput phases, ms: all its processes, and its threads by kind. */
  cpuMsPerTurn: number | null;
  threadMsPerTurn: ThreadCpu | null;
  turns: number;
  /**
   * The rest of the machine over the same rounds, ms per turn: the load generator (this process),
   * the PostgreSQL server's processes, everything else that was busy, and the cores left idle.
   */
  machine: { bench: number; postgres: number; other: number; idle: number; seconds: number } | null;
  /** The machine's 1-minute load average when the throughput phases started and ended. */
  load: [number, number];
  /** CPU the server used while idle (warmed up, no requests), ms per second: its job runner and timers. */
  idleCpuMsPerSecond: number | null;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type OpenServer = {
  run: ServerRun;
  turn(): Promise<number>;
  probes(count: number): Promise<number[]>;
  server: Awaited<ReturnType<typeof startBenchServer>>;
  client: ReturnType<typeof lightHttpClient>;
  organizationId: string;
};

/** One `next start` of the production build, signed in as the demo account and warmed up. */
async function openServer(extraEnv: Record<string, string>): Promise<OpenServer> {
  const server = await startBenchServer(extraEnv);
  const { demoAccount } = await import("@/lib/consoles/demo-accounts");
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: demoAccount.email, password: demoAccount.password }),
    });
    if (!login.ok) throw new Error(`demo sign-in failed: ${login.status} ${await login.text()}`);
    const session = (await login.json()) as { sessionId: string; organizationId: string };

    // The load: node:http on kept-alive connections (lightHttpClient), not fetch, whose own CPU on
    // the shared cores would be taken from the server being measured.
    const client = lightHttpClient(server.url);
    const body = JSON.stringify({ testText: "Hello" });
    const headers = { "content-type": "application/json", authorization: `Bearer ${session.sessionId}` };
    const turn = async (): Promise<number> => {
      const t0 = performance.now();
      const response = await client.request("POST", "/api/voice/test", { headers, body });
      if (response.status !== 200) throw new Error(`voice test failed: ${response.status} ${response.body}`);
      return performance.now() - t0;
    };
    const probe = async (): Promise<number> => {
      const t0 = performance.now();
      const response = await client.request("GET", "/api/subscription-plans");
      if (response.status !== 200) throw new Error(`GET /api/subscription-plans: ${response.status}`);
      return performance.now() - t0;
    };
    /** `count` requests one after another, 10 ms apart (a steady trickle, not a flood). */
    const probes = async (count: number) => {
      const samples: number[] = [];
      for (let i = 0; i < count; i++) {
        samples.push(await probe());
        await sleep(10);
      }
      return samples;
    };

    // Warm-up: routes compiled on first use, the pool's workers, flite compiled in each worker.
    for (let i = 0; i < 50; i++) await probe();
    for (let i = 0; i < 3; i++) await Promise.all(Array.from({ length: CONCURRENCY }, () => turn()));
    const run: ServerRun = {
      workers: extraEnv.SPEECH_WORKERS ?? `default (${os.availableParallelism()})`,
      idle: [],
      busy: [],
      busyTurnMs: [],
      steadyTurns: 0,
      steadySeconds: 0,
      rounds: [],
      cpuMsPerTurn: null,
      threadMsPerTurn: null,
      turns: 0,
      machine: null,
      load: [0, 0],
      idleCpuMsPerSecond: null,
    };
    return { run, turn, probes, server, client, organizationId: session.organizationId };
  } catch (error) {
    console.error(server.output.slice(-40).join("\n"));
    await server.stop();
    throw error;
  }
}

async function closeServer(open: OpenServer) {
  open.client.close();
  await open.server.stop();
  // The server stored its clips under .data/audio/<organization>: this run's organization only.
  fs.rmSync(path.join(process.cwd(), ".data", "audio", open.organizationId), { recursive: true, force: true });
}

/** Idle no-database latency, then the same while CONCURRENCY voice turns are in flight all along. */
async function latency(open: OpenServer) {
  open.run.idle = await open.probes(SERVER_PROBES);
  let stop = false;
  const loops = Array.from({ length: CONCURRENCY }, async () => {
    while (!stop) open.run.busyTurnMs.push(await open.turn());
  });
  while (open.run.busyTurnMs.length < CONCURRENCY) await sleep(20); // every loop has had a turn: steady state
  open.run.busy = await open.probes(SERVER_PROBES);
  stop = true;
  await Promise.all(loops);
}

/**
 * One throughput round: `count` turns, CONCURRENCY at a time. Turns per second are counted between
 * the CONCURRENCY-th and the (count − CONCURRENCY)-th completion, while CONCURRENCY turns were in
 * flight all along (no ramp-up or drain); CPU over the whole round.
 */
async function throughputRound(open: OpenServer, count: number) {
  const cpuBefore = open.server.cpuSeconds();
  const threadsBefore = open.server.threadCpuSeconds();
  const machineBefore = machineCpuSeconds();
  const benchBefore = process.cpuUsage();
  const postgresBefore = namedProcessesCpuSeconds("postgres");
  const wallBefore = performance.now();
  const done: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next += 1;
        await open.turn();
        done.push(performance.now());
      }
    }),
  );
  const from = CONCURRENCY - 1;
  const to = count - CONCURRENCY - 1;
  const seconds = (done[to] - done[from]) / 1000;
  open.run.steadyTurns += to - from;
  open.run.steadySeconds += seconds;
  open.run.rounds.push((to - from) / seconds);
  const cpuAfter = open.server.cpuSeconds();
  const threadsAfter = open.server.threadCpuSeconds();
  const machineAfter = machineCpuSeconds();
  const bench = process.cpuUsage(benchBefore);
  const postgresAfter = namedProcessesCpuSeconds("postgres");
  if (machineBefore && machineAfter && cpuBefore !== null && cpuAfter !== null) {
    const m = open.run.machine ?? { bench: 0, postgres: 0, other: 0, idle: 0, seconds: 0 };
    const benchMs = (bench.user + bench.system) / 1000;
    const postgresMs = postgresBefore !== null && postgresAfter !== null ? (postgresAfter - postgresBefore) * 1000 : 0;
    m.bench += benchMs;
    m.postgres += postgresMs;
    m.other += (machineAfter.busy - machineBefore.busy) * 1000 - (cpuAfter - cpuBefore) * 1000 - benchMs - postgresMs;
    m.idle += (machineAfter.idle - machineBefore.idle) * 1000;
    m.seconds += (performance.now() - wallBefore) / 1000;
    open.run.machine = m;
  }
  open.run.turns += count;
  if (cpuBefore !== null && cpuAfter !== null) open.run.cpuMsPerTurn = (open.run.cpuMsPerTurn ?? 0) + (cpuAfter - cpuBefore) * 1000;
  if (threadsBefore && threadsAfter) {
    const sum = open.run.threadMsPerTurn ?? { eventLoop: 0, workers: 0, helpers: 0 };
    for (const key of ["eventLoop", "workers", "helpers"] as const) sum[key] += (threadsAfter[key] - threadsBefore[key]) * 1000;
    open.run.threadMsPerTurn = sum;
  }
}

/** Both servers idle for BENCH_IDLE_SECONDS (default 30, recurring jobs included): their CPU per second. */
async function idleCpu(opens: OpenServer[]) {
  const seconds = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
  const before = opens.map((o) => o.server.cpuSeconds());
  await sleep(seconds * 1000);
  opens.forEach((o, i) => {
    const after = o.server.cpuSeconds();
    const start = before[i];
    o.run.idleCpuMsPerSecond = after === null || start === null ? null : ((after - start) * 1000) / seconds;
  });
}

/**
 * (c) Two `next start` servers of the production build, the speech pool at its default size and at
 * one worker, each on a fresh database. Latency on each in turn; then the throughput rounds alternate
 * between them (A B, B A, A B, …), so that a slower or faster spell of a shared machine falls on
 * both alike: the ratio of the two is what the target is about.
 */
async function serverRuns() {
  const database = process.env.BENCH_DATABASE_URL ? "PostgreSQL (a fresh database per server)" : "embedded PGlite (a fresh folder per server)";
  const flags = process.env.BENCH_NODE_FLAGS ?? "";
  const roundsWanted = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
  const perRound = Math.max(3 * CONCURRENCY, Math.round(SERVER_TURNS / roundsWanted));
  console.log(
    `\n(c) production build under \`next start\`, ${database}; node flags: ${flags || "(none)"}; demo account; "Hello" → the Front Desk assistant's greeting`,
  );
  const pool = await openServer({});
  let one: OpenServer | null = null;
  try {
    one = await openServer({ SPEECH_WORKERS: "1" });
    await idleCpu([pool, one]);
    for (const open of [pool, one]) await latency(open);
    const loadBefore = os.loadavg()[0];
    for (let round = 0; round < roundsWanted; round++) {
      for (const open of round % 2 === 0 ? [pool, one] : [one, pool]) await throughputRound(open, perRound);
    }
    for (const open of [pool, one]) open.run.load = [loadBefore, os.loadavg()[0]];
  } finally {
    await closeServer(pool);
    if (one) await closeServer(one);
  }
  const runs = [pool.run, one.run];

  console.log(
    `\n(c0) each server idle for ${process.env.BENCH_IDLE_SECONDS ?? 30} s after its warm-up (its job runner polling, recurring jobs when due): ${runs
      .map((r) => `SPEECH_WORKERS ${r.workers}: ${r.idleCpuMsPerSecond === null ? "n/a" : r.idleCpuMsPerSecond.toFixed(1)} ms of CPU per second`)
      .join("; ")}`,
  );
  console.log(`\n(c1) GET /api/subscription-plans (no database), ${SERVER_PROBES} requests 10 ms apart: idle, then while ${CONCURRENCY} voice turns run at once`);
  console.log("| SPEECH_WORKERS | idle p50 ms | idle p95 ms | busy p50 ms | busy p95 ms | busy p95 ÷ idle p95 | voice turn p50 ms (busy) | p95 ms |\n|---|---|---|---|---|---|---|---|");
  for (const r of runs) {
    console.log(
      `| ${r.workers} | ${f(pct(r.idle, 50))} | ${f(pct(r.idle, 95))} | ${f(pct(r.busy, 50))} | ${f(pct(r.busy, 95))} | ${(pct(r.busy, 95) / pct(r.idle, 95)).toFixed(2)}× | ${f(pct(r.busyTurnMs, 50))} | ${f(pct(r.busyTurnMs, 95))} |`,
    );
  }
  console.log(
    `\n(c2) offline turns per second at ${CONCURRENCY}-way concurrency: ${roundsWanted} rounds of ${perRound} turns per server, alternating; counted while ${CONCURRENCY} turns were in flight`,
  );
  // Cores obtained = CPU seconds per second of wall time: on a shared machine this, not the pool
  // size, can be what limits turns/s. The thread split shows where a turn's CPU goes.
  console.log(
    "| SPEECH_WORKERS | turns/s | each round | server CPU per turn ms | event loop | speech workers | V8/libuv helpers | cores obtained | load average at start → end |\n|---|---|---|---|---|---|---|---|---|",
  );
  for (const r of runs) {
    const tps = r.steadyTurns / r.steadySeconds;
    const cpu = r.cpuMsPerTurn === null ? null : r.cpuMsPerTurn / r.turns;
    const t = r.threadMsPerTurn;
    const per = (ms: number | undefined) => (ms === undefined ? "n/a" : (ms / r.turns).toFixed(1));
    console.log(
      `| ${r.workers} | ${tps.toFixed(2)} | ${r.rounds.map((x) => x.toFixed(1)).join(", ")} | ${cpu === null ? "n/a" : cpu.toFixed(1)} | ${per(t?.eventLoop)} | ${per(t?.workers)} | ${per(t?.helpers)} | ${cpu === null ? "n/a" : ((cpu * tps) / 1000).toFixed(2)} | ${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)} |`,
    );
  }

  console.log(
    "\n(c3) the rest of the machine over the same rounds, ms per turn (the load generator is this process; idle: CPU time no one used, over all cores)\n| SPEECH_WORKERS | load generator | PostgreSQL server | everything else busy | idle | idle cores |\n|---|---|---|---|---|---|",
  );
  for (const r of runs) {
    const m = r.machine;
    if (!m) continue;
    const per = (ms: number) => (ms / r.turns).toFixed(1);
    console.log(`| ${r.workers} | ${per(m.bench)} | ${per(m.postgres)} | ${per(m.other)} | ${per(m.idle)} | ${(m.idle / 1000 / m.seconds).toFixed(2)} |`);
  }

  const latencyRatio = pct(pool.run.busy, 95) / pct(pool.run.idle, 95);
  const speedup = pool.run.steadyTurns / pool.run.steadySeconds / (one.run.steadyTurns / one.run.steadySeconds);
  const perRoundRatios = pool.run.rounds.map((x, i) => x / one!.run.rounds[i]);
  console.log(`\ntarget: busy p95 within 3× idle p95 (default pool): ${latencyRatio.toFixed(2)}× — ${latencyRatio <= 3 ? "met" : "NOT met"}`);
  console.log(
    `target: turns/s default pool ≥ 1.6× one worker: ${speedup.toFixed(2)}× — ${speedup >= 1.6 ? "met" : "NOT met"} (round by round: ${perRoundRatios.map((x) => x.toFixed(2)).join(", ")})`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
