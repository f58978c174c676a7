import "server-only";
import type { DbOrTx } from "@/db/client";
import { resolveCredential } from "./credentials";
import { createDeepgramStt } from "@/lib/platform/providers/stt/deepgram";
import type { SttProvider } from "@/lib/platform/providers/stt/interface";
import { createOfflineStt, OFFLINE_STT_NOT_INSTALLED_MESSAGE } from "@/lib/platform/providers/stt/pocketsphinx";

/** What a feature shows when no transcriber is available (names the install command). */
export const TRANSCRIPTION_UNAVAILABLE_MESSAGE = OFFLINE_STT_NOT_INSTALLED_MESSAGE;

/**
 * The transcription provider for an organization (ARCHITECTURE): its saved Deepgram key, else the
 * environment's DEEPGRAM_API_KEY, else offline PocketSphinx when its Debian packages are installed
 * on this server, else null — callers keep the audio and show TRANSCRIPTION_UNAVAILABLE_MESSAGE.
 */
export async function selectStt(db: DbOrTx, organizationId: string | null): Promise<SttProvider | null> {
  const credential = await resolveCredential(db, organizationId, "deepgram");
  if (credential) return createDeepgramStt({ apiKey: credential.secret.apiKey });
  return createOfflineStt();
}
