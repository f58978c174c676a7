// @ts-check
/**
 * Offline speech recognition with CMU PocketSphinx from Debian's packages (`libpocketsphinx3`,
 * `pocketsphinx-en-us`), called through the koffi FFI inside the speech worker
 * (lib/platform/providers/speech-worker.mjs): decoding blocks its thread for about half the length of the
 * audio, so it never runs on the server's event loop.
 *
 * One decoder per worker and model, loaded the first time it is needed and kept between recordings:
 * loading the model was nearly half the CPU of the health check's short probe. Nothing of one
 * recording reaches the next: each starts a new stream (`ps_start_stream`: the noise estimate starts
 * afresh, as in a freshly loaded decoder), and the model normalises the cepstral mean in batch
 * (`-cmn batch` in its feat.params) over the one full utterance. A test holds the same recording to
 * the same transcript and confidence before and after others (docs/providers.md). Audio is mixed
 * to mono and brought to 16 kHz, the rate of the general US English model; telephone audio (8 kHz,
 * μ-law or PCM) is upsampled by linear interpolation.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { decodeMulaw, readWav, resampleLinear, toMono } from "../pcm.mjs";

export const POCKETSPHINX_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";
const SAMPLE_RATE = 16_000;

/** @param {string} dir */
function modelFiles(dir) {
  return { hmm: path.join(dir, "en-us"), lm: path.join(dir, "en-us.lm.bin"), dict: path.join(dir, "cmudict-en-us.dict") };
}

/**
 * @typedef {{
 *   psArgs: () => unknown;
 *   parseArgs: (config: null, defn: unknown, argc: number, argv: string[], strict: number) => unknown;
 *   freeArgs: (config: unknown) => number;
 *   init: (config: unknown) => unknown;
 *   free: (ps: unknown) => number;
 *   startStream: (ps: unknown) => number;
 *   startUtt: (ps: unknown) => number;
 *   processRaw: (ps: unknown, data: Int16Array, n: number, noSearch: number, fullUtt: number) => number;
 *   endUtt: (ps: unknown) => number;
 *   getHyp: (ps: unknown, score: number[]) => string | null;
 *   getLogmath: (ps: unknown) => unknown;
 *   logmathExp: (logmath: unknown, value: number) => number;
 *   segIter: (ps: unknown) => unknown;
 *   segNext: (seg: unknown) => unknown;
 *   segWord: (seg: unknown) => string;
 *   segProb: (seg: unknown, ascr: number[], lscr: number[], lback: number[]) => number;
 * }} Bindings
 */

/** @type {Bindings | null} */
let bindings = null;

/** Loads libpocketsphinx and libsphinxbase through koffi (once per worker). */
function load() {
  if (bindings) return bindings;
  const require = createRequire(path.join(process.cwd(), "package.json"));
  const koffi = require("koffi");
  const ps = koffi.load("libpocketsphinx.so.3");
  const base = koffi.load("libsphinxbase.so.3");
  bindings = {
    psArgs: ps.func("void *ps_args()"),
    parseArgs: base.func("void *cmd_ln_parse_r(void *inout, void *defn, int argc, const char **argv, int strict)"),
    freeArgs: base.func("int cmd_ln_free_r(void *config)"),
    init: ps.func("void *ps_init(void *config)"),
    free: ps.func("int ps_free(void *ps)"),
    startStream: ps.func("int ps_start_stream(void *ps)"),
    startUtt: ps.func("int ps_start_utt(void *ps)"),
    processRaw: ps.func("int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)"),
    endUtt: ps.func("int ps_end_utt(void *ps)"),
    getHyp: ps.func("const char *ps_get_hyp(void *ps, _Out_ int *score)"),
    getLogmath: ps.func("void *ps_get_logmath(void *ps)"),
    logmathExp: base.func("double logmath_exp(void *logmath, int value)"),
    segIter: ps.func("void *ps_seg_iter(void *ps)"),
    segNext: ps.func("void *ps_seg_next(void *seg)"),
    segWord: ps.func("const char *ps_seg_word(void *seg)"),
    segProb: ps.func("int ps_seg_prob(void *seg, _Out_ int *ascr, _Out_ int *lscr, _Out_ int *lback)"),
  };
  return bindings;
}

/**
 * Whether PocketSphinx can run here: the shared libraries load and the model files exist.
 * @param {string} [modelDir]
 * @returns {{ available: true; modelDir: string } | { available: false; reason: string }}
 */
export function pocketSphinxStatus(modelDir = POCKETSPHINX_MODEL_DIR) {
  try {
    load();
  } catch (error) {
    return { available: false, reason: `libpocketsphinx could not be loaded (${/** @type {Error} */ (error).message})` };
  }
  const files = modelFiles(modelDir);
  const missing = [path.join(files.hmm, "mdef"), files.lm, files.dict].filter((file) => !fs.existsSync(file));
  if (missing.length) return { available: false, reason: `the US English model is missing (${missing.join(", ")})` };
  return { available: true, modelDir };
}

