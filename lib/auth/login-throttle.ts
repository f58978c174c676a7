import "server-only";
import crypto from "node:crypto";
import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loginFailures } from "@/db/schema";
import { tooManyRequests } from "@/lib/http/errors";

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

/** Throws 429 with Retry-After when the e-mail or the IP has used up its failures in the window. */
export async function assertLoginAllowed(db: Db, email: string, ip: string | null, now = new Date()) {
  const since = new Date(now.getTime() - LOGIN_FAILURE_WINDOW_MS);
  const rows = await db
    .select({ key: loginFailures.key, count: sql<number>`count(*)::int`, oldest: sql<Date>`min(${loginFailures.createdAt})` })
    .from(loginFailures)
    .where(and(inArray(loginFailures.key, keysFor(email, ip)), gt(loginFailures.createdAt, since)))
    .groupBy(loginFailures.key);
  const blocked = rows.filter((r) => r.count >= limitFor(r.key));
  if (blocked.length === 0) return;
  // The block lifts when enough of the oldest failures leave the window; the oldest one is a safe bound.
  const retryAt = Math.max(...blocked.map((r) => new Date(r.oldest).getTime() + LOGIN_FAILURE_WINDOW_MS));
  const retryAfter = Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000));
  throw tooManyRequests(
    `Too many failed sign-in attempts. Please wait ${Math.ceil(retryAfter / 60)} minute(s) and try again.`,
    retryAfter,
  );
}

export async function recordLoginFailure(db: Db, email: string, ip: string | null) {
  await db.insert(loginFailures).values(keysFor(email, ip).map((key) => ({ id: crypto.randomUUID(), key })));
  // Keep the table small: drop what has left the window.
  await db.delete(loginFailures).where(lt(loginFailures.createdAt, new Date(Date.now() - LOGIN_FAILURE_WINDOW_MS)));
}

export async function clearLoginFailures(db: Db, email: string) {
  await db.delete(loginFailures).where(eq(loginFailures.key, keysFor(email, null)[0]));
}

