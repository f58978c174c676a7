// npm run bench:nlu — caller understanding's own cost (lib/agents/conversation/understanding/): how long the
// intent model takes to train on first use, and how long one `understand()` call and one
// `resolveWhen()` call take per utterance (p50 / p95 / max), over the corpus, the held-out phrasings
// and a set of long, entity-heavy turns, in both languages and with each expectation.
//
// Wall time and CPU time are both printed: on a shared machine a neighbour's build stretches wall
// time, not CPU time. BENCH_ROUNDS (3) repeats the utterance set.
import { performance } from "node:perf_hooks";

import { en } from "../lib/agents/conversation/understanding/corpus/en";
import { es } from "../lib/agents/conversation/understanding/corpus/es";
import { heldOutEnglish, heldOutSpanish } from "../lib/agents/conversation/understanding/fixtures/held-out";
import type { UnderstandingContext } from "../lib/agents/conversation/understanding";
import { percentile } from "./bench-support";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const LONG_TURNS = [
  "hi yeah this is tom baker i'd like to book a cleaning for the tuesday after next around 3 and my number is four one five five five five oh one oh oh",
  "um so i have an appointment on thursday but something came up can we move it to saturday at 11 instead same stylist",
  "hola buenas me llamo ana lópez y quería pedir una cita para un corte el martes que viene a las tres de la tarde",
  "hello i'm calling because there's water coming through the ceiling in the kitchen and i think a pipe burst upstairs",
  "can you have dr chen call me back at (415) 555-0100 sometime tomorrow morning it's about my crown",
];

function stats(samples: number[]): string {
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  return `p50 ${fmt(percentile(samples, 50))}  p95 ${fmt(percentile(samples, 95))}  max ${fmt(Math.max(...samples))}  (n=${samples.length})`;
}

async function main() {
  const ctx: UnderstandingContext = {
    now: new Date(),
    timeZone: "America/Chicago",
    services: ["Haircut", "Hair Color", "Blowout", "Teeth Cleaning", "Whitening", "Drain Cleaning", "Water Heater Repair"],
    people: ["Dr. Chen", "Maria Lopez (hygienist)", "Sam Ortiz (owner)"],
  };

  const rssBefore = process.memoryUsage().rss;
  const loadStarted = performance.now();
  const { resolveWhen, understand, warmUp } = await import("../lib/agents/conversation/understanding");
  console.log(`loading the module: ${(performance.now() - loadStarted).toFixed(0)} ms wall`);

  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await warmUp();
  const trainWall = performance.now() - started;
  const trainCpu = process.cpuUsage(cpuBefore);
  const corpusSize = [...Object.values(en), ...Object.values(es)].reduce((sum, list) => sum + (list?.length ?? 0), 0);
  console.log(`training (first use, ${corpusSize} phrasings, en + es): ${trainWall.toFixed(0)} ms wall, ${((trainCpu.user + trainCpu.system) / 1000).toFixed(0)} ms CPU`);
  console.log(`memory after loading and training: +${((process.memoryUsage().rss - rssBefore) / 1e6).toFixed(0)} MB RSS`);

  const utterances: { text: string; language?: "en" | "es" }[] = [
    ...[...Object.values(en), ...Object.values(heldOutEnglish)].flat().map((text) => ({ text: text!, language: undefined })),
    ...[...Object.values(es), ...Object.values(heldOutSpanish)].flat().map((text) => ({ text: text!, language: "es" as const })),
    ...LONG_TURNS.map((text) => ({ text })),
  ];
  const expectations: UnderstandingContext["expecting"][] = [null, "yes_no", "when", "name", "phone"];

  const understandMs: number[] = [];
  const understandCpuMs: number[] = [];
  const whenMs: number[] = [];
  const cpuLoop = process.cpuUsage();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, { text, language }] of utterances.entries()) {
      const expecting = expectations[i % expectations.length];
      let t = performance.now();
      const cpu = process.cpuUsage();
      await understand(text, { ...ctx, language, expecting });
      understandMs.push(performance.now() - t);
      const used = process.cpuUsage(cpu);
      understandCpuMs.push((used.user + used.system) / 1000);
      t = performance.now();
      resolveWhen(text, { now: ctx.now, timeZone: ctx.timeZone, language: language ?? "en" });
      whenMs.push(performance.now() - t);
    }
  }
  const loopCpu = process.cpuUsage(cpuLoop);
  console.log(`understand() per utterance, wall: ${stats(understandMs)}`);
  console.log(`understand() per utterance, CPU:  ${stats(understandCpuMs)}`);
  console.log(`resolveWhen() per utterance: ${stats(whenMs)}`);
  console.log(`CPU per understand() + resolveWhen() pair, mean: ${((loopCpu.user + loopCpu.system) / 1000 / understandMs.length).toFixed(2)} ms`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
