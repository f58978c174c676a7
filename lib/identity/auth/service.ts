import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sessions, users } from "@/db/schema";
import { env } from "@/lib/platform/env";
import { conflict, HttpError, unauthorized } from "@/lib/platform/http/errors";
import { hitRateLimit } from "@/lib/platform/http/rate-limit";
import { getAuth } from "./auth";
import { assertLoginAllowed, clearLoginFailures, releaseLoginAttempt } from "./login-throttle";
import type { Role } from "./roles";
import type { LoginInput, RegisterInput } from "./schemas";
import { toSessionUser, type SessionUser } from "./session";
import { isUniqueViolation } from "@/lib/platform/database-errors";

/** What a successful sign-in or sign-up hands back: the signed session id and the cookies to set. */
export type SignedIn = { sessionId: string; user: SessionUser; setCookies: string[] };

function signedInFrom(result: { headers: Headers; response: { user: unknown } }): SignedIn {
  const sessionId = result.headers.get("set-auth-token");
  if (!sessionId) throw new Error("Better Auth returned no session token");
  return {
    sessionId,
    user: toSessionUser(result.response.user as Parameters<typeof toSessionUser>[0]),
    setCookies: result.headers.getSetCookie(),
  };
}

/** Which of e-mail and username is already taken (case-insensitive), if any. */
export async function findTakenIdentity(db: Db, email: string, username: string): Promise<"email" | "username" | null> {
  const [byEmail] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
  if (byEmail) return "email";
  const [byUsername] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return byUsername ? "username" : null;
}

function takenError(which: "email" | "username") {
  return which === "email"
    ? conflict("An account with this email already exists", { email: "An account with this email already exists" })
    : conflict("This username is already taken", { username: "This username is already taken" });
}

/** E-mail or username already taken (case-insensitive) → 409 naming which. */
export async function assertIdentityFree(db: Db, email: string, username: string) {
  const taken = await findTakenIdentity(db, email.toLowerCase(), username);
  if (taken) throw takenError(taken);
}

export const REGISTRATION_WINDOW_MS = 60 * 60 * 1000;

/**
 * New accounts from one client address: REGISTRATIONS_PER_IP_PER_HOUR (default 10) attempts per
 * hour across POST /api/auth/register and /api/auth/signup, counted whether or not they succeed.
 * Each account gets welcome credits, so an unlimited sign-up would be a credit faucet.
 */
export async function assertRegistrationAllowed(db: Db, ip: string | null) {
  if (!ip) return;
  await hitRateLimit(
    db,
    `register:ip:${ip}`,
    env.REGISTRATIONS_PER_IP_PER_HOUR,
    REGISTRATION_WINDOW_MS,
    "Too many new accounts from your network. Please try again later.",
  );
}

export type NewUser = RegisterInput & {
  role?: Role;
  /** The organization the user belongs to (made by the caller: lib/consoles/signup/account.ts, the seed, an admin). */
  organizationId: string;
};

/**
 * Creates the user in an existing organization and signs them in. Organizations, credits and the
 * starter assistant belong to sign-up (lib/consoles/signup/account.ts), not to auth.
 * E-mail or username already taken → 409 naming which.
 */
export async function createUser(db: Db, input: NewUser, headers: Headers): Promise<SignedIn> {
  const email = input.email.toLowerCase();
  await assertIdentityFree(db, email, input.username);
  const auth = getAuth(db);
  try {
    const result = await auth.api.signUpEmail({
      body: {
        email,
        password: input.password,
        name: `${input.firstName} ${input.lastName}`.trim(),
        username: input.username,
        firstName: input.firstName,
        lastName: input.lastName,
        role: input.role ?? "individual",
        organizationId: input.organizationId,
      },
      headers,
      returnHeaders: true,
    });
    return signedInFrom(result);
  } catch (error) {
    // A concurrent sign-up may have taken the e-mail or username between the check and the insert.
    if (isAuthApiError(error) || isUniqueViolation(error)) {
      const again = await findTakenIdentity(db, email, input.username);
      if (again) throw takenError(again);
      if (isAuthApiError(error)) throw new HttpError(400, error.message || "Registration failed");
    }
    throw error;
  }
}

/**
 * Better Auth's expected failures (wrong password, user exists…). Matched by shape, not by class:
 * the bundler may load better-call's ESM and CJS builds side by side, so `instanceof` can miss
 * (it did: a wrong current password in Settings answered 500 in the production build).
 */
export function isAuthApiError(error: unknown): error is Error & { statusCode: number; body?: unknown } {
  return error instanceof Error && error.name === "APIError" && typeof (error as { statusCode?: unknown }).statusCode === "number";
}

/** The machine-readable code of a Better Auth failure ("INVALID_PASSWORD", …), or null. */
export function authErrorCode(error: unknown): string | null {
  if (!isAuthApiError(error)) return null;
  const code = (error.body as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : null;
}

const INVALID_CREDENTIALS = "Invalid email or password. Please check your credentials and try again.";

/** Email + password sign-in, throttled per e-mail and per IP. */
export async function signIn(db: Db, input: LoginInput, headers: Headers, ip: string | null): Promise<SignedIn> {
  const email = input.email.toLowerCase();
  const attempt = await assertLoginAllowed(db, email, ip);
  const auth = getAuth(db);
  let signedIn: SignedIn;
  try {
    signedIn = signedInFrom(
      await auth.api.signInEmail({ body: { email, password: input.password }, headers, returnHeaders: true }),
    );
  } catch (error) {
    // A wrong password keeps the reserved attempt as its failure; anything else gives it back.
    if (isAuthApiError(error)) throw unauthorized(INVALID_CREDENTIALS);
    await releaseLoginAttempt(db, attempt);
    throw error;
  }
  await releaseLoginAttempt(db, attempt);
  if (signedIn.user.status !== "active") {
    await auth.api.signOut({ headers: bearerHeaders(signedIn.sessionId) }).catch(() => undefined);
    throw new HttpError(403, "This account is suspended. Please contact support.");
  }
  await clearLoginFailures(db, email);
  return signedIn;
}

export function bearerHeaders(sessionId: string): Headers {
  return new Headers({ authorization: `Bearer ${sessionId}` });
}

/** Ends the session carried by these headers (bearer or cookie) in the database. */
export async function signOut(db: Db, headers: Headers): Promise<void> {
  const auth = getAuth(db);
  await auth.api.signOut({ headers }).catch(() => undefined);
}

/** Ends every session of a user but, optionally, one (after a password change). */
export async function endOtherSessions(db: Db, userId: string, keepToken?: string) {
  await db
    .delete(sessions)
    .where(keepToken ? and(eq(sessions.userId, userId), ne(sessions.token, keepToken)) : eq(sessions.userId, userId));
}
