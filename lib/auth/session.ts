import "server-only";
import type { Db } from "@/db/client";
import { getAuth } from "./auth";
import { isRole, permissionsFor, type Permission, type Role } from "./roles";

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
 */
export type Session = { user: SessionUser; token: string };

export async function resolveSession(db: Db, headers: Headers): Promise<Session | null> {
  const auth = getAuth(db);
  const result = await auth.api.getSession({ headers, query: { disableCookieCache: true } }).catch(() => null);
  if (!result) return null;
  const user = toSessionUser(result.user as AuthUserRecord);
  if (user.status !== "active" || !user.organizationId) return null;
  return { user, token: result.session.token };
}
