/**
 * The fixed list of assistant personalities (issue 3). `description` is one line the language model
 * receives as the assistant's manner of speaking; `label` is what the form shows. Shared by the
 * server (validation, prompts) and the browser (via GET /api/voice-assistants/options).
 */
export const personalities = [
  {
    id: "friendly",
    label: "Friendly",
    description: "Warm and welcoming: greets callers kindly, uses plain words and a relaxed, upbeat tone.",
  },
  {
    id: "professional",
    label: "Professional",
    description: "Polished and precise: courteous, to the point, and careful with names, dates and figures.",
  },
  {
    id: "caring",
    label: "Caring",
    description: "Patient and reassuring: acknowledges how the caller feels before helping, never rushes them.",
  },
  {
    id: "energetic",
    label: "Energetic",
    description: "Lively and enthusiastic: keeps the conversation moving with positive, high-energy replies.",
  },
  {
    id: "concise",
    label: "Concise",
    description: "Brief and efficient: answers in as few words as will do, one question at a time.",
  },
  {
    id: "playful",
    label: "Playful",
    description: "Light-hearted and witty: a touch of humour where it fits, while still getting the job done.",
  },
] as const;

export type Personality = (typeof personalities)[number];
export type PersonalityId = Personality["id"];

export const personalityIds = personalities.map((p) => p.id) as [PersonalityId, ...PersonalityId[]];

/** The spec's default for a new assistant. */
export const DEFAULT_PERSONALITY: PersonalityId = "friendly";

export function isPersonalityId(value: unknown): value is PersonalityId {
  return typeof value === "string" && (personalityIds as readonly string[]).includes(value);
}

/** The personality's entry; unknown ids (old rows) fall back to the default. */
export function resolvePersonality(id: string | null | undefined): Personality {
  return personalities.find((p) => p.id === id) ?? personalities.find((p) => p.id === DEFAULT_PERSONALITY)!;
}
