import "server-only";
import { DeepgramClient, DeepgramError } from "@deepgram/sdk";
import { SttError, type SttProvider, type Transcript } from "./interface";

export type DeepgramOptions = {
  apiKey: string;
  /** Tests point the real SDK at a local fake. */
  baseUrl?: string;
  maxRetries?: number;
  model?: string;
};

type ListenResponse = {
  metadata?: { duration?: number };
  results?: { channels?: { alternatives?: { transcript?: string; confidence?: number }[] }[] };
};

function toTranscript(body: unknown): Transcript {
  const response = (body ?? {}) as ListenResponse;
  const best = response.results?.channels?.[0]?.alternatives?.[0];
  return {
    transcript: (best?.transcript ?? "").trim(),
    confidence: typeof best?.confidence === "number" ? best.confidence : null,
    durationSeconds: typeof response.metadata?.duration === "number" ? response.metadata.duration : null,
  };
}

function describe(error: unknown): SttError {
  if (error instanceof DeepgramError) {
    const detail = error.statusCode === 401 ? "the API key was refused" : error.message;
    return new SttError(`Deepgram transcription failed (${error.statusCode ?? "no status"}): ${detail}`, "deepgram", error.statusCode);
  }
  return new SttError(`Deepgram transcription failed: ${(error as Error).message}`, "deepgram");
}

/**
 * Deepgram pre-recorded transcription (`POST /v1/listen`, `Authorization: Token …`): a recording's
 * bytes or a URL Deepgram fetches itself (e.g. a Twilio recording).
 */
export function createDeepgramStt(options: DeepgramOptions): SttProvider {
  const client = new DeepgramClient({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    maxRetries: options.maxRetries ?? 1,
  });
  const model = options.model ?? "nova-3";
  return {
    name: "deepgram",
    async transcribe(input, opts) {
      const requestOptions = opts?.signal ? { abortSignal: opts.signal } : undefined;
      try {
        const body =
          "url" in input
            ? await client.listen.v1.media.transcribeUrl(
                { url: input.url, model, smart_format: true, punctuate: true, language: input.language ?? "en" },
                requestOptions,
              )
            : await client.listen.v1.media.transcribeFile(
                input.audio,
                { model, smart_format: true, punctuate: true, language: input.language ?? "en" },
                requestOptions,
              );
        return toTranscript(body);
      } catch (error) {
        throw describe(error);
      }
    },
  };
}
