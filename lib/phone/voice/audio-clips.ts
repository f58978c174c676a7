import "server-only";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { audioClips } from "@/db/schema";
import { appSecret } from "@/lib/platform/crypto/app-secret";
import type { BlobStore } from "@/lib/platform/blob-store";
import { insertEveryColumn, preparedSql } from "@/lib/platform/database-statements";

export type ClipSource = (typeof audioClips.$inferInsert)["source"];

export type AudioClip = typeof audioClips.$inferSelect;

/** Signed audio links last this long: enough for a test page or a phone provider to fetch them. */
export const AUDIO_TOKEN_TTL_MS = 15 * 60 * 1000;

let tokenKey: Buffer | null = null;

/** A key of its own for audio links, derived from the app secret (never the secret itself). */
function key(): Buffer {
  return (tokenKey ??= crypto.createHmac("sha256", appSecret()).update("switchboard/audio-token/v1").digest());
}

function mac(id: string, expiresAt: number): string {
  return crypto.createHmac("sha256", key()).update(`${id}.${expiresAt}`).digest("base64url");
}

/** `<expiry ms>.<HMAC-SHA256(id.expiry)>`: lets anyone holding it fetch that one clip until it expires. */
export function signAudioToken(id: string, now = Date.now(), ttlMs = AUDIO_TOKEN_TTL_MS): string {
  const expiresAt = now + ttlMs;
  return `${expiresAt}.${mac(id, expiresAt)}`;
}

export function verifyAudioToken(id: string, token: string, now = Date.now()): boolean {
  const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const expiresAt = Number(match[1]);
  if (!Number.isSafeInteger(expiresAt) || expiresAt < now) return false;
  const expected = Buffer.from(mac(id, expiresAt));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** The clip's URL with a fresh token: `/api/audio/{id}?token=…`. */
export function signedAudioUrl(id: string, now = Date.now()): string {
  return `/api/audio/${encodeURIComponent(id)}?token=${encodeURIComponent(signAudioToken(id, now))}`;
}

const EXTENSIONS: Record<string, string> = { "audio/wav": "wav", "audio/mpeg": "mp3" };

/** Stores the bytes, then the row that says who owns them. */
export async function saveAudioClip(
  db: DbOrTx,
  store: BlobStore,
  input: {
    organizationId: string | null;
    audio: Buffer;
    contentType: string;
    durationMs: number | null;
    source: ClipSource;
    id?: string;
    cacheKey?: string;
    /** Synthesized speech: its words and voice, so the clip can be made again if its bytes are lost. */
    speech?: { text: string; voiceId: string };
  },
): Promise<AudioClip> {
  const id = input.id ?? crypto.randomUUID();
  const month = new Date().toISOString().slice(0, 7);
  const storageKey = `${input.organizationId ?? "public"}/${month}/${id}.${EXTENSIONS[input.contentType] ?? "bin"}`;
  await store.put(storageKey, input.audio, { db });
  const clip: AudioClip = {
    id,
    organizationId: input.organizationId,
    storageKey,
    contentType: input.contentType,
    sizeBytes: input.audio.length,
    durationMs: input.durationMs,
    source: input.source,
    cacheKey: input.cacheKey ?? null,
    speechText: input.speech?.text ?? null,
    voiceId: input.speech?.voiceId ?? null,
    createdAt: new Date(),
  };
  await clipStatement(db).execute({ ...clip, createdAt: clip.createdAt.toISOString() });
  return clip;
}

/** The clip's row: one statement planned once per embedded handle (every spoken reply writes one). */
function clipStatement(db: DbOrTx) {
  return preparedSql(db, "switchboard_save_audio_clip", (value) => insertEveryColumn(audioClips, value));
}

/** A clip by id for a holder of a valid token (whatever its owner, public demo clips included). */
export async function getClipForToken(db: DbOrTx, id: string): Promise<AudioClip | null> {
  const [row] = await db.select().from(audioClips).where(eq(audioClips.id, id));
  return row ?? null;
}

/** A clip of the caller's organization; another organization's (or a public demo clip) → null. */
export async function getOrganizationClip(db: DbOrTx, organizationId: string, id: string): Promise<AudioClip | null> {
  const [row] = await db
    .select()
    .from(audioClips)
    .where(and(eq(audioClips.id, id), eq(audioClips.organizationId, organizationId)));
  return row ?? null;
}
