import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { notificationPreferences, users } from "@/db/schema";
import { preferenceColumns } from "./notification-columns";
import { getAuth } from "@/lib/identity/auth/auth";
import { assertLoginAllowed, clearLoginFailures, releaseLoginAttempt } from "@/lib/identity/auth/login-throttle";
import { authErrorCode, endOtherSessions, isAuthApiError } from "@/lib/identity/auth/service";
import { publicUser, toSessionUser } from "@/lib/identity/auth/session";
import { clientIp } from "@/lib/platform/http/client-ip";
import { badRequest, conflict, notFound } from "@/lib/platform/http/errors";
import type { RequestContext } from "@/lib/identity/http/route";
import {
  notificationDefaults,
  type NotificationPreferences,
  type NotificationsInput,
  type PasswordInput,
  type ProfileInput,
} from "./schema";
import { isUniqueViolation } from "@/lib/platform/database-errors";

const EMAIL_TAKEN = "An account with this email already exists";

/**
 * Settings → Profile: first and last name (and the display name built from them) and the e-mail,
 * unique case-insensitively across all users (409 naming `email`). Returns the /api/auth/me shape.
 */
export async function updateProfile(db: Db, ctx: RequestContext, input: ProfileInput) {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${input.email}`, ne(users.id, ctx.userId)))
    .limit(1);
  if (taken) throw conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN });
  let row;
  try {
    [row] = await db
      .update(users)
      .set({
        firstName: input.firstName,
        lastName: input.lastName,
        name: `${input.firstName} ${input.lastName}`.trim(),
        email: input.email,
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, ctx.userId), eq(users.organizationId, ctx.organizationId)))
      .returning();
  } catch (error) {
    // Someone took the address between the check and the update.
    if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN });
    throw error;
  }
  if (!row) throw notFound("User");
  return publicUser(toSessionUser(row));
}

const WRONG_PASSWORD = "Current password is incorrect";

/**
 * Settings → Security. Better Auth verifies the current password against the stored hash and
 * stores the new hash; then every other session of the user ends and the caller's own one stays.
 * Wrong current passwords count as failed sign-ins for the account's e-mail and the client's
 * address (login throttle): 400 each time, 429 once the limit is reached, so a stolen session cannot
 * be used to guess the password.
 */
export async function changePassword(
  db: Db,
  ctx: RequestContext,
  sessionToken: string,
  headers: Headers,
  input: PasswordInput,
): Promise<void> {
  const ip = clientIp(headers);
  const attempt = await assertLoginAllowed(db, ctx.user.email, ip);
  const auth = getAuth(db);
  try {
    await auth.api.changePassword({
      body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: false },
      headers,
    });
  } catch (error) {
    if (isAuthApiError(error)) {
      const code = authErrorCode(error);
      // A wrong current password keeps the reserved attempt as its failure.
      if (code === "INVALID_PASSWORD") throw badRequest(WRONG_PASSWORD, { currentPassword: WRONG_PASSWORD });
      await releaseLoginAttempt(db, attempt);
      if (code === "PASSWORD_TOO_SHORT") throw badRequest("Password is too short", { newPassword: "Password is too short" });
      if (code === "PASSWORD_TOO_LONG") throw badRequest("Password is too long", { newPassword: "Password is too long" });
      if (code === "CREDENTIAL_ACCOUNT_NOT_FOUND") throw badRequest("This account has no password to change");
    }
    await releaseLoginAttempt(db, attempt);
    throw error;
  }
  await releaseLoginAttempt(db, attempt);
  await clearLoginFailures(db, ctx.user.email);
  await endOtherSessions(db, ctx.userId, sessionToken);
}

/** Settings → Notifications for one user; the spec's defaults until the user changes one. */
export async function getNotificationPreferences(db: Db, userId: string): Promise<NotificationPreferences> {
  const [row] = await db
    .select(preferenceColumns)
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  return row ?? { ...notificationDefaults };
}

/** Saves the switches sent (others keep their value or default) and returns them all. */
export async function updateNotificationPreferences(
  db: Db,
  userId: string,
  patch: NotificationsInput,
): Promise<NotificationPreferences> {
  const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<NotificationPreferences>;
  const [row] = await db
    .insert(notificationPreferences)
    .values({ userId, ...notificationDefaults, ...changes, updatedAt: new Date() })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...changes, updatedAt: new Date() } })
    .returning(preferenceColumns);
  return row;
}
