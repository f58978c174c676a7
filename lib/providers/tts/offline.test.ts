/**
 * The offline synthesizer produces a real, playable WAV: RIFF/WAVE, PCM, 1 channel, 22,050 Hz,
 * 16-bit, with a duration that fits the sentence — and keeps doing so past the 80 runs after which
 * one meSpeak engine corrupts itself (the driver replaces its engine before that).
 */
import { resolveVoice, voices } from "@/lib/assistants/voices";
import { concatWav, parseWav } from "@/lib/voice/audio";
import { createOfflineTts } from "./offline";
import { speakableText } from "./mespeak-engine";
import { collect } from "./interface";

const tts = createOfflineTts();

function header(buf: Buffer) {
  return {
    riff: buf.toString("ascii", 0, 4),
    wave: buf.toString("ascii", 8, 12),
    fmt: buf.toString("ascii", 12, 16),
    audioFormat: buf.readUInt16LE(20),
    channels: buf.readUInt16LE(22),
    sampleRate: buf.readUInt32LE(24),
    byteRate: buf.readUInt32LE(28),
    bitsPerSample: buf.readUInt16LE(34),
  };
}

describe("offline speech synthesis (meSpeak)", () => {
  it("renders a sentence as a 22,050 Hz mono 16-bit PCM WAV longer than 0.3 s", async () => {
    const { audio, contentType } = await tts.synthesize("Thanks for calling Harbor Dental Studio. How can I help you today?", resolveVoice("alloy"));
    expect(contentType).toBe("audio/wav");
    expect(header(audio)).toEqual({
      riff: "RIFF",
      wave: "WAVE",
      fmt: "fmt ",
      audioFormat: 1,
      channels: 1,
      sampleRate: 22050,
      byteRate: 44100,
      bitsPerSample: 16,
    });
    expect(audio.readUInt32LE(4)).toBe(audio.length - 8);
    const wav = parseWav(audio);
    expect(wav.dataLength).toBe(audio.length - wav.dataOffset);
    expect(wav.durationMs).toBeGreaterThan(300);
    expect(wav.durationMs).toBeLessThan(15_000);
    // Not silence: real samples with some amplitude.
    let peak = 0;
    for (let i = wav.dataOffset; i + 1 < audio.length; i += 2) peak = Math.max(peak, Math.abs(audio.readInt16LE(i)));
    expect(peak).toBeGreaterThan(1000);
  });

  it("renders every assistant voice, and voices sound different", async () => {
    const sizes = new Set<number>();
    for (const voice of voices) {
      const { audio } = await tts.synthesize("Hello there.", voice);
      expect(parseWav(audio).durationMs).toBeGreaterThan(200);
      sizes.add(audio.length);
    }
    expect(sizes.size).toBeGreaterThan(1);
  });

  it("streams one chunk that is the whole clip", async () => {
    const audio = await collect(tts.synthesizeStream("One moment please.", resolveVoice("nova")));
    expect(parseWav(audio).durationMs).toBeGreaterThan(300);
  });

  it("keeps working past 80 syntheses in one process", async () => {
    for (let i = 0; i < 120; i++) {
      const { audio } = await tts.synthesize(`Sure, number ${i}.`, resolveVoice("echo"));
      expect(audio.length).toBeGreaterThan(1000);
    }
  });

  it("joins clips under one header whose duration is the sum", async () => {
    const a = (await tts.synthesize("First sentence.", resolveVoice("alloy"))).audio;
    const b = (await tts.synthesize("Second sentence.", resolveVoice("alloy"))).audio;
    const joined = parseWav(concatWav([a, b]));
    expect(joined.dataLength).toBe(parseWav(a).dataLength + parseWav(b).dataLength);
    expect(joined.sampleRate).toBe(22050);
  });

  it("reads text the engine can speak (no accents, dashes as 'to')", () => {
    expect(speakableText("Café open Mon–Fri, 8 AM–6 PM… “Welcome”")).toBe('Cafe open Mon to Fri, 8 AM to 6 PM... "Welcome"');
  });
});
