import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { bearer } from "better-auth/plugins";
import type { Db } from "@/db/client";
import { accounts, sessions, users, verifications } from "@/db/schema";
import { env } from "@/lib/platform/env";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/peer-address";
import { appSecret } from "@/lib/platform/crypto/app-secret";
import { PASSWORD_RESET_EXPIRES_IN_SECONDS, sendPasswordResetEmail } from "./password-reset-mail";

export const SESSION_COOKIE_PREFIX = "switchboard";
/** A session lives 30 days; a lookup more than a day after its last refresh pushes its expiry on. */
export const SESSION_EXPIRES_IN_SECONDS = 60 * 60 * 24 * 30;
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60 * 24;

function createAuth(db: Db) {
  return betterAuth({
    appName: "Switchboard",
    baseURL: env.PUBLIC_URL,
    // Better Auth's own HTTP handler is not mounted: the contract routes under /api/auth/* call
    // auth.api.* on the server. The base path only has to not collide with them.
    basePath: "/api/better-auth",
    secret: appSecret(),
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      autoSignIn: true,
      // "Forgot password?" (issue 30): a single-use link, valid 30 minutes, e-mailed through lib/platform/outbound/mail.ts
      // (SMTP, the owner's Gmail, or the Outbox without either). A reset signs the account out everywhere.
      resetPasswordTokenExpiresIn: PASSWORD_RESET_EXPIRES_IN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        await sendPasswordResetEmail(db, { id: user.id, email: user.email }, token);
      },
    },
    user: {
      additionalFields: {
        username: { type: "string", required: true },
        firstName: { type: "string", required: true },
        lastName: { type: "string", required: true },
        role: { type: "string", required: false, defaultValue: "individual" },
        status: { type: "string", required: false, defaultValue: "active" },
        organizationId: { type: "string", required: true },
      },
    },
    session: { expiresIn: SESSION_EXPIRES_IN_SECONDS, updateAge: SESSION_UPDATE_AGE_SECONDS },
    // Failed logins are throttled by the contract route itself (lib/identity/auth/login-throttle.ts): server-side
    // auth.api calls bypass Better Auth's limiter anyway.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: secureCookies(),
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true },
      // The address recorded on each session: the same one the rate limits use (lib/platform/http/client-ip.ts).
      ipAddress: { ipAddressHeaders: env.TRUST_PROXY_HEADERS ? ["x-forwarded-for"] : [PEER_ADDRESS_HEADER] },
    },
    logger: { level: env.NODE_ENV === "test" ? "error" : "warn" },
    plugins: [bearer({ requireSignature: true })],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { __switchboardAuth?: WeakMap<Db, Auth> };

/** Better Auth over this database handle; built once per handle. */
export function getAuth(db: Db): Auth {
  const byDb = (globalForAuth.__switchboardAuth ??= new WeakMap());
  let auth = byDb.get(db);
  if (!auth) {
    auth = createAuth(db);
    byDb.set(db, auth);
  }
  return auth;
}

/** Whether cookies are Secure (and __Secure- prefixed): PUBLIC_URL is https. */
export function secureCookies(): boolean {
  return env.PUBLIC_URL.startsWith("https://");
}

function cookieName(name: string): string {
  const base = `${SESSION_COOKIE_PREFIX}.${name}`;
  return secureCookies() ? `__Secure-${base}` : base;
}

/** Name of the session cookie Better Auth sets and reads (with the __Secure- prefix on https). */
export function sessionCookieName(): string {
  return cookieName("session_token");
}

/** Every cookie Better Auth may set for a session: signing out clears them all. */
export function authCookieNames(): string[] {
  return ["session_token", "session_data", "dont_remember"].map(cookieName);
}
