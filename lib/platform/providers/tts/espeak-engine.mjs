// @ts-check
/**
 * Offline Spanish speech with eSpeak NG compiled to WebAssembly by Emscripten:
 * `@echogarden/espeak-ng-emscripten` 0.3 (GPL-3.0), its voice data (espeak-ng.data, ~24 MB, every
 * language) shipped in the package and read from node_modules — nothing is downloaded. flite has
 * English voices only; this is the offline voice for Spanish text (lib/platform/providers/tts/offline.ts
 * decides which engine speaks a line). Runs inside the speech worker, never on the event loop.
 *
 * The module is loaded once per worker, the first time that worker speaks Spanish (~0.4 s, then
 * kept: eSpeak keeps no state between utterances beyond its voice settings, which are set for
 * every utterance). eSpeak speaks at 22,050 Hz; the clip is resampled to flite's 16 kHz mono
 * 16-bit WAV, so that clips of both engines can be joined into one reply.
 */
import { resampleLinear, writeWav } from "../pcm.mjs";

export const ESPEAK_SAMPLE_RATE_OUT = 16_000;
/** eSpeak's default pace, in words per minute (the voice's `durationStretch` divides it). */
const DEFAULT_RATE_WPM = 175;

/** @typedef {{ text: string; voice: string; durationStretch?: number }} EspeakRequest */

/** @type {Promise<any> | null} */
let worker = null;

/** The eSpeak NG instance of this worker thread (a failed load is retried on the next call). */
function espeakWorker() {
  if (!worker) {
    worker = import("@echogarden/espeak-ng-emscripten").then(async ({ default: initialize }) => {
      const espeak = await initialize();
      return new espeak.eSpeakNGWorker();
    });
    worker.catch(() => (worker = null));
  }
  return worker;
}

/**
 * Speaks `text` with an eSpeak NG voice ("es-419", "es-419+f3", …) and returns a 16 kHz mono WAV
 * in a transferable ArrayBuffer.
 * @param {EspeakRequest} request
 * @returns {Promise<{ wav: ArrayBuffer; durationMs: number; engine: "espeak-ng" }>}
 */
export async function synthesizeEspeak({ text, voice, durationStretch }) {
  const espeak = await espeakWorker();
  if (espeak.set_voice(voice) !== 0) throw new Error(`Unknown eSpeak NG voice "${voice}"`);
  espeak.set_rate(Math.round(DEFAULT_RATE_WPM / (durationStretch || 1)));
  const sampleRate = espeak.get_samplerate();
  /** @type {Int16Array[]} */
  const parts = [];
  // Synchronous: eSpeak calls back with each block of samples (a copy of its heap), false = go on.
  espeak.synthesize(text.trim() || ".", (/** @type {Int16Array} */ samples) => {
    parts.push(samples);
    return false;
  });
  const total = parts.reduce((n, p) => n + p.length, 0);
  if (total === 0) throw new Error("eSpeak NG produced no audio");
  const joined = new Int16Array(total);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  const samples = resampleLinear(joined, sampleRate, ESPEAK_SAMPLE_RATE_OUT);
  return {
    wav: writeWav(samples, ESPEAK_SAMPLE_RATE_OUT),
    durationMs: Math.round((samples.length / ESPEAK_SAMPLE_RATE_OUT) * 1000),
    engine: "espeak-ng",
  };
}
