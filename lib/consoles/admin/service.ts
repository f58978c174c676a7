import "server-only";
import { and, count, desc, eq, gte, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { getDbHandle, type Db } from "@/lib/platform/database";
import {
  calls,
  organizationCounts,
  organizations,
  payments,
  phoneNumbers,
  providerCredentials,
  sessions,
  users,
  voiceAssistants,
} from "@/db/schema";
import { changeCredits } from "@/lib/workspace/billing/ledger";
import { endOtherSessions } from "@/lib/identity/auth/service";
import { registerAccount } from "@/lib/consoles/signup/account";
import type { Role } from "@/lib/identity/auth/roles";
import { encodeCursor } from "@/lib/platform/http/pagination";
import { microsToIso } from "@/lib/receptionist/call-history/service";
import { env } from "@/lib/platform/env";
import { badRequest, conflict, forbidden, HttpError, notFound } from "@/lib/platform/http/errors";
import type { RequestContext } from "@/lib/identity/http/route";
import { healthCheckJob, latestHealth, type LatestHealth } from "@/lib/reports/analytics/health";
import { getSystemHealth, type SystemHealth } from "@/lib/reports/figures/service";
import { rollupTotals, rollupWindow } from "@/lib/reports/analytics/rollup";
import { offlineSttStatus } from "@/lib/platform/providers/stt/pocketsphinx";
import { getPlatformStats, type PlatformStats } from "./platform";
import type { AdjustCreditsInput, AdminUsersQuery, CreateUserInput, UpdateUserInput } from "./schema";
import { isUniqueViolation } from "@/lib/platform/database-errors";

/**
 * The admin dashboard (core §2 /admin, §7 admin endpoints; advanced §7 Admin). Unlike every other
 * feature these reads and writes span all organizations: the routes admit only roles carrying the
 * admin.* permissions (admin, master_admin), and the rules below protect master admins and the
 * caller's own account.
 */

export const EMAIL_TAKEN = "An account with this email already exists";
export const BELOW_ZERO = "The balance cannot go below zero";
export const NOT_OWN_ROLE = "You cannot change your own role";
export const NOT_OWN_STATUS = "You cannot suspend or cancel your own account";
export const NOT_OWN_DELETE = "You cannot delete your own account";
export const MASTER_ONLY_EDIT = "Only a master admin can edit a master admin";
export const MASTER_ONLY_GRANT = "Only a master admin can grant the master admin role";
/** admin and master_admin are platform staff (docs/security.md "Roles"): only a master admin makes staff. */
export const STAFF_ONLY_BY_MASTER = "Only a master admin can grant the admin role: it is for platform staff, not for a business's users";
export const ONLY_USER_DELETE =
  "This is the business's only user: deleting them would delete the business with its phone numbers, assistants and calls. Add another user to the business first (or suspend this account).";
export const MASTER_ONLY_DELETE = "Only a master admin can delete a master admin";
export const CREDIT_REASON_REQUIRED = "Give a reason of at least 3 characters for the credit change";

// ---------------------------------------------------------------------------------------------
// Stats

export type AdminStats = { totalUsers: number; totalOrganizations: number; activeCalls: number; monthlyRevenue: number };

/** The first instant of the current calendar month in UTC, whatever the session's time zone. */
const monthStartUtc = sql`(date_trunc('month', now() at time zone 'UTC') at time zone 'UTC')`;

export async function getAdminStats(db: Db): Promise<AdminStats> {
  const [[userRow], [orgRow], [callRow], [revenueRow]] = await Promise.all([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(organizations),
    db
      .select({ n: count() })
      .from(calls)
      .where(inArray(calls.status, ["ringing", "in_progress"])),
    db
      .select({ cents: sql<string>`coalesce(sum(${payments.amountCents}), 0)::bigint::text` })
      .from(payments)
      .where(and(eq(payments.status, "paid"), gte(sql`coalesce(${payments.paidAt}, ${payments.createdAt})`, monthStartUtc))),
  ]);
  return {
    totalUsers: userRow.n,
    totalOrganizations: orgRow.n,
    activeCalls: callRow.n,
    monthlyRevenue: Number(revenueRow.cents) / 100,
  };
}

// ---------------------------------------------------------------------------------------------
// Users

export type AdminUser = {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  status: "active" | "suspended" | "cancelled";
  organizationId: string;
  organizationName: string;
  subscriptionTier: "free" | "pro" | "enterprise";
  credits: number;
  createdAt: string;
};

const epochMicros = sql<string>`floor(extract(epoch from ${users.createdAt}) * 1000000)::bigint::text`;

const userColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  status: users.status,
  organizationId: users.organizationId,
  organizationName: organizations.name,
  subscriptionTier: organizations.subscriptionTier,
  credits: organizations.creditBalance,
  createdAt: users.createdAt,
  t: epochMicros,
};

