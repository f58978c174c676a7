import "server-only";
import type { DbOrTx } from "@/db/client";
import { resolveCredential, type ResolvedCredential } from "./credentials";
import { createElevenLabsTts } from "@/lib/platform/providers/tts/elevenlabs";
import type { TtsProvider } from "@/lib/platform/providers/tts/interface";
import { createOfflineTts } from "@/lib/platform/providers/tts/offline";

let offline: TtsProvider | null = null;

/** The one offline synthesizer of the process (its engine and data are loaded once). */
export function offlineTts(): TtsProvider {
  return (offline ??= createOfflineTts());
}

/**
 * The speech provider for an organization (ARCHITECTURE): its saved ElevenLabs key, else the
 * environment's ELEVENLABS_API_KEY, else the offline synthesizer. `organizationId` null is the
 * public demo: environment or offline. `provider.name` is the label shown to users.
 */
export async function selectTts(db: DbOrTx, organizationId: string | null): Promise<TtsProvider> {
  return ttsFor(await resolveCredential(db, organizationId, "elevenlabs"));
}

/** The speech provider for a resolved ElevenLabs credential (null: the offline synthesizer). */
export function ttsFor(credential: ResolvedCredential<"elevenlabs"> | null): TtsProvider {
  if (credential) return createElevenLabsTts({ apiKey: credential.secret.apiKey });
  return offlineTts();
}
