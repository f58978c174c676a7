import "server-only";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { assertValidKey, type BlobStore, type ByteRange } from "./interface";

export type S3BlobStoreConfig = {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (Cloudflare R2, MinIO, a local fake); AWS S3 when absent. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Bucket in the path (http://host/bucket/key) instead of the host name: MinIO and most fakes want it. */
  forcePathStyle?: boolean;
  /** Keys are stored under this prefix ("switchboard/"), so one bucket can serve several deployments. */
  prefix?: string;
};

/** S3 answers a missing key with 404 (NotFound on HEAD, NoSuchKey on GET). */
function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Blobs in S3-compatible object storage (BLOB_STORE=s3): AWS S3, Cloudflare R2, MinIO. Ranges are
 * S3's own (`Range: bytes=a-b`), streamed straight through.
 */
export function createS3BlobStore(config: S3BlobStoreConfig, client?: S3Client): BlobStore {
  const s3 =
    client ??
    new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle ?? false,
      ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
      maxAttempts: 3,
    });
  const Bucket = config.bucket;
  const objectKey = (key: string) => {
    assertValidKey(key);
    return `${config.prefix ?? ""}${key}`;
  };

  return {
    async put(key, data) {
      await s3.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: data, ContentLength: data.length }));
    },

    async get(key) {
      try {
        const out = await s3.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async stat(key) {
      try {
        const out = await s3.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return { size: out.ContentLength ?? 0 };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async stream(key, range?: ByteRange) {
      try {
        const out = await s3.send(new GetObjectCommand({ Bucket, Key: objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
        if (!out.Body) return new ReadableStream<Uint8Array>({ start: (c) => c.close() });
        return out.Body.transformToWebStream() as ReadableStream<Uint8Array>;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      await s3.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
  };
}
