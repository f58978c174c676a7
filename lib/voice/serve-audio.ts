import "server-only";
import type { Db } from "@/db/client";
import type { Session } from "@/lib/auth/session";
import { getBlobStore } from "@/lib/blob-store";
import { HttpError, notFound, unauthorized } from "@/lib/http/errors";
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
  const { clip, viaToken } = await findClip(db, session, req, id);
  const store = getBlobStore();
  const stat = await store.stat(clip.storageKey);
  if (!stat) throw notFound("Audio clip");
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

