// @ts-check
/**
 * 16-bit PCM helpers for the speech worker (lib/platform/providers/speech-worker.mjs): reading WAV files
 * (PCM 8/16-bit, μ-law, A-law; any rate, mono or stereo), G.711 μ-law both ways, mixing down to
 * mono, resampling, and writing a WAV. Plain JavaScript so that the worker runs it as it is.
 */

/** @typedef {{ samples: Int16Array; sampleRate: number }} Pcm */

const WAVE_FORMAT = { PCM: 1, ALAW: 6, MULAW: 7, EXTENSIBLE: 0xfffe };

/** G.711 μ-law byte → 16-bit linear sample. */
export function mulawToLinear(/** @type {number} */ byte) {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << exponent) - 0x84;
  return u & 0x80 ? -magnitude | 0 : magnitude; // | 0: no negative zero
}

/** 16-bit linear sample → G.711 μ-law byte. */
export function linearToMulaw(/** @type {number} */ sample) {
  const BIAS = 0x84;
  const CLIP = 32635;
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(Math.abs(sample), CLIP) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent -= 1;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** G.711 A-law byte → 16-bit linear sample. */
export function alawToLinear(/** @type {number} */ byte) {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 0x07;
  let magnitude = (a & 0x0f) << 4;
  magnitude = exponent === 0 ? magnitude + 8 : (magnitude + 0x108) << (exponent - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

const MULAW_TABLE = Int16Array.from({ length: 256 }, (_, i) => mulawToLinear(i));
const ALAW_TABLE = Int16Array.from({ length: 256 }, (_, i) => alawToLinear(i));

/** @param {Uint8Array} bytes */
export function decodeMulaw(bytes) {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = MULAW_TABLE[bytes[i]];
  return out;
}

/** @param {Int16Array} samples */
export function encodeMulaw(samples) {
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = linearToMulaw(samples[i]);
  return out;
}

/**
 * Reads a RIFF/WAVE file into interleaved 16-bit samples: PCM 16-bit, PCM 8-bit, μ-law or A-law
 * (also inside WAVE_FORMAT_EXTENSIBLE). Throws a readable error for anything else.
 * @param {Uint8Array} bytes
 * @returns {Pcm & { channels: number }}
 */
export function readWav(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (/** @type {number} */ at) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE") throw new Error("Not a WAV file (no RIFF/WAVE header)");
  /** @type {{ format: number; channels: number; sampleRate: number; bits: number } | null} */
  let fmt = null;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = dv.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt ") {
      let format = dv.getUint16(body, true);
      if (format === WAVE_FORMAT.EXTENSIBLE && size >= 26) format = dv.getUint16(body + 24, true); // the subformat GUID starts with the format code
      fmt = { format, channels: dv.getUint16(body + 2, true), sampleRate: dv.getUint32(body + 4, true), bits: dv.getUint16(body + 14, true) };
    } else if (id === "data") {
      if (!fmt) throw new Error("WAV data chunk before its fmt chunk");
      // Writers that stream leave the size at 0 or 0xFFFFFFFF: the rest of the file is the audio then.
      const available = bytes.length - body;
      const length = size === 0 || size > available ? available : size;
      return { ...decodeSamples(bytes.subarray(body, body + length), fmt), channels: fmt.channels, sampleRate: fmt.sampleRate };
    }
    at = body + size + (size % 2);
  }
  throw new Error("WAV file without a data chunk");
}

/**
 * @param {Uint8Array} data
 * @param {{ format: number; channels: number; sampleRate: number; bits: number }} fmt
 */
function decodeSamples(data, { format, channels, sampleRate, bits }) {
  if (channels < 1 || sampleRate < 1000) throw new Error(`Unsupported WAV: ${channels} channels at ${sampleRate} Hz`);
  if (format === WAVE_FORMAT.PCM && bits === 16) {
    const samples = new Int16Array(Math.floor(data.length / 2));
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let i = 0; i < samples.length; i++) samples[i] = dv.getInt16(i * 2, true);
    return { samples };
  }
  if (format === WAVE_FORMAT.PCM && bits === 8) return { samples: Int16Array.from(data, (b) => (b - 128) << 8) };
  if (format === WAVE_FORMAT.MULAW && bits === 8) return { samples: decodeMulaw(data) };
  if (format === WAVE_FORMAT.ALAW && bits === 8) return { samples: Int16Array.from(data, (b) => ALAW_TABLE[b]) };
  throw new Error(`Unsupported WAV encoding (format ${format}, ${bits}-bit): expected PCM 16-bit, μ-law or A-law`);
}

