import "server-only";
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- the voice table moves under lib/providers/tts with the flite voices
import type { Voice } from "@/lib/assistants/voices";
import { TtsError, type SynthesisResult, type TtsProvider } from "./interface";
import { speakWav } from "./mespeak-engine";

/**
 * The offline synthesizer: real speech from meSpeak (eSpeak) in the Node process, no network.
 * Each voice's `offline` mapping (lib/assistants/voices.ts) picks the eSpeak language voice, the
 * variant, pitch and speed. Output: WAV, 22,050 Hz, mono, 16-bit.
 */
export function createOfflineTts(): TtsProvider {
  function render(text: string, voice: Voice): Buffer {
    const { language, variant, pitch, speed } = voice.offline;
    try {
      return speakWav(text, { voice: `en/${language}`, variant, pitch, speed });
    } catch (error) {
      throw new TtsError(`The offline synthesizer failed: ${(error as Error).message}`, "offline");
    }
  }
  return {
    name: "offline",
    contentType: "audio/wav",
    async synthesize(text, voice): Promise<SynthesisResult> {
      return { audio: render(text, voice), contentType: "audio/wav" };
    },
    async *synthesizeStream(text, voice) {
      // eSpeak renders a whole clip at once (tens of milliseconds): one chunk.
      yield render(text, voice);
    },
  };
}
