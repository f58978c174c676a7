// @ts-check
/**
 * Offline speech of a typical reply, Spanish (eSpeak NG) against English (flite): the engines the
 * speech worker runs (lib/platform/providers/tts/*-engine.mjs), called here on one thread so that the CPU
 * they use can be read. The real-time factor is CPU time ÷ audio length (wall time too, which on a
 * shared machine includes waiting for a core). The first synthesis of each engine (loading it) is
 * reported apart. `node scripts/bench-spanish-speech.mjs [runs]`
 */
import os from "node:os";
import { synthesizeEspeak } from "../lib/platform/providers/tts/espeak-engine.mjs";
import { synthesizeFlite } from "../lib/platform/providers/tts/flite-engine.mjs";

const runs = Number(process.argv[2] ?? 20);
const cases = [
  {
    engine: "espeak-ng",
    text: "Claro, le reservé una cita para el martes ocho de diciembre a las tres de la tarde con la doctora Chen. ¿Hay algo más en que pueda ayudarle?",
    speak: (/** @type {string} */ text) => synthesizeEspeak({ text, voice: "es-419+f3" }),
  },
  {
    engine: "flite",
    text: "Sure, I booked you with Doctor Chen on Tuesday, December 8th at 3 PM. Is there anything else I can help you with?",
    speak: (/** @type {string} */ text) => synthesizeFlite({ text, voice: "slt" }),
  },
];

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

console.log(`${runs} runs each · ${os.cpus().length} cores · load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
for (const { engine, text, speak } of cases) {
  const firstCpu = cpuMs();
  let started = performance.now();
  await speak(text);
  const firstMs = performance.now() - started;
  const firstCpuMs = cpuMs() - firstCpu;
  let audioMs = 0;
  const cpu0 = cpuMs();
  started = performance.now();
  for (let i = 0; i < runs; i++) audioMs += (await speak(text)).durationMs;
  const wallMs = performance.now() - started;
  const usedMs = cpuMs() - cpu0;
  console.log(
    `${engine.padEnd(9)} ${text.length} chars, ${(audioMs / runs / 1000).toFixed(2)} s of audio: ` +
      `CPU ${(usedMs / runs).toFixed(0)} ms (RTF ${(usedMs / audioMs).toFixed(3)}), wall ${(wallMs / runs).toFixed(0)} ms (RTF ${(wallMs / audioMs).toFixed(3)}); first ${firstMs.toFixed(0)} ms (CPU ${firstCpuMs.toFixed(0)} ms)`,
  );
}