/**
 * Recording bytes → mono 16-bit samples at 16 kHz. A WAV (PCM 16/8-bit, μ-law, A-law; any rate,
 * any channel count), or headerless 8-bit μ-law when the content type says so (`audio/basic`,
 * `audio/x-mulaw`, `audio/mulaw;rate=8000`, `audio/pcmu`).
 * @param {Uint8Array} audio
 * @param {string} [contentType]
 */
export function toRecognizerPcm(audio, contentType = "") {
  const isRiff = audio.length >= 12 && String.fromCharCode(...audio.subarray(0, 4)) === "RIFF";
  if (isRiff) {
    const wav = readWav(audio);
    const mono = toMono(wav.samples, wav.channels);
    return { samples: resampleLinear(mono, wav.sampleRate, SAMPLE_RATE), durationSeconds: mono.length / wav.sampleRate };
  }
  if (/^audio\/(basic|x-mulaw|mulaw|pcmu|x-pcmu|u-?law)\b/i.test(contentType.trim())) {
    const rate = Number(/rate=(\d+)/i.exec(contentType)?.[1] ?? 8000);
    const samples = decodeMulaw(audio);
    return { samples: resampleLinear(samples, rate, SAMPLE_RATE), durationSeconds: samples.length / rate };
  }
  throw new Error(
    `Unsupported audio${contentType ? ` (${contentType})` : ""}: offline transcription reads WAV (PCM 16-bit, μ-law or A-law) or raw 8 kHz μ-law (audio/basic)`,
  );
}

/** Fillers and sentence markers in PocketSphinx's segmentation: <s>, </s>, <sil>, [NOISE], … */
const isFiller = (/** @type {string} */ word) => /^[<[]/.test(word);

/** This worker's decoders by model folder, each with the configuration it was made from. */
/** @type {Map<string, { decoder: unknown; config: unknown }>} */
const decoders = new Map();

/** The worker's decoder for a model folder, loading the model the first time. */
function decoderFor(/** @type {Bindings} */ api, /** @type {string} */ modelDir) {
  const kept = decoders.get(modelDir);
  if (kept) return kept;
  const files = modelFiles(modelDir);
  const argv = ["-hmm", files.hmm, "-lm", files.lm, "-dict", files.dict, "-logfn", "/dev/null"];
  const config = api.parseArgs(null, api.psArgs(), argv.length, argv, 1);
  if (!config) throw new Error("PocketSphinx refused its configuration");
  const decoder = api.init(config);
  if (!decoder) {
    api.freeArgs(config);
    throw new Error("PocketSphinx could not load its model");
  }
  const made = { decoder, config };
  decoders.set(modelDir, made);
  return made;
}

/** Frees a decoder that failed mid-recording; the next recording loads a new one. */
function discardDecoder(/** @type {Bindings} */ api, /** @type {string} */ modelDir) {
  const kept = decoders.get(modelDir);
  if (!kept) return;
  decoders.delete(modelDir);
  api.free(kept.decoder);
  api.freeArgs(kept.config);
}

/**
 * Transcribes one recording with the worker's decoder.
 * @param {{ audio: Uint8Array; contentType?: string; modelDir?: string }} request
 * @returns {{ transcript: string; confidence: number | null; durationSeconds: number }}
 */
export function transcribePocketSphinx({ audio, contentType, modelDir = POCKETSPHINX_MODEL_DIR }) {
  const status = pocketSphinxStatus(modelDir);
  if (!status.available) throw new Error(`PocketSphinx is not installed: ${status.reason}`);
  const { samples, durationSeconds } = toRecognizerPcm(audio, contentType);
  const api = load();
  const { decoder } = decoderFor(api, modelDir);
  try {
    if (api.startStream(decoder) < 0 || api.startUtt(decoder) < 0) throw new Error("PocketSphinx could not start decoding");
    // The whole recording at once, marked as a full utterance: the decoder then normalises the
    // cepstral mean over all of it instead of adapting as it goes. Content words recognised in
    // flite speech, averaged per voice (four voices, four sentences): through a simulated telephone
    // line (3.4 kHz low-pass, 8 kHz μ-law, upsampled) 56–96% against 17–81% when fed second by
    // second; at 16 kHz 90–96% against 83–96% (docs/providers.md).
    if (samples.length > 0 && api.processRaw(decoder, samples, samples.length, 0, 1) < 0) {
      throw new Error("PocketSphinx failed while decoding");
    }
    api.endUtt(decoder);
    const transcript = (api.getHyp(decoder, [0]) ?? "").trim();

    // Confidence: the mean posterior probability of the recognised words (fillers left out).
    const logmath = api.getLogmath(decoder);
    const posteriors = [];
    for (let seg = api.segIter(decoder); seg; seg = api.segNext(seg)) {
      const word = api.segWord(seg);
      if (word && !isFiller(word)) posteriors.push(api.logmathExp(logmath, api.segProb(seg, [0], [0], [0])));
    }
    const confidence = posteriors.length ? Math.round((posteriors.reduce((a, b) => a + b, 0) / posteriors.length) * 1000) / 1000 : null;
    return { transcript, confidence: transcript ? confidence : null, durationSeconds: Math.round(durationSeconds * 100) / 100 };
  } catch (error) {
    discardDecoder(api, modelDir);
    throw error;
  }
}
