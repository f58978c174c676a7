/**
 * Offline transcription with PocketSphinx (Debian's libpocketsphinx3 + pocketsphinx-en-us) in the
 * speech recognition pool, on speech made by the offline synthesizer: a clean 16 kHz clip, and the
 * same speech as a telephone line delivers it (3.4 kHz low-pass, 8 kHz, μ-law raw or in a WAV,
 * 16-bit PCM stereo). Thresholds are the share of content words recognised, set well under what
 * was measured on these sentences (16 kHz: 93–100%; telephone, male voice: 93–100%).
 *
 * Without the packages these tests fail, naming the install command; SKIP_POCKETSPHINX=1 skips
 * them on a machine that cannot install them (CI installs them).
 */
import { resolveVoice } from "@/lib/agents/assistants/voices";
import { closeSpeechPools, configureSpeechPools, recognitionPool } from "@/lib/platform/providers/speech-pool";
import { createOfflineTts } from "@/lib/platform/providers/tts/offline";
import { parseWav, wavHeader } from "@/lib/phone/voice/audio";
import { contentWordRecall, mulawTelephone, pcmTelephoneStereo, wavSamples } from "@/tests/helpers/speech-audio";
import { SttError } from "./interface";
import {
  createOfflineStt,
  createPocketSphinxStt,
  OFFLINE_STT_NOT_INSTALLED_MESSAGE,
  offlineSttStatus,
  POCKETSPHINX_INSTALL_COMMAND,
} from "./pocketsphinx";

const skip = process.env.SKIP_POCKETSPHINX === "1";
const stt = createPocketSphinxStt();
const tts = createOfflineTts();
afterAll(() => closeSpeechPools());

const SENTENCES = [
  "Hello, this is Maria Lopez calling about my appointment on Thursday. Please call me back this afternoon.",
  "I would like to book a cleaning for next week. My phone number is five five five, one two three four.",
];

async function speak(text: string, voiceId: string) {
  const { audio } = await tts.synthesize(text, resolveVoice(voiceId));
  return { audio, samples: wavSamples(audio).samples, seconds: parseWav(audio).durationMs / 1000 };
}

