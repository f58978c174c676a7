import { offlineTts } from "@/lib/workspace/provider-selection/tts";

/** 0.1 s of 8 kHz 16-bit mono silence (a valid WAV). */
export function silentWav(): Buffer {
  const samples = 800;
  const b = Buffer.alloc(44 + samples * 2);
  b.write("RIFF", 0);
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write("WAVE", 8);
  b.write("fmt ", 12);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write("data", 36);
  b.writeUInt32LE(samples * 2, 40);
  return b;
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
