/**
 * The assistant voices. Switchboard keeps the spec's OpenAI-style ids (alloy, echo, fable, onyx,
 * nova, shimmer) as its own vocabulary, and this table is the one place that says what each id
 * sounds like on every speech provider: the speech provider issue reads `elevenlabs` and `offline`
 * from here and nowhere else. Descriptions say what the caller actually hears, so a mapping change
 * here must keep them true.
 *
 * - `elevenlabs`: an ElevenLabs premade voice (voice_id and its public name). Premade voices are
 *   available on every ElevenLabs account, so these ids work with any organization's key.
 * - `offline`: the flite voice used when no speech key is configured (lib/platform/providers/tts/offline.ts).
 *   flite has five: slt (US English female), rms (US male), awb (Scottish English male), kal16 (US
 *   male, the deepest: median pitch ~90 Hz against rms ~103 Hz and awb ~126 Hz) and kal (kal16's
 *   speaker at 8 kHz telephone bandwidth, left unused: kal16 is the same voice, clearer). The three
 *   male voices each get a speaker of their own; the three female voices share slt, told apart by
 *   `pitchMeanHz` (flite's int_f0_target_mean; slt speaks at ~168 Hz) and `durationStretch` (flite's
 *   duration_stretch: above 1 slower, below 1 faster). Pitches were measured on flite's output.
 */

import type { FliteVoice, SpeechVoice } from "@/lib/platform/providers/tts/interface";

export type { FliteVoice };

export type VoiceMapping = SpeechVoice & {
  label: string;
  /** What the caller hears, in a few words (shown in the form). */
  description: string;
  gender: "female" | "male";
  accent: "US English" | "British English";
};

export const voices = [
  {
    id: "alloy",
    label: "Alloy",
    description: "Neutral, balanced (US English)",
    gender: "female",
    accent: "US English",
    elevenlabs: { voiceId: "21m00Tcm4TlvDq8ikWAM", name: "Rachel" },
    offline: { voice: "slt" },
  },
  {
    id: "echo",
    label: "Echo",
    description: "Warm, conversational male (US English)",
    gender: "male",
    accent: "US English",
    elevenlabs: { voiceId: "ErXwobaYiN019PkySvjV", name: "Antoni" },
    offline: { voice: "rms" },
  },
  {
    id: "fable",
    label: "Fable",
    description: "Expressive storyteller, British male (British English)",
    gender: "male",
    accent: "British English",
    elevenlabs: { voiceId: "JBFqnCBsd6RMkjVDRZzb", name: "George" },
    offline: { voice: "awb" },
  },
  {
    id: "onyx",
    label: "Onyx",
    description: "Deep, authoritative male (US English)",
    gender: "male",
    accent: "US English",
    elevenlabs: { voiceId: "pNInz6obpgDQGcFmaJgB", name: "Adam" },
    offline: { voice: "kal16", durationStretch: 1.05 },
  },
  {
    id: "nova",
    label: "Nova",
    description: "Bright, energetic female (US English)",
    gender: "female",
    accent: "US English",
    elevenlabs: { voiceId: "AZnzlk1XvdvUeBnXmlld", name: "Domi" },
    offline: { voice: "slt", pitchMeanHz: 200, durationStretch: 0.9 },
  },
  {
    id: "shimmer",
    label: "Shimmer",
    description: "Soft, gentle female (US English)",
    gender: "female",
    accent: "US English",
    elevenlabs: { voiceId: "EXAVITQu4vr4xnSDxMaL", name: "Bella" },
    offline: { voice: "slt", pitchMeanHz: 150, durationStretch: 1.12 },
  },
] as const satisfies readonly VoiceMapping[];

export type Voice = (typeof voices)[number];
export type VoiceId = Voice["id"];

export const voiceIds = voices.map((v) => v.id) as [VoiceId, ...VoiceId[]];

/** The spec's default for a new assistant, and the fallback for unknown ids. */
export const DEFAULT_VOICE: VoiceId = "alloy";

export function isVoiceId(value: unknown): value is VoiceId {
  return typeof value === "string" && (voiceIds as readonly string[]).includes(value);
}

/** The voice for an id; anything unknown (an old row, a removed voice) gets the default voice. */
export function resolveVoice(id: string | null | undefined): Voice {
  return voices.find((v) => v.id === id) ?? voices.find((v) => v.id === DEFAULT_VOICE)!;
}

/** What the form lists: id, label and description only (no provider internals). */
export function voiceOptions(): { id: VoiceId; label: string; description: string }[] {
  return voices.map(({ id, label, description }) => ({ id, label, description }));
}
