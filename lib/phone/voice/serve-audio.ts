import "server-only";
import type { Db } from "@/db/client";
import type { Session } from "@/lib/identity/auth/session";
import { eq } from "drizzle-orm";
import { audioClips } from "@/db/schema";
import { resolveVoice } from "@/lib/agents/assistants/voices";
import { getBlobStore, type BlobStore } from "@/lib/platform/blob-store";
import { selectTts } from "@/lib/workspace/provider-selection/tts";
import { HttpError, notFound, unauthorized } from "@/lib/platform/http/errors";
import { getClipForToken, getOrganizationClip, verifyAudioToken, type AudioClip } from "./audio-clips";
import { parseRange } from "./range";

/**
 * GET /api/audio/{id} — a stored clip (docs/api.md#voice). Allowed with a valid signed `?token=`
 * (15 minutes; how the browser's <audio> element and the phone provider fetch it) or with a
 * session of the owning organization. Answers Content-Type, Content-Length, Accept-Ranges and
 * single byte ranges (206 + Content-Range; 416 when unsatisfiable).
 */
async function findClip(
  db: Db,
  session: Session | null,
  req: Request,
  id: string,
): Promise<{ clip: AudioClip; viaToken: boolean }> {
  const token = new URL(req.url).searchParams.get("token");
  if (token && verifyAudioToken(id, token)) {
    const clip = await getClipForToken(db, id);
    if (!clip) throw notFound("Audio clip");
    return { clip, viaToken: true };
  }
  if (!session) {
    if (token) throw new HttpError(403, "This audio link is invalid or has expired");
    throw unauthorized();
  }
  const clip = await getOrganizationClip(db, session.user.organizationId, id);
  if (!clip) throw notFound("Audio clip");
  return { clip, viaToken: false };
}

export async function serveAudioClip(db: Db, session: Session | null, req: Request, id: string, head: boolean): Promise<Response> {
  const found = await findClip(db, session, req, id);
  const { viaToken } = found;
  let clip: AudioClip | null = found.clip;
  const store = getBlobStore();
  let stat = await store.stat(clip.storageKey);
  if (!stat) {
    // The bytes are gone (a retention run, a lost object) but the words are known: say them again,
    // so a phone provider fetching a <Play> URL never gets a 404 mid-call.
    clip = await synthesizeAgain(db, store, clip);
    stat = clip ? await store.stat(clip.storageKey) : null;
    if (!clip || !stat) throw notFound("Audio clip");
  }
  const size = stat.size;
  const headers = new Headers({
    "Content-Type": clip.contentType,
    "Accept-Ranges": "bytes",
    "Cache-Control": viaToken ? "private, max-age=900" : "private, no-cache",
    ETag: `"${clip.id}"`,
    "X-Content-Type-Options": "nosniff",
  });

  const range = parseRange(req.headers.get("range"), size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  const part = range ?? null;
  const length = part ? part.end - part.start + 1 : size;
  headers.set("Content-Length", String(length));
  if (part) headers.set("Content-Range", `bytes ${part.start}-${part.end}/${size}`);
  const status = part ? 206 : 200;
  if (head) return new Response(null, { status, headers });
  const body = await store.stream(clip.storageKey, part ?? undefined);
  if (!body) throw notFound("Audio clip");
  return new Response(body, { status, headers });
}


/**
 * A synthesized clip whose blob is missing, made again with the organization's speech provider from
 * the words and voice kept on its row; the row follows the new bytes (content type, size). Null for a
 * clip that is not synthesized speech (a recording cannot be made again).
 */
export async function synthesizeAgain(db: Db, store: BlobStore, clip: AudioClip): Promise<AudioClip | null> {
  if (!clip.speechText || !clip.voiceId) return null;
  const tts = await selectTts(db, clip.organizationId);
  const { audio, contentType } = await tts.synthesize(clip.speechText, resolveVoice(clip.voiceId));
  await store.put(clip.storageKey, audio);
  const [row] = await db
    .update(audioClips)
    .set({ contentType, sizeBytes: audio.length })
    .where(eq(audioClips.id, clip.id))
    .returning();
  return row ?? null;
}
