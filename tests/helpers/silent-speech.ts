import { wavHeader } from "@/lib/phone/voice/audio";
import { offlineTts } from "@/lib/workspace/provider-selection/tts";

/** 0.1 s of 8 kHz 16-bit mono silence (a valid WAV). */
export function silentWav(): Buffer {
  const silence = Buffer.alloc(1600);
  return Buffer.concat([wavHeader({ channels: 1, sampleRate: 8000, bitsPerSample: 16 }, silence.length), silence]);
}

/**
 * For tests graded by what was said and written, not by the audio: the offline voice answers with
 * a short silent clip, so a busy machine's speech synthesis cannot eat a call turn's time limit.
 */
export function silenceOfflineSpeech(): void {
  const silent = silentWav();
  Object.assign(offlineTts(), {
    synthesize: async () => ({ audio: silent, contentType: "audio/wav" }),
    synthesizeStream: async function* () {
      yield silent;
    },
  });
}
