import "server-only";
import crypto from "node:crypto";
import { eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loginFailures } from "@/db/schema";
import { tooManyRequests } from "@/lib/platform/http/errors";
import { releaseHits, reserveHits, type HitTable, type Reservation } from "@/lib/platform/http/rate-limit";

/**
 * Failed sign-ins (and wrong current passwords in Settings → Security) allowed within the window:
 * 10 per account e-mail, so one account cannot be guessed at; 50 per client address, so an office,
 * campus or carrier NAT sharing one address is not locked out by a few people's typos — below 50,
 * one account's failures never block another account's correct password (docs/security.md).
 */
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_FAILURES_PER_IP = 50;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

const EMAIL_PREFIX = "email:";

function keysFor(email: string, ip: string | null): string[] {
  const keys = [`${EMAIL_PREFIX}${email.trim().toLowerCase()}`];
  if (ip) keys.push(`ip:${ip}`);
  return keys;
}

function limitFor(key: string): number {
  return key.startsWith(EMAIL_PREFIX) ? LOGIN_FAILURE_LIMIT : LOGIN_FAILURES_PER_IP;
}

/**
 * Reserves one attempt for the e-mail and the client address before the password is checked
 * (reserveHits: counted and written under a lock per key, so a burst cannot slip past the limit);
 * throws 429 with Retry-After when either has used up its failures in the window. The reservation
 * stands as the failure when the password is wrong; `attemptSucceeded` gives it back.
 */
export async function assertLoginAllowed(db: Db, email: string, ip: string | null, now = new Date()): Promise<Reservation> {
  const table = loginFailures as unknown as HitTable;
  const result = await reserveHits(db, table, keysFor(email, ip).map((key) => ({ key, limit: limitFor(key) })), LOGIN_FAILURE_WINDOW_MS, now);
  if ("reservation" in result) {
    if (Math.random() < 0.05) await db.delete(loginFailures).where(lt(loginFailures.createdAt, new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS)));
    return result.reservation;
  }
  // The block lifts when enough of the oldest failures leave the window; the oldest one is a safe bound.
  const retryAfter = Math.max(...result.blocked.map((b) => b.retryAfterSeconds));
  throw tooManyRequests(
    `Too many failed sign-in attempts. Please wait ${Math.ceil(retryAfter / 60)} minute(s) and try again.`,
    retryAfter,
  );
}

/** The attempt was not a wrong password (it succeeded, or failed for another reason): it does not count. */
export async function releaseLoginAttempt(db: Db, attempt: Reservation) {
  await releaseHits(db, attempt);
}

/** Records a failure without an attempt (tests, imports of old failures). */
export async function recordLoginFailure(db: Db, email: string, ip: string | null) {
  await db.insert(loginFailures).values(keysFor(email, ip).map((key) => ({ id: crypto.randomUUID(), key })));
}

/** A correct password: the account's earlier failures are forgiven. */
export async function clearLoginFailures(db: Db, email: string) {
  await db.delete(loginFailures).where(eq(loginFailures.key, keysFor(email, null)[0]));
}
