/**
 * The assistant voices. Switchboard keeps the spec's OpenAI-style ids (alloy, echo, fable, onyx,
 * nova, shimmer) as its own vocabulary, and this table is the one place that says what each id
 * sounds like on every speech provider: the speech provider issue reads `elevenlabs` and `offline`
 * from here and nowhere else. Descriptions say what the caller actually hears, so a mapping change
 * here must keep them true.
 *
 * - `elevenlabs`: an ElevenLabs premade voice (voice_id and its public name). Premade voices are
 *   available on every ElevenLabs account, so these ids work with any organization's key.
 * - `offline`: the meSpeak (eSpeak) rendering used when no speech key is configured: the language
 *   voice file, the variant (mespeak's built-in m1–m7 / f1–f5) and pitch (0–99, 50 = neutral).
 */
export type VoiceMapping = {
  id: string;
  label: string;
  /** What the caller hears, in a few words (shown in the form). */
  description: string;
  gender: "female" | "male";
  accent: "US English" | "British English";
  elevenlabs: { voiceId: string; name: string };
  offline: { language: "en-us" | "en-rp"; variant: string; pitch: number; speed: number };
};

export const voices = [
  {
    id: "alloy",
    label: "Alloy",
    description: "Neutral, balanced (US English)",
    gender: "female",
    accent: "US English",
    elevenlabs: { voiceId: "21m00Tcm4TlvDq8ikWAM", name: "Rachel" },
    offline: { language: "en-us", variant: "f2", pitch: 50, speed: 170 },
  },
  {
    id: "echo",
    label: "Echo",
    description: "Warm, conversational male (US English)",
    gender: "male",
    accent: "US English",
    elevenlabs: { voiceId: "ErXwobaYiN019PkySvjV", name: "Antoni" },
    offline: { language: "en-us", variant: "m3", pitch: 50, speed: 170 },
  },
  {
    id: "fable",
    label: "Fable",
    description: "Expressive storyteller, British male (British English)",
    gender: "male",
    accent: "British English",
    elevenlabs: { voiceId: "JBFqnCBsd6RMkjVDRZzb", name: "George" },
    offline: { language: "en-rp", variant: "m1", pitch: 55, speed: 165 },
  },
  {
    id: "onyx",
    label: "Onyx",
    description: "Deep, authoritative male (US English)",
    gender: "male",
    accent: "US English",
    elevenlabs: { voiceId: "pNInz6obpgDQGcFmaJgB", name: "Adam" },
    offline: { language: "en-us", variant: "m4", pitch: 30, speed: 160 },
  },
  {
    id: "nova",
    label: "Nova",
    description: "Bright, energetic female (US English)",
    gender: "female",
    accent: "US English",
    elevenlabs: { voiceId: "AZnzlk1XvdvUeBnXmlld", name: "Domi" },
    offline: { language: "en-us", variant: "f5", pitch: 65, speed: 185 },
  },
  {
    id: "shimmer",
    label: "Shimmer",
    description: "Soft, gentle female (US English)",
    gender: "female",
    accent: "US English",
    elevenlabs: { voiceId: "EXAVITQu4vr4xnSDxMaL", name: "Bella" },
    offline: { language: "en-us", variant: "f4", pitch: 55, speed: 160 },
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
