import "server-only";
import { synthesisPool } from "@/lib/platform/providers/speech-pool";
import { TtsError, type SpeechEngine, type SpeechVoice, type SynthesisOptions, type SynthesisResult, type TtsProvider } from "./interface";
import { speakableSpanishText, speakableText } from "./speakable-text";
import { speechLanguage } from "./speech-language";

type WorkerResult = { wav: ArrayBuffer; durationMs: number };

/** eSpeak NG's Latin American Spanish voice; "+f3" is its female variant. */
const SPANISH_VOICE = "es-419";
const SPANISH_FEMALE_VARIANT = "+f3";

/**
 * The engine that speaks `text` offline: eSpeak NG for Spanish (flite has English voices only),
 * flite for everything else. Part of the speech cache key (lib/channels/phone-line/voice/runtime.ts), so a
 * clip of one engine is never replayed for a line the other would speak.
 */
export function offlineSpeechEngine(text: string, language?: string): Extract<SpeechEngine, "flite" | "espeak-ng"> {
  return speechLanguage(text, language) === "es" ? "espeak-ng" : "flite";
}

/**
 * The offline synthesizer, in the speech worker pool: no network, and the server's event loop stays
 * free while it speaks. English (the default) is spoken by flite (WebAssembly), each voice's
 * `offline` mapping (lib/agents/assistants/voices.ts) picking the flite voice and its pitch and pace;
 * Spanish text (detected, or `options.language`) by eSpeak NG (WebAssembly), female or male as the
 * flite voice is (slt is flite's one female voice) and at the voice's pace. Output either way:
 * WAV, 16 kHz, mono, 16-bit.
 */
export function createOfflineTts(): TtsProvider {
  async function render(text: string, voice: SpeechVoice, options?: SynthesisOptions): Promise<{ audio: Buffer; engine: SpeechEngine }> {
    const signal = options?.signal;
    const { voice: fliteVoice, pitchMeanHz, durationStretch }: SpeechVoice["offline"] = voice.offline;
    const engine = offlineSpeechEngine(text, options?.language);
    try {
      const result =
        engine === "espeak-ng"
          ? await synthesisPool().run<WorkerResult>(
              "tts.synthesize-espeak",
              { text: speakableSpanishText(text), voice: SPANISH_VOICE + (fliteVoice === "slt" ? SPANISH_FEMALE_VARIANT : ""), durationStretch },
              { signal },
            )
          : await synthesisPool().run<WorkerResult>(
              "tts.synthesize",
              { text: speakableText(text), voice: fliteVoice, pitchMeanHz, durationStretch },
              { signal },
            );
      return { audio: Buffer.from(result.wav), engine }; // the worker transferred the buffer: no copy
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new TtsError(`The offline synthesizer failed: ${(error as Error).message}`, "offline");
    }
  }
  return {
    name: "offline",
    contentType: "audio/wav",
    async synthesize(text, voice, options): Promise<SynthesisResult> {
      const { audio, engine } = await render(text, voice, options);
      return { audio, contentType: "audio/wav", engine };
    },
    async *synthesizeStream(text, voice, options) {
      // Both engines render a whole clip at once: one chunk.
      yield (await render(text, voice, options)).audio;
    },
  };
}