/**
 * Averages interleaved channels into one.
 * @param {Int16Array} samples
 * @param {number} channels
 */
export function toMono(samples, channels) {
  if (channels === 1) return samples;
  const frames = Math.floor(samples.length / channels);
  const out = new Int16Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += samples[f * channels + c];
    out[f] = Math.round(sum / channels);
  }
  return out;
}

/**
 * Resamples by linear interpolation between neighbouring samples. Going down in rate, each
 * source sample is first averaged with its neighbours over one output period (a crude low-pass
 * that keeps most aliasing out). Going up (8 kHz telephone audio → 16 kHz for the recogniser) it
 * is plain interpolation, on purpose: the 16 kHz acoustic model recognised upsampled 8 kHz μ-law
 * speech far better this way than after a band-limited resampler such as sox's, whose empty band
 * above 4 kHz it does not expect (~76% of words against ~10%, ../shared/ARCHITECTURE.md).
 * @param {Int16Array} samples
 * @param {number} from
 * @param {number} to
 */
export function resampleLinear(samples, from, to) {
  if (from === to || samples.length === 0) return samples;
  let source = samples;
  if (from > to) {
    const width = Math.round(from / to);
    if (width > 1) {
      source = new Int16Array(samples.length);
      const half = Math.floor(width / 2);
      for (let i = 0; i < samples.length; i++) {
        let sum = 0;
        let n = 0;
        for (let k = i - half; k < i - half + width; k++) {
          if (k >= 0 && k < samples.length) {
            sum += samples[k];
            n += 1;
          }
        }
        source[i] = Math.round(sum / n);
      }
    }
  }
  const length = Math.max(1, Math.round((source.length * to) / from));
  const out = new Int16Array(length);
  const step = from / to;
  for (let i = 0; i < length; i++) {
    const x = i * step;
    const i0 = Math.floor(x);
    const i1 = Math.min(i0 + 1, source.length - 1);
    const frac = x - i0;
    out[i] = Math.round(source[Math.min(i0, source.length - 1)] * (1 - frac) + source[i1] * frac);
  }
  return out;
}

/**
 * A mono 16-bit PCM WAV (44-byte header) in a fresh ArrayBuffer, ready to be transferred.
 * @param {Int16Array} samples
 * @param {number} sampleRate
 */
export function writeWav(samples, sampleRate) {
  const dataLength = samples.length * 2;
  const buffer = new ArrayBuffer(44 + dataLength);
  const dv = new DataView(buffer);
  const ascii = (/** @type {number} */ at, /** @type {string} */ text) => {
    for (let i = 0; i < text.length; i++) dv.setUint8(at + i, text.charCodeAt(i));
  };
  ascii(0, "RIFF");
  dv.setUint32(4, 36 + dataLength, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  dv.setUint32(16, 16, true);
  dv.setUint16(20, 1, true);
  dv.setUint16(22, 1, true);
  dv.setUint32(24, sampleRate, true);
  dv.setUint32(28, sampleRate * 2, true);
  dv.setUint16(32, 2, true);
  dv.setUint16(34, 16, true);
  ascii(36, "data");
  dv.setUint32(40, dataLength, true);
  for (let i = 0; i < samples.length; i++) dv.setInt16(44 + i * 2, samples[i], true);
  return buffer;
}
