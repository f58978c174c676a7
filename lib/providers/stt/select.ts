import "server-only";
import type { DbOrTx } from "@/db/client";
import { resolveCredential } from "@/lib/providers/credentials";
import { createDeepgramStt } from "./deepgram";
import type { SttProvider } from "./interface";

/**
 * The transcription provider for an organization: its saved Deepgram key, else the environment's
 * DEEPGRAM_API_KEY, else null — there is no offline transcriber, so callers show
 * STT_UNAVAILABLE_MESSAGE ("transcription needs a Deepgram key").
 */
export async function selectStt(db: DbOrTx, organizationId: string | null): Promise<SttProvider | null> {
  const credential = await resolveCredential(db, organizationId, "deepgram");
  return credential ? createDeepgramStt({ apiKey: credential.secret.apiKey }) : null;
}
