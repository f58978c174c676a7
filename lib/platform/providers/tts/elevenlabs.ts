import "server-only";
import { ElevenLabsClient, ElevenLabsError } from "@elevenlabs/elevenlabs-js";
import { collect, TtsError, type SynthesisResult, type TtsProvider, type SpeechVoice } from "./interface";

export type ElevenLabsOptions = {
  apiKey: string;
  /** Tests and the benchmark point the real SDK at a local fake. */
  baseUrl?: string;
  maxRetries?: number;
  /** Flash v2.5: ElevenLabs' lowest-latency model, meant for real-time voice. */
  modelId?: string;
  /** MP3 at 44.1 kHz / 128 kbit/s: plays in every browser and on the phone network. */
  outputFormat?: "mp3_44100_128" | "mp3_22050_32" | "mp3_44100_64";
};

export const ELEVENLABS_DEFAULT_MODEL = "eleven_flash_v2_5";

function describe(error: unknown): TtsError {
  if (error instanceof ElevenLabsError) {
    const detail =
      error.statusCode === 401
        ? "the API key was refused"
        : error.statusCode === 429
          ? "rate limited or out of quota"
          : error.message;
    return new TtsError(`ElevenLabs speech synthesis failed (${error.statusCode ?? "no status"}): ${detail}`, "elevenlabs", error.statusCode);
  }
  return new TtsError(`ElevenLabs speech synthesis failed: ${(error as Error).message}`, "elevenlabs");
}

/**
 * ElevenLabs text to speech over its streaming endpoint (`POST /v1/text-to-speech/{voice}/stream`).
 * The assistant's voice maps to an ElevenLabs premade voice (lib/agents/assistants/voices.ts).
 */
export function createElevenLabsTts(options: ElevenLabsOptions): TtsProvider {
  const client = new ElevenLabsClient({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    maxRetries: options.maxRetries ?? 1,
  });
  const modelId = options.modelId ?? ELEVENLABS_DEFAULT_MODEL;
  const outputFormat = options.outputFormat ?? "mp3_44100_128";

  async function* stream(text: string, voice: SpeechVoice, signal?: AbortSignal): AsyncGenerator<Buffer> {
    let body: ReadableStream<Uint8Array>;
    try {
      body = await client.textToSpeech.stream(
        voice.elevenlabs.voiceId,
        { text, modelId, outputFormat },
        signal ? { abortSignal: signal } : undefined,
      );
    } catch (error) {
      throw describe(error);
    }
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (value && value.byteLength) yield Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      }
    } catch (error) {
      throw describe(error);
    } finally {
      reader.releaseLock();
    }
  }

  return {
    name: "elevenlabs",
    contentType: "audio/mpeg",
    async synthesize(text, voice, opts): Promise<SynthesisResult> {
      return { audio: await collect(stream(text, voice, opts?.signal)), contentType: "audio/mpeg" };
    },
    synthesizeStream(text, voice, opts) {
      return stream(text, voice, opts?.signal);
    },
  };
}