function selectUsers(db: Db) {
  return db.select(userColumns).from(users).innerJoin(organizations, eq(organizations.id, users.organizationId));
}

type UserRow = Awaited<ReturnType<typeof selectUsers>>[number];

function toAdminUser(row: UserRow): AdminUser {
  const { t, createdAt, ...rest } = row;
  void t;
  return { ...rest, createdAt: createdAt.toISOString() };
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** All users, newest first, keyset-paged on (createdAt, id); search over e-mail, username and names. */
export async function listUsers(db: Db, q: AdminUsersQuery): Promise<{ users: AdminUser[]; nextCursor: string | null }> {
  const where: SQL[] = [];
  if (q.search) {
    const pattern = `%${escapeLike(q.search)}%`;
    where.push(
      or(
        ilike(users.email, pattern),
        ilike(users.username, pattern),
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
      )!,
    );
  }
  if (q.role) where.push(eq(users.role, q.role));
  if (q.cursor) where.push(sql`(${users.createdAt}, ${users.id}) < (${microsToIso(q.cursor.t)}::timestamptz, ${q.cursor.id})`);
  const rows = await selectUsers(db)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    users: page.map(toAdminUser),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ t: last.t, id: last.id }) : null,
  };
}

async function getAdminUser(db: Db, id: string): Promise<AdminUser> {
  const [row] = await selectUsers(db).where(eq(users.id, id));
  if (!row) throw notFound("User");
  return toAdminUser(row);
}

async function findTarget(db: Db, id: string) {
  const [target] = await db
    .select({ id: users.id, role: users.role, organizationId: users.organizationId, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, id));
  if (!target) throw notFound("User");
  return target;
}

/**
 * Edits names, e-mail, role and status. An admin cannot touch a master admin nor grant the role
 * (403); nobody changes their own role or suspends themselves (400). Suspending or cancelling
 * ends every session of the user.
 */
