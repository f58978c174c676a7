import "server-only";
import path from "node:path";
import { getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { createFilesystemBlobStore } from "./filesystem";
import type { BlobStore } from "./interface";
import { createPostgresBlobStore } from "./postgres";
import { createS3BlobStore } from "./s3";

export type { BlobStore, BlobStat, ByteRange } from "./interface";
export { createFilesystemBlobStore } from "./filesystem";
export { createPostgresBlobStore } from "./postgres";
export { createS3BlobStore } from "./s3";

let current: BlobStore | null = null;

/** The old default store's folder, `.data/audio` (BLOB_DIR for BLOB_STORE=filesystem). */
export function defaultBlobDir(): string {
  return env.BLOB_DIR ? path.resolve(/*turbopackIgnore: true*/ env.BLOB_DIR) : path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", "audio");
}

/** The store BLOB_STORE names (docs/deploy.md#audio-and-object-storage). */
export function blobStoreFromEnv(): BlobStore {
  switch (env.BLOB_STORE) {
    case "s3":
      return createS3BlobStore({
        bucket: env.S3_BUCKET!,
        region: env.S3_REGION ?? "us-east-1",
        endpoint: env.S3_ENDPOINT,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
        prefix: env.S3_PREFIX,
      });
    case "filesystem":
      return createFilesystemBlobStore(defaultBlobDir());
    default:
      // Audio an earlier version kept in .data/audio is copied into the table when first read.
      return createPostgresBlobStore(getDb, { legacyDir: defaultBlobDir() });
  }
}

/** The process's blob store: BLOB_STORE's (PostgreSQL by default) unless one was set. */
export function getBlobStore(): BlobStore {
  return (current ??= blobStoreFromEnv());
}

/** Replaces the process's blob store (tests; null: back to BLOB_STORE's). */
export function setBlobStore(store: BlobStore | null): void {
  current = store;
}