describe("PocketSphinx availability", () => {
  it("is installed here (apt-get install -y libpocketsphinx3 pocketsphinx-en-us), unless SKIP_POCKETSPHINX=1", async () => {
    const status = await offlineSttStatus();
    if (skip) return;
    if (!status.available) throw new Error(`${status.reason}. ${status.message} (set SKIP_POCKETSPHINX=1 to skip these tests)`);
    expect(status).toEqual({ available: true, engine: "pocketsphinx", modelDir: "/usr/share/pocketsphinx/model/en-us" });
    expect(await createOfflineStt()).toMatchObject({ name: "pocketsphinx" });
  });

  it("names the install command when the model is missing, and keeps the recording", async () => {
    const status = await recognitionPool().run<{ available: boolean; reason: string }>("stt.status", { modelDir: "/nonexistent/en-us" });
    expect(status.available).toBe(false);
    expect(status.reason).toMatch(skip ? /libpocketsphinx could not be loaded|model is missing/ : /the US English model is missing \(\/nonexistent\/en-us\/en-us\/mdef/);
    expect(OFFLINE_STT_NOT_INSTALLED_MESSAGE).toContain(POCKETSPHINX_INSTALL_COMMAND);
    expect(POCKETSPHINX_INSTALL_COMMAND).toBe("apt-get install -y libpocketsphinx3 pocketsphinx-en-us");
    expect(OFFLINE_STT_NOT_INSTALLED_MESSAGE).toMatch(/The recording is kept/);
  });
});

(skip ? describe.skip : describe)("PocketSphinx transcription (worker pool)", () => {
  it("transcribes clean 16 kHz speech of two voices", async () => {
    const cases = SENTENCES.flatMap((text) => ["alloy", "echo"].map((voice) => ({ text, voice })));
    const results = await Promise.all(
      cases.map(async ({ text, voice }) => {
        const { audio, seconds } = await speak(text, voice);
        return { text, seconds, result: await stt.transcribe({ audio, contentType: "audio/wav" }) };
      }),
    );
    for (const { text, seconds, result } of results) {
      expect(contentWordRecall(text, result.transcript)).toBeGreaterThanOrEqual(0.75);
      expect(result.durationSeconds).toBeCloseTo(seconds, 1);
      expect(result.confidence).toBeGreaterThan(0.3);
      expect(result.confidence).toBeLessThanOrEqual(1);
    }
  }, 90_000);

  it("transcribes telephone audio: 8 kHz μ-law (raw and WAV) and 8 kHz PCM stereo, upsampled to 16 kHz", async () => {
    const results = await Promise.all(
      SENTENCES.map(async (text) => {
        const { samples, seconds } = await speak(text, "echo");
        const [raw, wav, stereo] = await Promise.all([
          stt.transcribe({ audio: mulawTelephone(samples, "raw"), contentType: "audio/basic" }),
          stt.transcribe({ audio: mulawTelephone(samples, "wav"), contentType: "audio/wav" }),
          stt.transcribe({ audio: pcmTelephoneStereo(samples), contentType: "audio/x-wav" }),
        ]);
        return { text, seconds, raw, wav, stereo };
      }),
    );
    for (const { text, seconds, raw, wav, stereo } of results) {
      for (const result of [raw, wav, stereo]) {
        expect(contentWordRecall(text, result.transcript)).toBeGreaterThanOrEqual(0.7);
        expect(result.durationSeconds).toBeCloseTo(seconds, 1);
      }
      expect(wav.transcript).toBe(raw.transcript); // the same samples, with or without a header
    }
  }, 90_000);

  it("hears each recording as a freshly loaded decoder would, whatever the worker's decoder heard before", async () => {
    // One worker, so the same decoder hears everything: its first recording is a fresh decoder's.
    await closeSpeechPools();
    configureSpeechPools({ workers: 1 });
    try {
      const { samples } = await speak(SENTENCES[0], "alloy");
      const telephone = { audio: mulawTelephone(samples, "raw"), contentType: "audio/basic" };
      const fresh = await stt.transcribe(telephone);
      const other = await speak(SENTENCES[1], "echo");
      await stt.transcribe({ audio: other.audio, contentType: "audio/wav" });
      await stt.transcribe({ audio: Buffer.alloc(16000, 0xff), contentType: "audio/basic" }); // a second of line silence
      await stt.transcribe({ audio: mulawTelephone(other.samples, "raw"), contentType: "audio/basic" });
      expect(await stt.transcribe(telephone)).toEqual(fresh);
      expect(contentWordRecall(SENTENCES[0], fresh.transcript)).toBeGreaterThan(0.3);
    } finally {
      await closeSpeechPools();
      configureSpeechPools({});
    }
  }, 90_000);

  it("answers an empty transcript with no confidence for silence", async () => {
    const silence = Buffer.concat([wavHeader({ channels: 1, sampleRate: 16000, bitsPerSample: 16 }, 32000), Buffer.alloc(32000)]);
    await expect(stt.transcribe({ audio: silence, contentType: "audio/wav" })).resolves.toEqual({
      transcript: "",
      confidence: null,
      durationSeconds: 1,
    });
  });

  it("refuses what it cannot read with an SttError", async () => {
    const notAudio = await stt.transcribe({ audio: Buffer.from("hello, not audio"), contentType: "application/octet-stream" }).catch((e) => e);
    expect(notAudio).toBeInstanceOf(SttError);
    expect(notAudio.provider).toBe("pocketsphinx");
    expect(notAudio.message).toMatch(/Offline transcription failed: Unsupported audio \(application\/octet-stream\)/);

    const float = Buffer.concat([wavHeader({ channels: 1, sampleRate: 16000, bitsPerSample: 32 }, 8), Buffer.alloc(8)]);
    float.writeUInt16LE(3, 20); // IEEE float
    await expect(stt.transcribe({ audio: float })).rejects.toThrow(/Unsupported WAV encoding \(format 3, 32-bit\)/);

    await expect(stt.transcribe({ url: "https://api.twilio.com/recording.wav" })).rejects.toThrow(/download it first/);
  });
});
