/**
 * Transcription (ARCHITECTURE: providers): Deepgram when the organization or the environment has a
 * key; offline, CMU PocketSphinx (lib/platform/providers/stt/pocketsphinx.ts) when its Debian packages are
 * installed on the server. With neither, features that need a transcript say so with
 * STT_UNAVAILABLE_MESSAGE (or OFFLINE_STT_NOT_INSTALLED_MESSAGE from ./pocketsphinx).
 */
export type SttProviderName = "deepgram" | "pocketsphinx";

export type Transcript = {
  transcript: string;
  /** 0–1 when the provider reports it. */
  confidence: number | null;
  /** Length of the audio in seconds when the provider reports it. */
  durationSeconds: number | null;
};

export type TranscribeInput =
  | { audio: Buffer; contentType?: string; language?: string }
  | { url: string; language?: string };

export interface SttProvider {
  readonly name: SttProviderName;
  transcribe(input: TranscribeInput, options?: { signal?: AbortSignal }): Promise<Transcript>;
}

export const STT_UNAVAILABLE_MESSAGE =
  "Transcription needs a Deepgram key: add one in Settings → API Keys (or set DEEPGRAM_API_KEY on the server).";

export class SttError extends Error {
  constructor(
    message: string,
    readonly provider: SttProviderName,
    readonly status?: number,
  ) {
    super(message);
    this.name = "SttError";
  }
}
