/**
 * The PCM helpers of the speech worker: G.711 μ-law and A-law, WAV reading in the encodings phone
 * recordings come in, mixing down to mono, resampling and WAV writing.
 */
import { wavHeader } from "@/lib/phone/voice/audio";
import { alawToLinear, decodeMulaw, encodeMulaw, linearToMulaw, mulawToLinear, readWav, resampleLinear, toMono, writeWav } from "./pcm.mjs";
import { toRecognizerPcm } from "./stt/pocketsphinx-engine.mjs";

function wav(format: number, channels: number, sampleRate: number, bits: number, data: Buffer): Buffer {
  const header = wavHeader({ channels, sampleRate, bitsPerSample: bits }, data.length);
  header.writeUInt16LE(format, 20);
  return Buffer.concat([header, data]);
}

describe("G.711", () => {
  it("decodes μ-law's reference points and round-trips within its quantisation step", () => {
    expect(mulawToLinear(0xff)).toBe(0);
    expect(mulawToLinear(0x7f)).toBe(0);
    expect(mulawToLinear(0x80)).toBe(32124);
    expect(mulawToLinear(0x00)).toBe(-32124);
    expect(linearToMulaw(0)).toBe(0xff);
    for (const sample of [1, -1, 100, -100, 1000, -5000, 12345, 32767, -32768]) {
      const back = mulawToLinear(linearToMulaw(sample));
      expect(Math.sign(back) === Math.sign(sample) || back === 0).toBe(true);
      expect(Math.abs(back - Math.max(-32124, Math.min(32124, sample)))).toBeLessThanOrEqual(Math.max(8, Math.abs(sample) / 16));
    }
    const samples = Int16Array.from([0, 500, -500, 20000]);
    expect(Array.from(decodeMulaw(encodeMulaw(samples)))).toEqual(Array.from(samples, (s) => mulawToLinear(linearToMulaw(s))));
  });

  it("decodes A-law's reference points", () => {
    expect(alawToLinear(0xd5)).toBe(8);
    expect(alawToLinear(0x55)).toBe(-8);
    expect(alawToLinear(0xaa)).toBe(32256);
    expect(alawToLinear(0x2a)).toBe(-32256);
  });
});

describe("readWav", () => {
  it("reads PCM 16-bit stereo, μ-law, A-law, 8-bit PCM and WAVE_FORMAT_EXTENSIBLE", () => {
    const pcm = Buffer.alloc(8);
    [100, -100, 200, -200].forEach((s, i) => pcm.writeInt16LE(s, i * 2));
    expect(readWav(wav(1, 2, 8000, 16, pcm))).toEqual({ samples: Int16Array.from([100, -100, 200, -200]), channels: 2, sampleRate: 8000 });

    expect(Array.from(readWav(wav(7, 1, 8000, 8, Buffer.from([0xff, 0x80]))).samples)).toEqual([0, 32124]);
    expect(Array.from(readWav(wav(6, 1, 8000, 8, Buffer.from([0xd5]))).samples)).toEqual([8]);
    expect(Array.from(readWav(wav(1, 1, 8000, 8, Buffer.from([128, 255, 0]))).samples)).toEqual([0, 127 << 8, -128 << 8]);

    // WAVE_FORMAT_EXTENSIBLE: a 40-byte fmt chunk whose subformat GUID starts with the real format.
    const fmt = Buffer.alloc(48);
    fmt.write("fmt ", 0, "ascii");
    fmt.writeUInt32LE(40, 4);
    fmt.writeUInt16LE(0xfffe, 8);
    fmt.writeUInt16LE(1, 10);
    fmt.writeUInt32LE(8000, 12);
    fmt.writeUInt16LE(8, 22);
    fmt.writeUInt16LE(7, 32);
    const data = Buffer.concat([Buffer.from("data", "ascii"), Buffer.from([2, 0, 0, 0]), Buffer.from([0xff, 0x80])]);
    const riff = Buffer.concat([Buffer.from("RIFF\0\0\0\0WAVE", "ascii"), fmt, data]);
    expect(Array.from(readWav(riff).samples)).toEqual([0, 32124]);
  });

  it("reads a streamed WAV whose data size is unset, and skips chunks it does not know", () => {
    const pcm = Buffer.alloc(4);
    pcm.writeInt16LE(7, 0);
    pcm.writeInt16LE(-7, 2);
    const file = wav(1, 1, 16000, 16, pcm);
    file.writeUInt32LE(0xffffffff, 40);
    expect(Array.from(readWav(file).samples)).toEqual([7, -7]);
    const list = Buffer.concat([Buffer.from("LIST", "ascii"), Buffer.from([3, 0, 0, 0]), Buffer.from("abc\0", "ascii")]);
    const withList = Buffer.concat([file.subarray(0, 36), list, file.subarray(36)]);
    withList.writeUInt32LE(4, 36 + list.length + 4);
    expect(Array.from(readWav(withList).samples)).toEqual([7, -7]);
  });

  it("refuses what is not a WAV it can read", () => {
    expect(() => readWav(Buffer.from("ID3 not a wav file"))).toThrow("Not a WAV file");
    expect(() => readWav(wav(3, 1, 16000, 32, Buffer.alloc(8)))).toThrow("Unsupported WAV encoding (format 3, 32-bit)");
  });
});

describe("mono, resampling, writing", () => {
  it("averages channels", () => {
    expect(Array.from(toMono(Int16Array.from([100, 300, -10, 10]), 2))).toEqual([200, 0]);
  });

  it("upsamples 8 → 16 kHz by linear interpolation, and downsamples with a short average", () => {
    expect(Array.from(resampleLinear(Int16Array.from([0, 100, 200]), 8000, 16000))).toEqual([0, 50, 100, 150, 200, 200]);
    expect(Array.from(resampleLinear(Int16Array.from([0, 100, 0, 100]), 16000, 8000))).toEqual([0, 50]);
    const same = Int16Array.from([1, 2, 3]);
    expect(resampleLinear(same, 16000, 16000)).toBe(same);
    expect(resampleLinear(new Int16Array(44100), 44100, 16000)).toHaveLength(16000);
  });

  it("writes a canonical mono 16-bit WAV that reads back", () => {
    const buffer = writeWav(Int16Array.from([1, -2, 3]), 16000);
    expect(buffer.byteLength).toBe(50);
    expect(readWav(new Uint8Array(buffer))).toEqual({ samples: Int16Array.from([1, -2, 3]), channels: 1, sampleRate: 16000 });
  });

  it("brings any recording to 16 kHz mono for the recogniser, raw μ-law by its content type", () => {
    const raw = encodeMulaw(new Int16Array(8000).fill(1000));
    const fromRaw = toRecognizerPcm(raw, "audio/x-mulaw;rate=8000");
    expect(fromRaw.samples).toHaveLength(16000);
    expect(fromRaw.durationSeconds).toBe(1);
    expect(toRecognizerPcm(raw, "audio/basic").samples).toHaveLength(16000);
    expect(() => toRecognizerPcm(raw, "audio/mpeg")).toThrow(/Unsupported audio \(audio\/mpeg\)/);
    const stereo = wav(1, 2, 22050, 16, Buffer.alloc(22050 * 4));
    const fromStereo = toRecognizerPcm(stereo);
    expect(fromStereo.samples).toHaveLength(16000);
    expect(fromStereo.durationSeconds).toBe(1);
  });
});
