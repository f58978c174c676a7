import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sessions, users } from "@/db/schema";
import { createStarterAssistant } from "@/lib/assistants/starter";
import { changeCredits } from "@/lib/billing/ledger";
import { getPlan } from "@/lib/billing/plans";
import { env } from "@/lib/env";
import { conflict, HttpError, unauthorized } from "@/lib/http/errors";
import { hitRateLimit } from "@/lib/http/rate-limit";
import { createOrganization, deleteOrganization, type Tier } from "@/lib/organizations/service";
import { getAuth } from "./auth";
import { assertLoginAllowed, clearLoginFailures, releaseLoginAttempt } from "./login-throttle";
import type { Role } from "./roles";
import type { LoginInput, RegisterInput } from "./schemas";
import { toSessionUser, type SessionUser } from "./session";
import { isUniqueViolation } from "@/lib/database-errors";

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

export type NewAccount = RegisterInput & {
  role?: Role;
  /** Join this organization instead of creating one (seed, admin-created users). */
  organizationId?: string;
  organizationName?: string;
  tier?: Tier;
  tierStatus?: "active" | "trialing";
};

/**
 * Creates the user with an organization of their own (its welcome credits and its starter
 * assistant, lib/assistants/starter.ts), and signs them in.
 * E-mail or username already taken → 409 naming which.
 */
export async function registerAccount(db: Db, input: NewAccount, headers: Headers): Promise<SignedIn> {
  const email = input.email.toLowerCase();
  const taken = await findTakenIdentity(db, email, input.username);
  if (taken) throw takenError(taken);

  const ownOrganization = !input.organizationId;
  const organizationName = input.organizationName?.trim() || `${input.firstName}'s workspace`;
  const org = input.organizationId
    ? { id: input.organizationId }
    : await createOrganization(db, {
        name: organizationName,
        tier: input.tier ?? "free",
        status: input.tierStatus ?? "active",
      });
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
        organizationId: org.id,
      },
      headers,
      returnHeaders: true,
    });
    const signedIn = signedInFrom(result);
    if (ownOrganization) {
      const plan = getPlan(input.tier ?? "free");
      await changeCredits(db, org.id, "grant", plan.initialCredits, {
        reason: `Welcome credits for the ${plan.name} plan`,
        reference: "signup",
        actorUserId: signedIn.user.id,
      });
      // A working assistant from the first minute: the voice test and the mobile chat answer at once.
      await createStarterAssistant(db, org.id, organizationName, { namedByUser: Boolean(input.organizationName?.trim()) });
    }
    return signedIn;
  } catch (error) {
    if (ownOrganization) await deleteOrganization(db, org.id);
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
