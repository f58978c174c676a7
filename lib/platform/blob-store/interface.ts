import type { DbOrTx } from "@/db/client";

/**
 * Where audio bytes live. The database keeps who owns a clip (audio_clip.storage_key); the store
 * keeps the bytes under that key, where every instance reads them: PostgreSQL (the `blob` table) by
 * default, S3-compatible object storage when BLOB_STORE=s3 (docs/deploy.md#audio-and-object-storage).
 * A folder on the instance's own disk (BLOB_STORE=filesystem) is for one instance only.
 */
export type BlobStat = { size: number };

export type ByteRange = { start: number; end: number }; // inclusive, like HTTP ranges

export interface BlobStore {
  /** `db`: the transaction the caller writes in (the PostgreSQL store writes the blob with it). */
  put(key: string, data: Buffer, options?: { db?: DbOrTx }): Promise<void>;
  /** The whole blob, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  stat(key: string): Promise<BlobStat | null>;
  /** The bytes of `range` (or all of them) as a web stream; null when there is no such blob. */
  stream(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | null>;
  delete(key: string): Promise<void>;
}

/** Keys are relative paths of safe segments: letters, digits, `-`, `_`, `.` (never `..`). */
export function assertValidKey(key: string): void {
  const segments = key.split("/");
  const ok =
    key.length > 0 &&
    key.length <= 300 &&
    segments.every((s) => /^[A-Za-z0-9_.-]+$/.test(s) && s !== "." && s !== "..");
  if (!ok) throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
}
