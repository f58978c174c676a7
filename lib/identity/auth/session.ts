import "server-only";
import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sessions, users } from "@/db/schema";
import { serverStatementName } from "@/lib/platform/database-statements";
import { getAuth, SESSION_EXPIRES_IN_SECONDS, SESSION_UPDATE_AGE_SECONDS, sessionCookieName } from "./auth";
import { appSecret } from "@/lib/platform/crypto/app-secret";
import { sessionCache } from "./session-cache";
import { isRole, permissionsFor, type Permission, type Role } from "./roles";
import { expireIdleSession } from "@/lib/identity/auth/idle-sessions";

export type SessionUser = {
  id: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  role: Role;
  permissions: Permission[];
  organizationId: string;
  status: string;
};

type AuthUserRecord = {
  id: string;
  email: string;
  username?: unknown;
  firstName?: unknown;
  lastName?: unknown;
  role?: unknown;
  organizationId?: unknown;
  status?: unknown;
};

export function toSessionUser(user: AuthUserRecord): SessionUser {
  const role: Role = isRole(user.role) ? user.role : "individual";
  return {
    id: user.id,
    email: user.email,
    username: String(user.username ?? ""),
    firstName: String(user.firstName ?? ""),
    lastName: String(user.lastName ?? ""),
    role,
    permissions: permissionsFor(role),
    organizationId: String(user.organizationId ?? ""),
    status: String(user.status ?? "active"),
  };
}

/** The public shape of a user, as /api/auth/me and login answer it. Never carries secrets. */
export function publicUser(user: SessionUser) {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    permissions: user.permissions,
    organizationId: user.organizationId,
  };
}

/**
 * The signed-in user for a request: the session id comes as `Authorization: Bearer <sessionId>`
 * or as the httpOnly session cookie. Suspended or cancelled accounts have no session.
 *
 * Every authed request asks this, so the common case takes a fast path (docs/benchmarks.md,
 * "HTTP routes"): the signed token is checked here with one HMAC and the session and its user come
 * from one indexed query (a prepared statement) — on embedded PGlite, from memory kept exact by the
 * database's change notices (./session-cache.ts). Whatever the fast path cannot answer exactly as
 * Better Auth would — a malformed header or cookie, a session that has expired (Better Auth deletes
 * it) or is due for its daily refresh (Better Auth pushes its expiry on) — goes to Better Auth.
 */
export type Session = { user: SessionUser; token: string };

export async function resolveSession(db: Db, headers: Headers): Promise<Session | null> {
  // HIPAA mode ends sessions idle for too long (lib/identity/auth/idle-sessions.ts).
  return expireIdleSession(db, await sessionOf(db, headers));
}

async function sessionOf(db: Db, headers: Headers): Promise<Session | null> {
  const fast = await fastSession(db, headers);
  if (fast !== undefined) return fast;
  const auth = getAuth(db);
  const result = await auth.api.getSession({ headers, query: { disableCookieCache: true } }).catch(() => null);
  if (!result) return null;
  return activeSession(toSessionUser(result.user as AuthUserRecord), result.session.token);
}

function activeSession(user: SessionUser, token: string): Session | null {
  if (user.status !== "active" || !user.organizationId) return null;
  return { user, token };
}

/** The session and its user by token: one query, prepared once per database handle. */
function sessionLookup(db: Db) {
  return db
    .select({
      token: sessions.token,
      expiresAt: sessions.expiresAt,
      id: users.id,
      email: users.email,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      organizationId: users.organizationId,
      status: users.status,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.token, sql.placeholder("token")))
    .limit(1)
    .prepare(serverStatementName("switchboard_session_lookup"));
}

type SessionLookup = ReturnType<typeof sessionLookup>;
type SessionRow = Awaited<ReturnType<SessionLookup["execute"]>>[number];

/** The session's row by token: from the in-process cache where there is one (embedded PGlite), else the query. */
async function lookupRow(db: Db, token: string): Promise<SessionRow | undefined> {
  const query = async () => (await preparedLookup(db).execute({ token }))[0];
  const cache = sessionCache<SessionRow>(db);
  if (!cache) return query();
  return cache.get(token) ?? cache.load(token, query);
}
const globalForSessions = globalThis as unknown as { __switchboardSessionLookup?: WeakMap<Db, SessionLookup> };

function preparedLookup(db: Db): SessionLookup {
  const byDb = (globalForSessions.__switchboardSessionLookup ??= new WeakMap());
  let lookup = byDb.get(db);
  if (!lookup) {
    lookup = sessionLookup(db);
    byDb.set(db, lookup);
  }
  return lookup;
}

/** The first value of a cookie, as Better Auth's parser reads it (first occurrence, quotes, URI-decoded). */
function cookieValue(header: string, name: string): string | null | undefined {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.codePointAt(0) === 34) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined; // Better Auth keeps the raw text: leave it to Better Auth
    }
  }
  return null;
}

/** `<token>.<base64 HMAC-SHA256 of token>` → the token when the signature is exactly ours, else undefined. */
function verifiedToken(signed: string): string | undefined {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return undefined;
  const token = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return undefined;
  const expected = crypto.createHmac("sha256", appSecret()).update(token).digest("base64");
  return crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature)) ? token : undefined;
}

/**
 * The session when the request is the ordinary case, null when it certainly has none, undefined
 * when Better Auth must decide.
 */
async function fastSession(db: Db, headers: Headers): Promise<Session | null | undefined> {
  let token: string | undefined;
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    // A bearer token is the signed cookie value, sent as is (a token of Better Auth's, unencoded).
    if (authorization.slice(0, 7).toLowerCase() !== "bearer ") return undefined;
    const signed = authorization.slice(7).trim();
    if (signed.includes("%") || signed.split(".").length !== 2) return undefined;
    token = verifiedToken(signed);
  } else {
    const signed = cookieValue(headers.get("cookie") ?? "", sessionCookieName());
    if (signed === null) return null; // neither bearer nor session cookie: no session
    if (signed === undefined) return undefined;
    token = verifiedToken(signed);
  }
  if (token === undefined) return undefined;

  const row = await lookupRow(db, token);
  if (!row) return null;
  const expiresAt = row.expiresAt.getTime();
  const now = Date.now();
  if (expiresAt < now) return undefined;
  if (expiresAt - SESSION_EXPIRES_IN_SECONDS * 1000 + SESSION_UPDATE_AGE_SECONDS * 1000 <= now) return undefined;
  return activeSession(toSessionUser(row), row.token);
}
