/**
 * The blob stores every instance can share: PostgreSQL (the default; the run's database, PGlite or a
 * server) and S3-compatible object storage (the real AWS SDK against s3rver, a fake S3 on 127.0.0.1).
 * Both must keep bytes, answer byte ranges exactly and say null for a missing key.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require("s3rver");
import { closeDb, getDb } from "@/lib/platform/database";
import { createPostgresBlobStore, createS3BlobStore, type BlobStore } from "@/lib/platform/blob-store";

async function readAll(stream: ReadableStream<Uint8Array> | null): Promise<Buffer | null> {
  if (!stream) return null;
  const parts: Buffer[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-s3rver-"));
let s3rver: { run(): Promise<{ port: number }>; close(): Promise<void> };
let s3Endpoint = "";

beforeAll(async () => {
  s3rver = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir });
  const { port } = await s3rver.run();
  s3Endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: "us-east-1", endpoint: s3Endpoint, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  await client.send(new CreateBucketCommand({ Bucket: "switchboard-audio" }));
  client.destroy();
});

afterAll(async () => {
  await s3rver.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
  await closeDb();
});

const stores: [string, () => BlobStore][] = [
  // A small chunk size, so a range crosses several reads.
  ["postgres", () => createPostgresBlobStore(getDb, { chunkBytes: 1000 })],
  [
    "s3",
    () =>
      createS3BlobStore({
        bucket: "switchboard-audio",
        region: "us-east-1",
        endpoint: s3Endpoint,
        accessKeyId: "S3RVER",
        secretAccessKey: "S3RVER",
        forcePathStyle: true,
        prefix: "test/",
      }),
  ],
];

describe.each(stores)("%s blob store", (_name, make) => {
  const data = crypto.randomBytes(10_000);
  const key = () => `org-${crypto.randomUUID()}/2026-11/${crypto.randomUUID()}.wav`;

  it("keeps the bytes and answers their size", async () => {
    const store = make();
    const k = key();
    await store.put(k, data);
    expect((await store.get(k))?.equals(data)).toBe(true);
    expect(await store.stat(k)).toEqual({ size: data.length });
    expect((await readAll(await store.stream(k)))?.equals(data)).toBe(true);
  });

  it("streams exactly the requested byte range", async () => {
    const store = make();
    const k = key();
    await store.put(k, data);
    // (Not "bytes=0-0": s3rver answers it with the whole object; AWS S3 answers one byte.)
    for (const [start, end] of [
      [0, 1],
      [999, 1000],
      [1234, 5678],
      [9000, 9999],
    ]) {
      const part = await readAll(await store.stream(k, { start, end }));
      expect(part?.equals(data.subarray(start, end + 1))).toBe(true);
    }
  });

  it("overwrites a key, and a deleted or unknown key is null everywhere", async () => {
    const store = make();
    const k = key();
    await store.put(k, data);
    await store.put(k, Buffer.from("second"));
    expect((await store.get(k))?.toString()).toBe("second");
    await store.delete(k);
    expect(await store.get(k)).toBeNull();
    expect(await store.stat(k)).toBeNull();
    expect(await store.stream(k)).toBeNull();
    await expect(store.delete(k)).resolves.toBeUndefined();
  });

  it("refuses keys that could climb out of their place", async () => {
    const store = make();
    await expect(store.put("../etc/passwd", data)).rejects.toThrow(/Invalid blob key/);
  });
});

describe("postgres blob store and the old .data/audio folder", () => {
  it("copies a clip the table lacks from the old folder on first read, then serves it from the table", async () => {
    const legacyDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-legacy-audio-"));
    try {
      const k = `org-${crypto.randomUUID()}/2026-10/old.wav`;
      const bytes = crypto.randomBytes(3000);
      fs.mkdirSync(path.join(legacyDir, path.dirname(k)), { recursive: true });
      fs.writeFileSync(path.join(legacyDir, k), bytes);
      const store = createPostgresBlobStore(getDb, { legacyDir });
      expect(await store.stat(k)).toEqual({ size: 3000 });
      fs.rmSync(legacyDir, { recursive: true, force: true });
      // Gone from the folder: the table has it now, for every instance.
      const fresh = createPostgresBlobStore(getDb);
      expect((await fresh.get(k))?.equals(bytes)).toBe(true);
    } finally {
      fs.rmSync(legacyDir, { recursive: true, force: true });
    }
  });
});
