import "server-only";
import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { blobs } from "@/db/schema";
import { assertValidKey, type BlobStore, type ByteRange } from "./interface";

/** A range is read in pieces of this size, so a long recording never sits whole in memory. */
const CHUNK_BYTES = 256 * 1024;

/** Bytes read as hex text and decoded natively: the embedded driver parses a bytea column with one parseInt per byte. */
const fromHex = (hex: string) => Buffer.from(hex, "hex");

export type PostgresBlobStoreOptions = {
  chunkBytes?: number;
  /**
   * The folder of the old filesystem store (`.data/audio`): a key missing from the table but present
   * there is copied into the table on first read, so an install's earlier audio keeps playing.
   */
  legacyDir?: string;
};

/**
 * Blobs in the database's `blob` table (db/schema/voice.ts): the default, so every instance reads the
 * same audio with nothing else to run. The column is stored uncompressed out of line, so a byte range
 * is a substring() that reads only its TOAST chunks.
 */
export function createPostgresBlobStore(getDb: () => Promise<DbOrTx>, options: PostgresBlobStoreOptions = {}): BlobStore {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;

  async function put(key: string, data: Buffer, db?: DbOrTx) {
    assertValidKey(key);
    // The bytes go as one hex string (encoded natively) that the server decodes, and once: a bytea
    // parameter is hex-encoded byte by byte in JavaScript by the embedded driver, on the event loop
    // every request shares (docs/benchmarks.md, "Audio into the blob table").
    await (db ?? (await getDb()))
      .insert(blobs)
      .values({ key, data: sql`decode(${data.toString("hex")}, 'hex')`, size: data.length })
      .onConflictDoUpdate({ target: blobs.key, set: { data: sql`excluded.data`, size: sql`excluded.size`, createdAt: new Date() } });
  }

  /** A key the table lacks, from the old folder (copied in): null when neither has it. */
  async function fromLegacy(key: string): Promise<Buffer | null> {
    if (!options.legacyDir) return null;
    const file = path.join(options.legacyDir, ...key.split("/"));
    let data: Buffer;
    try {
      data = await fs.promises.readFile(file);
    } catch {
      return null;
    }
    await put(key, data);
    return data;
  }

  async function size(key: string): Promise<number | null> {
    assertValidKey(key);
    const db = await getDb();
    const [row] = await db.select({ size: blobs.size }).from(blobs).where(eq(blobs.key, key));
    if (row) return row.size;
    return (await fromLegacy(key))?.length ?? null;
  }

  async function part(key: string, from: number, length: number): Promise<Buffer | null> {
    const db = await getDb();
    const [row] = await db
      .select({ part: sql<string>`encode(substring(${blobs.data} from ${from + 1} for ${length}), 'hex')` })
      .from(blobs)
      .where(eq(blobs.key, key));
    return row ? fromHex(row.part) : null;
  }

  return {
    put: (key, data, putOptions) => put(key, data, putOptions?.db),

    async get(key) {
      assertValidKey(key);
      const db = await getDb();
      const [row] = await db.select({ data: sql<string>`encode(${blobs.data}, 'hex')` }).from(blobs).where(eq(blobs.key, key));
      return row ? fromHex(row.data) : fromLegacy(key);
    },

    async stat(key) {
      const n = await size(key);
      return n === null ? null : { size: n };
    },

    async stream(key, range?: ByteRange) {
      const total = await size(key);
      if (total === null) return null;
      const start = range?.start ?? 0;
      const end = Math.min(range?.end ?? total - 1, total - 1);
      let next = start;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (next > end) {
            controller.close();
            return;
          }
          const length = Math.min(chunkBytes, end - next + 1);
          const bytes = await part(key, next, length);
          if (!bytes || bytes.length === 0) {
            controller.error(new Error(`Blob ${key} disappeared while it was read`));
            return;
          }
          next += bytes.length;
          controller.enqueue(new Uint8Array(bytes));
        },
      });
    },

    async delete(key) {
      assertValidKey(key);
      const db = await getDb();
      await db.delete(blobs).where(eq(blobs.key, key));
    },
  };
}
