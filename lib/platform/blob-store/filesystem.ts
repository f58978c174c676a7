import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { assertValidKey, type BlobStore, type ByteRange } from "./interface";

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
}

/**
 * Blobs as files under `root` (key "org/2026-11/id.wav" → root/org/2026-11/id.wav). Writes go to a
 * temporary file first and are renamed into place, so a reader never sees half a clip.
 */
export function createFilesystemBlobStore(root: string): BlobStore {
  const base = path.resolve(root);
  const fileFor = (key: string) => {
    assertValidKey(key);
    return path.join(base, ...key.split("/"));
  };

  return {
    async put(key, data) {
      const file = fileFor(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${crypto.randomBytes(6).toString("hex")}.tmp`;
      await fs.promises.writeFile(tmp, data);
      await fs.promises.rename(tmp, file);
    },
    async get(key) {
      try {
        return await fs.promises.readFile(fileFor(key));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async stat(key) {
      try {
        const s = await fs.promises.stat(fileFor(key));
        return s.isFile() ? { size: s.size } : null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async stream(key, range?: ByteRange) {
      const file = fileFor(key);
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(file, "r");
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      const nodeStream = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
      return Readable.toWeb(nodeStream) as ReadableStream<Uint8Array>;
    },
    async delete(key) {
      await fs.promises.rm(fileFor(key), { force: true });
    },
  };
}
