// npm run bench:voice-server — against a running production server (`npm start`, default
// http://127.0.0.1:3000, or BENCH_URL): signs in as the demo account, runs 10 browser voice tests at
// once, 3 turns each, and meanwhile times GET /api/subscription-plans (a route that touches no
// database) back to back. Prints per round the no-database request's p50/p95/max beside the voice
// turns' own p50/p95: the floor and the load, side by side (docs/benchmarks.md, "Voice tests and the
// event loop"). BENCH_ROUNDS rounds (default 3).
const base = process.env.BENCH_URL ?? "http://127.0.0.1:3000";
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const login = await fetch(`${base}/api/auth/login`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email: process.env.BENCH_EMAIL ?? "demo@switchboard.dev", password: process.env.BENCH_PASSWORD ?? "demo1234" }),
});
if (login.status !== 200) throw new Error(`sign-in: ${login.status} ${await login.text()}`);
const { sessionId } = await login.json();

async function voiceTest(testText) {
  const started = performance.now();
  const response = await fetch(`${base}/api/voice/test`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${sessionId}` },
    body: JSON.stringify({ testText }),
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`voice test: ${response.status} ${body}`);
  return performance.now() - started;
}

await voiceTest("Hello"); // the pool and the route are warm
for (let round = 0; round < rounds; round++) {
  let running = true;
  const turns = [];
  const voice = Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let i = 0; i < 3; i++) turns.push(await voiceTest(i % 2 ? "Can I speak to a person?" : "Hello"));
    }),
  ).finally(() => (running = false));
  const floor = [];
  while (running) {
    const started = performance.now();
    const response = await fetch(`${base}/api/subscription-plans`);
    await response.text();
    floor.push(performance.now() - started);
  }
  await voice;
  console.log(
    `round ${round + 1}: no-database request ×${floor.length} p50 ${percentile(floor, 50).toFixed(0)} ms, p95 ${percentile(floor, 95).toFixed(0)} ms, max ${Math.max(...floor).toFixed(0)} ms; ` +
      `voice turn ×${turns.length} p50 ${percentile(turns, 50).toFixed(0)} ms, p95 ${percentile(turns, 95).toFixed(0)} ms`,
  );
}
