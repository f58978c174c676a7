// @ts-check
/**
 * The speech worker: one thread of the speech pools (lib/platform/providers/speech-pool.ts). It runs the
 * CPU-heavy offline speech work away from the server's event loop: flite synthesis
 * (./tts/flite-engine.mjs), eSpeak NG synthesis of Spanish (./tts/espeak-engine.mjs) and
 * PocketSphinx recognition (./stt/pocketsphinx-engine.mjs).
 *
 * Started by path at run time (never bundled), so it is plain JavaScript importing plain JavaScript.
 */
import { serveTasks, withTransfer } from "../workers/serve-tasks.mjs";
import { lowerThreadPriority } from "../workers/thread-priority.mjs";
import { pocketSphinxStatus, transcribePocketSphinx } from "./stt/pocketsphinx-engine.mjs";
import { synthesizeEspeak } from "./tts/espeak-engine.mjs";
import { synthesizeFlite } from "./tts/flite-engine.mjs";

// Below the event loop: while both want a core, the server keeps answering requests first.
// 10 of 19: the workers still take every cycle the event loop leaves.
const nice = lowerThreadPriority(10);

serveTasks({
  "worker.info"() {
    return { nice };
  },
  /** @param {import("./tts/flite-engine.mjs").FliteRequest} request */
  async "tts.synthesize"(request) {
    const result = await synthesizeFlite(request);
    return withTransfer(result, [result.wav]);
  },
  /** @param {import("./tts/espeak-engine.mjs").EspeakRequest} request */
  async "tts.synthesize-espeak"(request) {
    const result = await synthesizeEspeak(request);
    return withTransfer(result, [result.wav]);
  },
  /** @param {{ modelDir?: string }} request */
  "stt.status"(request) {
    return pocketSphinxStatus(request?.modelDir);
  },
  /** @param {{ audio: Uint8Array; contentType?: string; modelDir?: string }} request */
  "stt.transcribe"(request) {
    return transcribePocketSphinx(request);
  },
});
