import "server-only";
import path from "node:path";
import { createFilesystemBlobStore } from "./filesystem";
import type { BlobStore } from "./interface";

export type { BlobStore, BlobStat, ByteRange } from "./interface";
export { createFilesystemBlobStore } from "./filesystem";

let current: BlobStore | null = null;

/** The default store's folder: `.data/audio` under the working directory (beside embedded PGlite). */
export function defaultBlobDir(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), ".data", "audio");
}

/** The process's blob store: the filesystem under `.data/audio` unless one was set. */
export function getBlobStore(): BlobStore {
  return (current ??= createFilesystemBlobStore(defaultBlobDir()));
}

/** Replaces the process's blob store (tests use a temporary folder; a deployment an object store). */
export function setBlobStore(store: BlobStore | null): void {
  current = store;
}
