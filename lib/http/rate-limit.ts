import "server-only";
import crypto from "node:crypto";
import { and, count, eq, gt, lt, min } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rateLimitHits } from "@/db/schema";
import { tooManyRequests } from "./errors";

/**
 * A sliding-window limit kept in the database, so it holds across instances: at most `limit`
 * hits for `key` within `windowMs`. Records the hit when allowed; throws 429 with Retry-After when not.
 */
export async function hitRateLimit(db: Db, key: string, limit: number, windowMs: number, message: string, now = new Date()) {
  const since = new Date(now.getTime() - windowMs);
  const [row] = await db
    .select({ n: count(), oldest: min(rateLimitHits.createdAt) })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.key, key), gt(rateLimitHits.createdAt, since)));
  if (row.n >= limit) {
    const oldest = row.oldest ? new Date(row.oldest).getTime() : now.getTime();
    throw tooManyRequests(message, Math.max(1, Math.ceil((oldest + windowMs - now.getTime()) / 1000)));
  }
  await db.insert(rateLimitHits).values({ id: crypto.randomUUID(), key, createdAt: now });
  if (Math.random() < 0.05) await db.delete(rateLimitHits).where(lt(rateLimitHits.createdAt, new Date(now.getTime() - 24 * 3600_000)));
}
