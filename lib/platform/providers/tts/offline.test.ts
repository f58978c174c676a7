/**
 * The offline synthesizer: flite (WebAssembly) in the speech worker pool, eSpeak NG for Spanish. Every clip is a real,
 * playable WAV (RIFF/WAVE, PCM, one channel, 16 kHz, 16-bit) whose length fits the sentence; the
 * assistant voices sound as their descriptions say (pitch and pace measured on the audio); long
 * replies and many syntheses in one process keep working; the event loop stays free meanwhile.
 */
import { resolveVoice, voices, type FliteVoice } from "@/lib/agents/assistants/voices";
import { closeSpeechPools, synthesisPool } from "@/lib/platform/providers/speech-pool";
import { concatWav, parseWav } from "@/lib/phone/voice/audio";
import { watchEventLoop } from "@/tests/helpers/event-loop";
import { medianPitchHz, wavSamples } from "@/tests/helpers/speech-audio";
import { collect, TtsError } from "./interface";
import { createOfflineTts } from "./offline";
import { speakableText } from "./speakable-text";

const tts = createOfflineTts();
afterAll(() => closeSpeechPools());

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

const WAV_16K = { riff: "RIFF", wave: "WAVE", fmt: "fmt ", audioFormat: 1, channels: 1, sampleRate: 16000, byteRate: 32000, bitsPerSample: 16 };

function peak(audio: Buffer): number {
  const { samples } = wavSamples(audio);
  return samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
}

describe("offline speech synthesis (flite in the worker pool)", () => {
  it("renders a sentence as a 16 kHz mono 16-bit PCM WAV of a plausible length", async () => {
    const { audio, contentType } = await tts.synthesize("Thanks for calling Harbor Dental Studio. How can I help you today?", resolveVoice("alloy"));
    expect(contentType).toBe("audio/wav");
    expect(header(audio)).toEqual(WAV_16K);
    expect(audio.readUInt32LE(4)).toBe(audio.length - 8);
    const wav = parseWav(audio);
    expect(wav.dataLength).toBe(audio.length - wav.dataOffset);
    // Twelve words: about three to five seconds of speech.
    expect(wav.durationMs).toBeGreaterThan(2500);
    expect(wav.durationMs).toBeLessThan(7000);
    expect(peak(audio)).toBeGreaterThan(5000); // speech, not silence
  });

  it("renders with each of flite's five voices, at 16 kHz every one (kal's 8 kHz is upsampled)", async () => {
    const clips = new Map<FliteVoice, Buffer>();
    for (const voice of ["awb", "kal", "kal16", "rms", "slt"] as const) {
      const { wav } = await synthesisPool().run<{ wav: ArrayBuffer }>("tts.synthesize", { text: "Hello there, how are you?", voice });
      const audio = Buffer.from(wav);
      expect(header(audio)).toEqual(WAV_16K);
      expect(parseWav(audio).durationMs).toBeGreaterThan(700);
      expect(peak(audio)).toBeGreaterThan(3000);
      clips.set(voice, audio);
    }
    expect(new Set([...clips.values()].map((a) => a.toString("base64"))).size).toBe(5);
  });

  it("gives each assistant voice the sound its description promises", async () => {
    const text = "Thanks for calling. We are open Monday to Friday from nine to five.";
    const measured = new Map<string, { pitch: number; seconds: number }>();
    for (const voice of voices) {
      const { audio } = await tts.synthesize(text, voice);
      const { samples, sampleRate } = wavSamples(audio);
      measured.set(voice.id, { pitch: medianPitchHz(samples, sampleRate), seconds: samples.length / sampleRate });
    }
    const m = (id: string) => measured.get(id)!;
    // Female voices speak higher than male ones.
    for (const female of ["alloy", "nova", "shimmer"]) for (const male of ["echo", "fable", "onyx"]) expect(m(female).pitch).toBeGreaterThan(m(male).pitch + 20);
    // Onyx is the deep one; Nova bright and quick; Shimmer soft and slower.
    expect(m("onyx").pitch).toBeLessThan(Math.min(m("echo").pitch, m("fable").pitch));
    expect(m("nova").pitch).toBeGreaterThan(m("alloy").pitch + 15);
    expect(m("nova").seconds).toBeLessThan(m("alloy").seconds * 0.95);
    expect(m("shimmer").pitch).toBeLessThan(m("alloy").pitch - 5);
    expect(m("shimmer").seconds).toBeGreaterThan(m("alloy").seconds * 1.05);
  });

  it("streams one chunk that is the whole clip", async () => {
    const audio = await collect(tts.synthesizeStream("One moment please.", resolveVoice("nova")));
    expect(header(audio)).toEqual(WAV_16K);
    expect(parseWav(audio).durationMs).toBeGreaterThan(500);
  });

  it("speaks a long reply (2,000 characters) in pieces joined into one clip", async () => {
    const sentence = "Thanks for calling Harbor Dental Studio, how can I help you today? ";
    const { audio } = await tts.synthesize(sentence.repeat(30), resolveVoice("echo"));
    const seconds = parseWav(audio).durationMs / 1000;
    const one = parseWav((await tts.synthesize(sentence, resolveVoice("echo"))).audio).durationMs / 1000;
    expect(seconds).toBeGreaterThan(one * 25);
    expect(seconds).toBeLessThan(one * 35);
  });

  it("keeps working over many syntheses at once, and the event loop stays free meanwhile", async () => {
    const stopWatching = watchEventLoop();
    const clips = await Promise.all(
      Array.from({ length: 40 }, (_, i) => tts.synthesize(`Sure, your number is ${i}.`, voices[i % voices.length])),
    );
    const longestGap = stopWatching();
    for (const { audio } of clips) expect(parseWav(audio).durationMs).toBeGreaterThan(500);
    expect(longestGap).toBeLessThan(250);
    expect(synthesisPool().stats().crashes).toBe(0);
  });

  it("joins clips under one header whose duration is the sum", async () => {
    const a = (await tts.synthesize("First sentence.", resolveVoice("alloy"))).audio;
    const b = (await tts.synthesize("Second sentence.", resolveVoice("fable"))).audio;
    const joined = parseWav(concatWav([a, b]));
    expect(joined.dataLength).toBe(parseWav(a).dataLength + parseWav(b).dataLength);
    expect(joined.sampleRate).toBe(16000);
  });

  it("reports a failure as a TtsError", async () => {
    const broken = { ...resolveVoice("alloy"), offline: { voice: "hal9000" } } as unknown as Parameters<typeof tts.synthesize>[1];
    const error = await tts.synthesize("Hello.", broken).catch((e) => e);
    expect(error).toBeInstanceOf(TtsError);
    expect(error.message).toMatch(/The offline synthesizer failed: Unknown flite voice "hal9000"/);
  });
});

