import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sessions } from "@/db/schema";
import { HIPAA_IDLE_MINUTES, hipaaStateOf } from "@/lib/identity/organizations/hipaa-mode";

/**
 * HIPAA mode's automatic log-off (45 CFR 164.312(a)(2)(iii)): a session with no request for
 * HIPAA_IDLE_MINUTES is ended. The session row's `updated_at` holds the last request, written at
 * most once a minute; organizations not in HIPAA mode pay one cached lookup of the switch.
 */

const TOUCH_EVERY_MS = 60_000;
const MODE_TTL_MS = 30_000;
const modeCache = new Map<string, { on: boolean; until: number }>();

async function hipaaOn(db: Db, organizationId: string, now: number): Promise<boolean> {
  const hit = modeCache.get(organizationId);
  if (hit && hit.until > now) return hit.on;
  const on = (await hipaaStateOf(db, organizationId)).on;
  modeCache.set(organizationId, { on, until: now + MODE_TTL_MS });
  return on;
}

/** Forgets the cached switch (Settings saved it). */
export function forgetHipaaMode(organizationId: string) {
  modeCache.delete(organizationId);
}

/** The session, or null when HIPAA mode ended it for inactivity (the row is deleted: signing in again is needed). */
export async function expireIdleSession<S extends { user: { organizationId: string }; token: string }>(db: Db, session: S | null, now = Date.now()): Promise<S | null> {
  if (!session || !(await hipaaOn(db, session.user.organizationId, now))) return session;
  const [row] = await db.select({ updatedAt: sessions.updatedAt }).from(sessions).where(eq(sessions.token, session.token));
  if (!row) return null;
  const idle = now - row.updatedAt.getTime();
  if (idle > HIPAA_IDLE_MINUTES * 60_000) {
    await db.delete(sessions).where(eq(sessions.token, session.token));
    return null;
  }
  if (idle > TOUCH_EVERY_MS) await db.update(sessions).set({ updatedAt: new Date(now) }).where(eq(sessions.token, session.token));
  return session;
}
