import "server-only";
import { synthesisPool } from "@/lib/providers/speech-pool";
import { TtsError, type SpeechVoice, type SynthesisResult, type TtsProvider } from "./interface";
import { speakableText } from "./speakable-text";

type FliteResult = { wav: ArrayBuffer; durationMs: number };

/**
 * The offline synthesizer: flite (WebAssembly) in the speech worker pool, no network, and the
 * server's event loop stays free while it speaks. Each voice's `offline` mapping
 * (lib/assistants/voices.ts) picks the flite voice and its pitch and pace. Output: WAV, 16 kHz,
 * mono, 16-bit.
 */
export function createOfflineTts(): TtsProvider {
  async function render(text: string, voice: SpeechVoice, signal?: AbortSignal): Promise<Buffer> {
    const { voice: fliteVoice, pitchMeanHz, durationStretch }: SpeechVoice["offline"] = voice.offline;
    try {
      const result = await synthesisPool().run<FliteResult>(
        "tts.synthesize",
        { text: speakableText(text), voice: fliteVoice, pitchMeanHz, durationStretch },
        { signal },
      );
      return Buffer.from(result.wav); // the worker transferred the buffer: no copy
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new TtsError(`The offline synthesizer failed: ${(error as Error).message}`, "offline");
    }
  }
  return {
    name: "offline",
    contentType: "audio/wav",
    async synthesize(text, voice, options): Promise<SynthesisResult> {
      return { audio: await render(text, voice, options?.signal), contentType: "audio/wav" };
    },
    async *synthesizeStream(text, voice, options) {
      // flite renders a whole clip at once (tens of milliseconds): one chunk.
      yield await render(text, voice, options?.signal);
    },
  };
}
