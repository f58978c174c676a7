import "server-only";
import crypto from "node:crypto";
import { and, count, eq, gt, inArray, lt, min, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rateLimitHits } from "@/db/schema";
import { tooManyRequests } from "./errors";

/** A table of timestamped hits per key (rate_limit_hit, login_failure): the same three columns. */
export type HitTable = typeof rateLimitHits;

export type Reservation = { table: HitTable; ids: string[] };
export type Blocked = { key: string; retryAfterSeconds: number };

/**
 * Reserves one hit for each key, atomically: under a transaction-scoped advisory lock per key
 * (taken in a fixed order, so two requests never wait on each other in a circle) the hits within
 * the window are counted and, when every key is under its limit, the new hits are written before
 * the lock is released. Concurrent requests for one key therefore queue on the lock and each sees
 * the hits of those before it: a burst of 40 gets exactly `limit` through, on PostgreSQL and PGlite.
 * Answers the reservation, or the keys that are at their limit (nothing is written then).
 */
export async function reserveHits(
  db: Db,
  table: HitTable,
  slots: { key: string; limit: number }[],
  windowMs: number,
  now = new Date(),
): Promise<{ reservation: Reservation } | { blocked: Blocked[] }> {
  const since = new Date(now.getTime() - windowMs);
  const keys = [...new Set(slots.map((s) => s.key))].sort();
  return db.transaction(async (tx) => {
    for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`hits:${key}`}, 0))`);
    const rows = await tx
      .select({ key: table.key, n: count(), oldest: min(table.createdAt) })
      .from(table)
      .where(and(inArray(table.key, keys), gt(table.createdAt, since)))
      .groupBy(table.key);
    const blocked: Blocked[] = [];
    for (const slot of slots) {
      const row = rows.find((r) => r.key === slot.key);
      if (row && row.n >= slot.limit) {
        const oldest = row.oldest ? new Date(row.oldest).getTime() : now.getTime();
        blocked.push({ key: slot.key, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now.getTime()) / 1000)) });
      }
    }
    if (blocked.length) return { blocked };
    const values = keys.map((key) => ({ id: crypto.randomUUID(), key, createdAt: now }));
    await tx.insert(table).values(values);
    return { reservation: { table, ids: values.map((v) => v.id) } };
  });
}

/** Gives reserved hits back (the attempt they stood for did not count, e.g. a correct password). */
export async function releaseHits(db: Db, reservation: Reservation): Promise<void> {
  if (reservation.ids.length) await db.delete(reservation.table).where(inArray(reservation.table.id, reservation.ids));
}

/**
 * A sliding-window limit kept in the database, so it holds across instances: at most `limit`
 * hits for `key` within `windowMs`. Records the hit when allowed (atomically, reserveHits);
 * throws 429 with Retry-After when not.
 */
export async function hitRateLimit(db: Db, key: string, limit: number, windowMs: number, message: string, now = new Date()) {
  const result = await reserveHits(db, rateLimitHits, [{ key, limit }], windowMs, now);
  if ("blocked" in result) throw tooManyRequests(message, result.blocked[0].retryAfterSeconds);
  if (Math.random() < 0.05) await db.delete(rateLimitHits).where(lt(rateLimitHits.createdAt, new Date(now.getTime() - 24 * 3600_000)));
}

/** Hits of `key` within the window (tests and admin views). */
export async function countHits(db: Db, key: string, windowMs: number, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.key, key), gt(rateLimitHits.createdAt, new Date(now.getTime() - windowMs))));
  return row.n;
}