export async function updateUser(db: Db, ctx: RequestContext, id: string, input: UpdateUserInput): Promise<AdminUser> {
  const target = await findTarget(db, id);
  const isMaster = ctx.role === "master_admin";
  if (target.role === "master_admin" && !isMaster) throw forbidden(MASTER_ONLY_EDIT);
  if (input.role === "master_admin" && target.role !== "master_admin" && !isMaster) throw forbidden(MASTER_ONLY_GRANT);
  if (input.role === "admin" && target.role !== "admin" && target.role !== "master_admin" && !isMaster) throw forbidden(STAFF_ONLY_BY_MASTER);
  if (target.id === ctx.userId) {
    if (input.role !== undefined && input.role !== target.role) throw badRequest(NOT_OWN_ROLE, { role: NOT_OWN_ROLE });
    if (input.status !== undefined && input.status !== "active") throw badRequest(NOT_OWN_STATUS, { status: NOT_OWN_STATUS });
  }
  if (input.email !== undefined) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${input.email}`, sql`${users.id} <> ${id}`))
      .limit(1);
    if (taken) throw conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN });
  }

  let creditDelta = 0;
  if (input.credits !== undefined) {
    const [org] = await db.select({ balance: organizations.creditBalance }).from(organizations).where(eq(organizations.id, target.organizationId));
    creditDelta = input.credits - (org?.balance ?? 0);
    if (creditDelta !== 0 && (input.creditReason ?? "").length < 3) throw badRequest(CREDIT_REASON_REQUIRED, { creditReason: CREDIT_REASON_REQUIRED });
  }

  const patch: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
  if (input.firstName !== undefined) patch.firstName = input.firstName;
  if (input.lastName !== undefined) patch.lastName = input.lastName;
  if (input.email !== undefined) patch.email = input.email;
  if (input.role !== undefined) patch.role = input.role;
  if (input.status !== undefined) patch.status = input.status;
  if (input.firstName !== undefined || input.lastName !== undefined) {
    patch.name = `${input.firstName ?? target.firstName} ${input.lastName ?? target.lastName}`.trim();
  }
  try {
    await db.transaction(async (tx) => {
      await tx.update(users).set(patch).where(eq(users.id, id));
      if (input.status !== undefined && input.status !== "active") await tx.delete(sessions).where(eq(sessions.userId, id));
      if (input.subscriptionTier !== undefined) {
        await tx
          .update(organizations)
          .set({ subscriptionTier: input.subscriptionTier, updatedAt: new Date() })
          .where(eq(organizations.id, target.organizationId));
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN, { email: EMAIL_TAKEN });
    throw error;
  }
  if (creditDelta !== 0) {
    // Never an overwrite: the difference to the current balance is one ledger adjustment with the reason.
    await changeCredits(db, target.organizationId, "adjustment", creditDelta, {
      reason: input.creditReason!,
      actorUserId: ctx.userId,
      metadata: { targetUserId: target.id, source: "admin-edit", to: input.credits },
    });
  }
  return getAdminUser(db, id);
}

/**
 * Deletes a user (sessions, accounts and settings go with them). A business's only user is refused
 * (409, docs/security.md "Deleting users"): deleting them would take the organization along with
 * its numbers, assistants, calls and ledger, behind a dialog about one user. `organizationDeleted`
 * is therefore always false; it stays in the answer for clients that read it.
 */
export async function deleteUser(db: Db, ctx: RequestContext, id: string): Promise<{ success: true; organizationDeleted: boolean }> {
  if (id === ctx.userId) throw badRequest(NOT_OWN_DELETE);
  const target = await findTarget(db, id);
  if (target.role === "master_admin" && ctx.role !== "master_admin") throw forbidden(MASTER_ONLY_DELETE);
  const organizationDeleted = await db.transaction(async (tx) => {
    // Lock the organization so two concurrent deletes cannot both leave it behind empty.
    await tx.execute(sql`select 1 from ${organizations} where ${organizations.id} = ${target.organizationId} for update`);
    const [members] = await tx.select({ n: count() }).from(users).where(eq(users.organizationId, target.organizationId));
    if (members.n <= 1) throw conflict(ONLY_USER_DELETE);
    await tx.delete(users).where(eq(users.id, id));
    return false;
  });
  return { success: true, organizationDeleted };
}

/** Adds or removes credits on the user's organization through the ledger (kind "adjustment"). */
export async function adjustCredits(db: Db, ctx: RequestContext, input: AdjustCreditsInput): Promise<{ balance: number }> {
  const target = await findTarget(db, input.userId);
  try {
    const result = await changeCredits(db, target.organizationId, "adjustment", input.credits, {
      reason: input.reason,
      actorUserId: ctx.userId,
      metadata: { targetUserId: target.id, source: "admin" },
    });
    return { balance: result.balance };
  } catch (error) {
    if (error instanceof HttpError && error.status === 402) throw badRequest(BELOW_ZERO, { credits: BELOW_ZERO });
    throw error;
  }
}

/**
 * Creates a user in an existing organization with Better Auth (password hashed there), without
 * signing them in: the session sign-up opens is ended at once and never handed out.
 */
export async function createUser(db: Db, ctx: RequestContext, input: CreateUserInput, headers: Headers): Promise<AdminUser> {
  if (input.role === "master_admin" && ctx.role !== "master_admin") throw forbidden(MASTER_ONLY_GRANT);
  if (input.role === "admin" && ctx.role !== "master_admin") throw forbidden(STAFF_ONLY_BY_MASTER);
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, input.organizationId));
  if (!org) throw notFound("Organization");
  const { role, organizationId, ...account } = input;
  const created = await registerAccount(db, { ...account, role, organizationId }, headers);
  await endOtherSessions(db, created.user.id);
  return getAdminUser(db, created.user.id);
}

// ---------------------------------------------------------------------------------------------
// Organizations

export type AdminOrganization = {
  id: string;
  name: string;
  subscriptionTier: "free" | "pro" | "enterprise";
  subscriptionStatus: string;
  credits: number;
  members: number;
  phoneNumbers: number;
  assistants: number;
  calls: number;
  createdAt: string;
};

/** Every organization with its counts: one query, each count a grouped subquery joined once. */
export async function listOrganizations(db: Db): Promise<AdminOrganization[]> {
  const memberCounts = db
    .select({ organizationId: users.organizationId, n: count().as("member_n") })
    .from(users)
    .groupBy(users.organizationId)
    .as("member_counts");
  const numberCounts = db
    .select({ organizationId: phoneNumbers.organizationId, n: count().as("number_n") })
    .from(phoneNumbers)
    .groupBy(phoneNumbers.organizationId)
    .as("number_counts");
  const assistantCounts = db
    .select({ organizationId: voiceAssistants.organizationId, n: count().as("assistant_n") })
    .from(voiceAssistants)
    .groupBy(voiceAssistants.organizationId)
    .as("assistant_counts");
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      subscriptionTier: organizations.subscriptionTier,
      subscriptionStatus: organizations.subscriptionStatus,
      credits: organizations.creditBalance,
      members: sql<number>`coalesce(${memberCounts.n}, 0)::int`,
      phoneNumbers: sql<number>`coalesce(${numberCounts.n}, 0)::int`,
      assistants: sql<number>`coalesce(${assistantCounts.n}, 0)::int`,
      // Kept as rows change (organization_count), not a count of every call on the platform.
      calls: sql<number>`coalesce(${organizationCounts.calls}, 0)::int`,
      createdAt: organizations.createdAt,
    })
    .from(organizations)
    .leftJoin(memberCounts, eq(memberCounts.organizationId, organizations.id))
    .leftJoin(numberCounts, eq(numberCounts.organizationId, organizations.id))
    .leftJoin(assistantCounts, eq(assistantCounts.organizationId, organizations.id))
    .leftJoin(organizationCounts, eq(organizationCounts.organizationId, organizations.id))
    .orderBy(desc(organizations.createdAt), desc(organizations.id));
  return rows.map((r) => ({ ...r, members: Number(r.members), phoneNumbers: Number(r.phoneNumbers), assistants: Number(r.assistants), calls: Number(r.calls), createdAt: r.createdAt.toISOString() }));
}

// ---------------------------------------------------------------------------------------------
// Analytics

export const ANALYTICS_DAYS = 14;

export type AdminAnalytics = {
  days: { day: string; calls: number; minutes: number }[];
  totalCalls: number;
  totalMinutes: number;
};

/** Calls per UTC day over the last 14 days (today included) across all organizations, with voice minutes. */
export async function getAnalytics(db: Db, now = new Date()): Promise<AdminAnalytics> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = new Date(today - (ANALYTICS_DAYS - 1) * 86_400_000);
  // Whole clean days from the daily rollup, today and dirty days live (issue 29): not a scan of 14 days of calls.
  const window = await rollupWindow(db, null, start, now);
  const rows = (await rollupTotals(db, "call", null, window, "hour", "day")).map((r) => ({ day: r.key, calls: r.n, seconds: r.duration_sum }));  const byDay = new Map(rows.map((r) => [r.day, r]));
  const days = Array.from({ length: ANALYTICS_DAYS }, (_, i) => {
    const key = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const row = byDay.get(key);
    return { day: key, calls: row ? Number(row.calls) : 0, minutes: row ? Math.round((Number(row.seconds) / 60) * 10) / 10 : 0 };
  });
  const totalSeconds = rows.reduce((sum, r) => sum + Number(r.seconds), 0);
  return {
    days,
    totalCalls: days.reduce((sum, d) => sum + d.calls, 0),
    totalMinutes: Math.round((totalSeconds / 60) * 10) / 10,
  };
}

// ---------------------------------------------------------------------------------------------
// System

export type SystemStats = PlatformStats & {
  database: "postgres" | "pglite";
  providers: {
    llm: "anthropic" | "local";
    tts: "elevenlabs" | "offline";
    /** Deepgram with a key; else PocketSphinx when its Debian packages are installed here. */
    stt: "deepgram" | "pocketsphinx" | "unavailable";
    telephony: "twilio" | "simulated";
    payments: "stripe" | "simulated";
  };
  /** Organizations that saved their own key per provider (it overrides the environment for them). */
  organizationKeys: Record<string, number>;
  counts: { users: number; organizations: number; phoneNumbers: number; assistants: number; calls: number; messages: number };
  /** The configuration in effect, for System Settings (no secrets). */
  configuration: {
    jobRunner: { inProcess: boolean; queue: "pg-boss" | "local"; pollIntervalMs: number; healthCheckEverySeconds: number };
    demoSeed: boolean;
    /** The newest recorded probe per component. */
    health: LatestHealth;
  };
  /** lib/reports/figures: the platform's state with each wanting part named (and how to install it), and uptime. */
  systemHealth: SystemHealth;
};

/** What is in effect from the environment (organization keys override it per organization). */
export async function getSystemStats(db: Db): Promise<SystemStats> {
  const handle = await getDbHandle();
  const [[u], [o], [p], [a], [c], [m], keyRows, platform, health, offlineStt, systemHealth] = await Promise.all([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(organizations),
    db.select({ n: count() }).from(phoneNumbers),
    db.select({ n: count() }).from(voiceAssistants),
    db.select({ n: sql<number>`coalesce(sum(${organizationCounts.calls}), 0)::int` }).from(organizationCounts),
    db.select({ n: sql<number>`coalesce(sum(${organizationCounts.messages}), 0)::int` }).from(organizationCounts),
    db
      .select({ provider: providerCredentials.provider, n: sql<number>`count(distinct ${providerCredentials.organizationId})::int` })
      .from(providerCredentials)
      .groupBy(providerCredentials.provider),
    getPlatformStats(db),
    latestHealth(db),
    env.DEEPGRAM_API_KEY ? null : offlineSttStatus(),
    getSystemHealth(db),
  ]);
  return {
    ...platform,
    database: handle.driver,
    providers: {
      llm: env.ANTHROPIC_API_KEY ? "anthropic" : "local",
      tts: env.ELEVENLABS_API_KEY ? "elevenlabs" : "offline",
      stt: env.DEEPGRAM_API_KEY ? "deepgram" : offlineStt?.available ? "pocketsphinx" : "unavailable",
      telephony: env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN ? "twilio" : "simulated",
      payments: env.STRIPE_SECRET_KEY ? "stripe" : "simulated",
    },
    organizationKeys: Object.fromEntries(keyRows.map((r) => [r.provider, Number(r.n)])),
    counts: { users: u.n, organizations: o.n, phoneNumbers: p.n, assistants: a.n, calls: c.n, messages: m.n },
    configuration: {
      jobRunner: {
        inProcess: env.JOBS_IN_PROCESS,
        queue: handle.driver === "postgres" && env.DATABASE_URL ? "pg-boss" : "local",
        pollIntervalMs: env.JOBS_POLL_INTERVAL_MS,
        healthCheckEverySeconds: healthCheckJob.everySeconds ?? 0,
      },
      demoSeed: Boolean(env.SEED_DEMO_DATA),
      health,
    },
    systemHealth,
  };
}