describe("offline speech synthesis in Spanish (eSpeak NG in the worker pool)", () => {
  const reply = "Gracias por llamar a la Clínica Dental Harbor. Su cita está reservada para el martes a las tres de la tarde.";

  it("speaks a Spanish sentence with eSpeak NG as a 16 kHz mono WAV of a plausible length", async () => {
    const { audio, contentType, engine } = await tts.synthesize(reply, resolveVoice("alloy"));
    expect(engine).toBe("espeak-ng");
    expect(contentType).toBe("audio/wav");
    expect(header(audio)).toEqual(WAV_16K);
    expect(audio.readUInt32LE(4)).toBe(audio.length - 8);
    // Twenty words: about five to nine seconds of speech.
    const wav = parseWav(audio);
    expect(wav.durationMs).toBeGreaterThan(4500);
    expect(wav.durationMs).toBeLessThan(10_000);
    expect(peak(audio)).toBeGreaterThan(5000);
  });

  it("keeps English on flite, and follows an explicit language either way", async () => {
    expect((await tts.synthesize("Thanks for calling. How can I help you today?", resolveVoice("alloy"))).engine).toBe("flite");
    expect((await tts.synthesize("Is Dr. Peña in today?", resolveVoice("alloy"))).engine).toBe("flite");
    expect((await tts.synthesize("Gracias.", resolveVoice("alloy"))).engine).toBe("espeak-ng");
    const forced = await tts.synthesize("Harbor Dental", resolveVoice("alloy"), { language: "es-MX" });
    expect(forced.engine).toBe("espeak-ng");
    expect((await tts.synthesize("Hola, gracias por llamar.", resolveVoice("alloy"), { language: "en" })).engine).toBe("flite");
  });

  it("speaks Spanish in a female voice for the female assistants and at each voice's pace", async () => {
    const text = "Estamos abiertos de lunes a viernes, de nueve a cinco.";
    const measure = async (id: string) => {
      const { samples, sampleRate } = wavSamples((await tts.synthesize(text, resolveVoice(id))).audio);
      return { pitch: medianPitchHz(samples, sampleRate), seconds: samples.length / sampleRate };
    };
    const alloy = await measure("alloy");
    const echo = await measure("echo");
    const shimmer = await measure("shimmer");
    expect(alloy.pitch).toBeGreaterThan(echo.pitch + 20);
    expect(shimmer.seconds).toBeGreaterThan(alloy.seconds * 1.05);
  });

  it("joins a Spanish clip and an English clip into one reply", async () => {
    const es = (await tts.synthesize("Un momento, por favor.", resolveVoice("nova"))).audio;
    const en = (await tts.synthesize("One moment please.", resolveVoice("nova"))).audio;
    const joined = parseWav(concatWav([es, en]));
    expect(joined.dataLength).toBe(parseWav(es).dataLength + parseWav(en).dataLength);
  });

  it("keeps the event loop free while many Spanish lines are spoken", async () => {
    const stopWatching = watchEventLoop();
    const clips = await Promise.all(Array.from({ length: 12 }, (_, i) => tts.synthesize(`Claro, su número es el ${i}.`, voices[i % voices.length])));
    const longestGap = stopWatching();
    for (const clip of clips) {
      expect(clip.engine).toBe("espeak-ng");
      expect(parseWav(clip.audio).durationMs).toBeGreaterThan(800);
    }
    expect(longestGap).toBeLessThan(250);
    expect(synthesisPool().stats().crashes).toBe(0);
  });

  it("streams one chunk that is the whole Spanish clip", async () => {
    const audio = await collect(tts.synthesizeStream("¿En qué puedo ayudarle?", resolveVoice("echo")));
    expect(header(audio)).toEqual(WAV_16K);
    expect(parseWav(audio).durationMs).toBeGreaterThan(800);
  });
});

describe("speakableText", () => {
  it("makes plain ASCII that flite reads well", () => {
    expect(speakableText("Café open Mon–Fri, 8 AM–6 PM… “Welcome”")).toBe('Cafe open Monday to Friday, 8 AM to 6 PM... "Welcome"');
    expect(speakableText("Hours: Mon-Sat 9–5, Sun closed. Smith & Sons")).toBe("Hours: Monday-Saturday 9 to 5, Sunday closed. Smith and Sons");
    expect(speakableText("Call (555) 123-4567")).toBe("Call (555) 123-4567");
    expect(speakableText("  \n ")).toBe(".");
  });
});
