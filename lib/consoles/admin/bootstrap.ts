import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { endOtherSessions } from "@/lib/identity/auth/service";
import { registerAccount } from "@/lib/consoles/signup/account";

export const MASTER_ADMIN_PASSWORD_MIN = 12;
export const MASTER_ADMIN_ORGANIZATION = "Switchboard administration";

export type MasterAdminInput = { email: string; password: string; firstName?: string; lastName?: string };

/** A free username from the e-mail's local part ("ops.team@x" → "ops.team", then "ops.team2", …). */
async function freeUsername(db: Db, email: string): Promise<string> {
  const cleaned = (email.split("@")[0] ?? "").replace(/[^A-Za-z0-9._-]/g, "").slice(0, 40);
  const base = cleaned.length >= 3 ? cleaned : "admin";
  for (let i = 0; i < 100; i++) {
    const candidate = i === 0 ? base : `${base}${i + 1}`;
    const [taken] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = ${candidate.toLowerCase()}`).limit(1);
    if (!taken) return candidate;
  }
  return `${base}${Date.now().toString(36)}`;
}

/**
 * Creates a master admin with an organization of its own. The password is stored hashed by Better
 * Auth like any other; no session is left behind. Throws 409 when the e-mail is taken.
 */
export async function createMasterAdmin(db: Db, input: MasterAdminInput) {
  const email = input.email.trim().toLowerCase();
  if (input.password.length < MASTER_ADMIN_PASSWORD_MIN) {
    throw new Error(`The master admin's password must be at least ${MASTER_ADMIN_PASSWORD_MIN} characters`);
  }
  const signedIn = await registerAccount(
    db,
    {
      email,
      password: input.password,
      username: await freeUsername(db, email),
      firstName: input.firstName?.trim() || "Master",
      lastName: input.lastName?.trim() || "Admin",
      role: "master_admin",
      organizationName: MASTER_ADMIN_ORGANIZATION,
    },
    new Headers(),
  );
  await endOtherSessions(db, signedIn.user.id);
  return signedIn.user;
}

export type BootstrapOutcome = "created" | "exists" | "email-taken" | "not-configured";

/**
 * The first master admin of a deployment (docs/deploy.md): when MASTER_ADMIN_EMAIL and
 * MASTER_ADMIN_PASSWORD are set and the database has no master admin yet, creates one. Never
 * changes an existing account: once any master admin exists (or the e-mail belongs to someone),
 * the variables are ignored and can be removed.
 */
export async function ensureFirstMasterAdmin(db: Db, email: string | undefined, password: string | undefined): Promise<BootstrapOutcome> {
  if (!email || !password) return "not-configured";
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.role, "master_admin")).limit(1);
  if (existing) return "exists";
  const [taken] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`).limit(1);
  if (taken) return "email-taken";
  await createMasterAdmin(db, { email, password });
  return "created";
}
