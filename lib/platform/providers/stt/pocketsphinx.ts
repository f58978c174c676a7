import "server-only";
import { recognitionPool } from "@/lib/platform/providers/speech-pool";
import { SttError, type SttProvider, type Transcript } from "./interface";

/**
 * Offline transcription: CMU PocketSphinx from Debian's packages, run in the speech recognition
 * worker pool (./pocketsphinx-engine.mjs does the decoding). It reads a recording's bytes: WAV
 * (PCM 16-bit, μ-law or A-law, any rate, mono or stereo) or raw 8 kHz μ-law (`audio/basic`), as
 * Twilio records calls. Accuracy on clean 16 kHz speech is good; on 8 kHz phone audio it gets
 * roughly three words in four right (figures in docs/providers.md), enough to know who called and why.
 *
 * Selection is not here (it belongs with the other providers' selection): with no Deepgram key,
 * use `createOfflineStt()`, which is null when PocketSphinx is not installed, and show
 * `OFFLINE_STT_NOT_INSTALLED_MESSAGE` then.
 */

export const POCKETSPHINX_INSTALL_COMMAND = "apt-get install -y libpocketsphinx3 pocketsphinx-en-us";

export const OFFLINE_STT_NOT_INSTALLED_MESSAGE =
  `Transcription is not installed on this server: install PocketSphinx with \`${POCKETSPHINX_INSTALL_COMMAND}\` (as root), ` +
  "or add a Deepgram key in Settings → API Keys. The recording is kept.";

export type OfflineSttStatus =
  | { available: true; engine: "pocketsphinx"; modelDir: string }
  | { available: false; engine: "pocketsphinx"; reason: string; installCommand: string; message: string };

type EngineStatus = { available: true; modelDir: string } | { available: false; reason: string };

/** An unavailable answer is asked again after this long (someone may install the packages). */
const RECHECK_MS = 60_000;
let cached: { status: Promise<OfflineSttStatus>; at: number } | null = null;

/**
 * Whether offline transcription can run on this server: the worker loads libpocketsphinx and finds
 * the US English model. Remembered for the process once available.
 */
export function offlineSttStatus(): Promise<OfflineSttStatus> {
  if (cached) {
    const fresh = Date.now() - cached.at < RECHECK_MS;
    if (fresh) return cached.status;
  }
  const status = recognitionPool()
    .run<EngineStatus>("stt.status", {})
    .then((engine): OfflineSttStatus =>
      engine.available
        ? { available: true, engine: "pocketsphinx", modelDir: engine.modelDir }
        : {
            available: false,
            engine: "pocketsphinx",
            reason: engine.reason,
            installCommand: POCKETSPHINX_INSTALL_COMMAND,
            message: OFFLINE_STT_NOT_INSTALLED_MESSAGE,
          },
    );
  cached = { status, at: Date.now() };
  status.then(
    (s) => {
      if (s.available && cached?.status === status) cached = { status, at: Infinity };
    },
    () => {
      if (cached?.status === status) cached = null; // never remember a failed check
    },
  );
  return status;
}

/** PocketSphinx as an SttProvider (whether or not it is installed: check offlineSttStatus()). */
export function createPocketSphinxStt(): SttProvider {
  return {
    name: "pocketsphinx",
    async transcribe(input, options): Promise<Transcript> {
      if ("url" in input) {
        throw new SttError("Offline transcription reads the recording's bytes: download it first (PocketSphinx cannot fetch a URL)", "pocketsphinx");
      }
      // One copy into a buffer of its own, handed to the worker without a second copy.
      const audio = new Uint8Array(input.audio);
      try {
        return await recognitionPool().run<Transcript>(
          "stt.transcribe",
          { audio, contentType: input.contentType },
          { transfer: [audio.buffer], signal: options?.signal },
        );
      } catch (error) {
        if (options?.signal?.aborted) throw error;
        const message = (error as Error).message;
        throw new SttError(
          message.startsWith("PocketSphinx is not installed") ? `${message}. ${OFFLINE_STT_NOT_INSTALLED_MESSAGE}` : `Offline transcription failed: ${message}`,
          "pocketsphinx",
        );
      }
    },
  };
}

/** The offline transcriber when PocketSphinx is installed here, else null. */
export async function createOfflineStt(): Promise<SttProvider | null> {
  const status = await offlineSttStatus();
  return status.available ? createPocketSphinxStt() : null;
}
