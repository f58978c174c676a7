/**
 * Test helpers for speech recognition: telephone audio made from a clean 16 kHz clip, and how many
 * of a sentence's words a transcript recognised.
 */
import { encodeMulaw } from "@/lib/platform/providers/pcm.mjs";
import { parseWav, wavHeader } from "@/lib/phone/voice/audio";

/** Mono 16-bit samples of a PCM WAV. */
export function wavSamples(wav: Buffer): { samples: Int16Array; sampleRate: number } {
  const parsed = parseWav(wav);
  const samples = new Int16Array(parsed.dataLength / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = wav.readInt16LE(parsed.dataOffset + i * 2);
  return { samples, sampleRate: parsed.sampleRate };
}

/**
 * 16 kHz → 8 kHz as a telephone line does it: a low-pass below 3.4 kHz (a 63-tap windowed-sinc
 * filter), then every other sample.
 */
export function toTelephoneRate(samples: Int16Array): Int16Array {
  const taps = 63;
  const cutoff = 3400 / 16000;
  const kernel = Array.from({ length: taps }, (_, i) => {
    const n = i - (taps - 1) / 2;
    const sinc = n === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * n) / (Math.PI * n);
    return sinc * (0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (taps - 1)));
  });
  const out = new Int16Array(Math.floor(samples.length / 2));
  for (let o = 0; o < out.length; o++) {
    let sum = 0;
    for (let k = 0; k < taps; k++) {
      const i = o * 2 + k - (taps - 1) / 2;
      if (i >= 0 && i < samples.length) sum += samples[i] * kernel[k];
    }
    out[o] = Math.max(-32768, Math.min(32767, Math.round(sum)));
  }
  return out;
}

/** 8 kHz μ-law, headerless (Twilio Media Streams) or as a WAV of format 7 (a μ-law recording). */
export function mulawTelephone(samples16k: Int16Array, container: "raw" | "wav"): Buffer {
  const bytes = Buffer.from(encodeMulaw(toTelephoneRate(samples16k)));
  if (container === "raw") return bytes;
  const header = wavHeader({ channels: 1, sampleRate: 8000, bitsPerSample: 8 }, bytes.length);
  header.writeUInt16LE(7, 20); // WAVE_FORMAT_MULAW
  return Buffer.concat([header, bytes]);
}

/** 8 kHz 16-bit PCM stereo WAV with the same speech on both channels (a dual-channel recording). */
export function pcmTelephoneStereo(samples16k: Int16Array): Buffer {
  const mono = toTelephoneRate(samples16k);
  const data = Buffer.alloc(mono.length * 4);
  for (let i = 0; i < mono.length; i++) {
    data.writeInt16LE(mono[i], i * 4);
    data.writeInt16LE(mono[i], i * 4 + 2);
  }
  return Buffer.concat([wavHeader({ channels: 2, sampleRate: 8000, bitsPerSample: 16 }, data.length), data]);
}

const STOP_WORDS = new Set(
  "a an and are at be can do for from have how i i'm in is it me my of on or our so that the this to we what when with you your".split(" "),
);

const words = (text: string) => text.toLowerCase().replace(/[^a-z' ]+/g, " ").split(/\s+/).filter(Boolean);

/** The share of the reference's content words (stop words left out) that the transcript contains. */
export function contentWordRecall(reference: string, transcript: string): number {
  const wanted = words(reference).filter((w) => !STOP_WORDS.has(w));
  const heard = new Map<string, number>();
  for (const w of words(transcript)) heard.set(w, (heard.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of wanted) {
    const n = heard.get(w) ?? 0;
    if (n > 0) {
      found += 1;
      heard.set(w, n - 1);
    }
  }
  return wanted.length ? found / wanted.length : 0;
}

/**
 * The median pitch (Hz) of the voiced parts of a clip: autocorrelation over 40 ms frames, keeping
 * frames that are loud and clearly periodic.
 */
export function medianPitchHz(samples: Int16Array, sampleRate: number): number {
  const frame = Math.round(0.04 * sampleRate);
  const hop = Math.round(0.01 * sampleRate);
  const minLag = Math.floor(sampleRate / 400);
  const maxLag = Math.floor(sampleRate / 60);
  const pitches: number[] = [];
  for (let start = 0; start + frame + maxLag < samples.length; start += hop) {
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += samples[start + i] ** 2;
    if (Math.sqrt(energy / frame) < 800) continue;
    let bestLag = 0;
    let best = -Infinity;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let sum = 0;
      for (let i = 0; i < frame; i++) sum += samples[start + i] * samples[start + i + lag];
      if (sum > best) {
        best = sum;
        bestLag = lag;
      }
    }
    if (best > 0.4 * energy) pitches.push(sampleRate / bestLag);
  }
  pitches.sort((a, b) => a - b);
  return pitches.length ? pitches[Math.floor(pitches.length / 2)] : 0;
}
