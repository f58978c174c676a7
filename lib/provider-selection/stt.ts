import "server-only";
import type { DbOrTx } from "@/db/client";
import { resolveCredential } from "./credentials";
import { createDeepgramStt } from "@/lib/providers/stt/deepgram";
import type { SttProvider } from "@/lib/providers/stt/interface";

/**
 * The transcription provider for an organization: its saved Deepgram key, else the environment's
 * DEEPGRAM_API_KEY, else null — there is no offline transcriber, so callers show
 * STT_UNAVAILABLE_MESSAGE ("transcription needs a Deepgram key").
 */
export async function selectStt(db: DbOrTx, organizationId: string | null): Promise<SttProvider | null> {
  const credential = await resolveCredential(db, organizationId, "deepgram");
  return credential ? createDeepgramStt({ apiKey: credential.secret.apiKey }) : null;
}
