import crypto from "node:crypto";
import { and, count, eq, gte, inArray, sql } from "drizzle-orm";
import { POST as adjustCreditsRoute } from "@/app/api/admin/adjust-credits/route";
import { GET as analyticsRoute } from "@/app/api/admin/analytics/route";
import { GET as organizationsRoute } from "@/app/api/admin/organizations/route";
import { GET as statsRoute } from "@/app/api/admin/stats/route";
import { GET as systemStatsRoute } from "@/app/api/admin/system-stats/route";
import { DELETE as deleteUserRoute, PUT as updateUserRoute } from "@/app/api/admin/users/[id]/route";
import { GET as usersRoute, POST as createUserRoute } from "@/app/api/admin/users/route";
import { POST as login } from "@/app/api/auth/login/route";
import { GET as me } from "@/app/api/auth/me/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { closeSpeechPools } from "@/lib/platform/providers/speech-pool";
import { calls, creditLedger, organizations, payments, phoneNumbers, sessions, users, voiceAssistants } from "@/db/schema";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call, uniqueSuffix } from "../helpers/http";

jest.setTimeout(90_000);
afterAll(async () => {
  await closeSpeechPools(); // the system stats ask a recognition worker whether PocketSphinx is installed
  await closeDb();
});

async function setRole(account: TestAccount, role: "admin" | "master_admin" | "business" | "individual") {
  const db = await getDb();
  await db.update(users).set({ role }).where(eq(users.id, account.id));
  return { ...account, role };
}

async function makeAdmin() {
  return setRole(await registerTestUser(), "admin");
}

async function makeMaster() {
  return setRole(await registerTestUser(), "master_admin");
}

async function balanceOf(organizationId: string) {
  const db = await getDb();
  const [org] = await db.select({ balance: organizations.creditBalance }).from(organizations).where(eq(organizations.id, organizationId));
  return org?.balance;
}

type Route = Parameters<typeof call>[0];
const getRoutes: [string, Route, string][] = [
  ["stats", statsRoute, "/api/admin/stats"],
  ["users", usersRoute, "/api/admin/users"],
  ["organizations", organizationsRoute, "/api/admin/organizations"],
  ["system-stats", systemStatsRoute, "/api/admin/system-stats"],
  ["analytics", analyticsRoute, "/api/admin/analytics"],
];

describe("admin routes: who may call them", () => {
  it.each(getRoutes)("GET %s: 401 without a session, 403 for an individual and a business user, 200 for admin and master admin", async (_name, handler, path) => {
    expect((await call(handler, "GET", path)).status).toBe(401);
    const individual = await registerTestUser();
    const denied = await call(handler, "GET", path, { sessionId: individual.sessionId });
    expect(denied.status).toBe(403);
    const business = await setRole(await registerTestUser(), "business");
    expect((await call(handler, "GET", path, { sessionId: business.sessionId })).status).toBe(403);
    const admin = await makeAdmin();
    expect((await call(handler, "GET", path, { sessionId: admin.sessionId })).status).toBe(200);
    const master = await makeMaster();
    expect((await call(handler, "GET", path, { sessionId: master.sessionId })).status).toBe(200);
  });

  it("write routes: 401 without a session and 403 for an individual, nothing changes", async () => {
    const individual = await registerTestUser();
    const victim = await registerTestUser();
    const params = { id: victim.id };
    expect((await call(updateUserRoute, "PUT", `/api/admin/users/${victim.id}`, { params, body: { role: "admin" } })).status).toBe(401);
    expect((await call(deleteUserRoute, "DELETE", `/api/admin/users/${victim.id}`, { params })).status).toBe(401);
    expect((await call(adjustCreditsRoute, "POST", "/api/admin/adjust-credits", { body: { userId: victim.id, credits: 5, reason: "test" } })).status).toBe(401);
    expect((await call(createUserRoute, "POST", "/api/admin/users", { body: {} })).status).toBe(401);
    const s = { sessionId: individual.sessionId };
    expect((await call(updateUserRoute, "PUT", `/api/admin/users/${victim.id}`, { ...s, params, body: { role: "admin" } })).status).toBe(403);
    expect((await call(deleteUserRoute, "DELETE", `/api/admin/users/${victim.id}`, { ...s, params })).status).toBe(403);
    expect((await call(adjustCreditsRoute, "POST", "/api/admin/adjust-credits", { ...s, body: { userId: victim.id, credits: 5, reason: "test" } })).status).toBe(403);
    expect((await call(createUserRoute, "POST", "/api/admin/users", { ...s, body: {} })).status).toBe(403);
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, victim.id));
    expect(row.role).toBe("individual");
    expect(await balanceOf(victim.organizationId)).toBe(100);
  });
});

describe("GET /api/admin/stats", () => {
  it("equals the SQL counts (users, organizations, ringing/in-progress calls, paid payments this month in dollars)", async () => {
    const admin = await makeAdmin();
    const other = await registerTestUser();
    const db = await getDb();
    const base = { organizationId: other.organizationId, direction: "inbound" as const, fromNumber: "+15550001", toNumber: "+15550002" };
    await db.insert(calls).values([
      { ...base, id: crypto.randomUUID(), status: "ringing" },
      { ...base, id: crypto.randomUUID(), status: "in_progress" },
      { ...base, id: crypto.randomUUID(), status: "completed", durationSeconds: 90 },
    ]);
    const payment = (status: "paid" | "failed", amountCents: number, paidAt: Date | null) => ({
      id: crypto.randomUUID(),
      organizationId: other.organizationId,
      provider: "simulated" as const,
      kind: "credit_pack" as const,
      status,
      amountCents,
      description: "test",
      invoiceNumber: `T-${uniqueSuffix()}`,
      paidAt,
    });
    const lastYear = new Date(Date.now() - 400 * 86_400_000);
    await db.insert(payments).values([payment("paid", 1999, new Date()), payment("failed", 5000, null), payment("paid", 7000, lastYear)]);

    const expected = async () => {
      const [[u], [o], [c], [r]] = await Promise.all([
        db.select({ n: count() }).from(users),
        db.select({ n: count() }).from(organizations),
        db.select({ n: count() }).from(calls).where(inArray(calls.status, ["ringing", "in_progress"])),
        db
          .select({ cents: sql<string>`coalesce(sum(${payments.amountCents}), 0)::text` })
          .from(payments)
          .where(and(eq(payments.status, "paid"), gte(sql`coalesce(${payments.paidAt}, ${payments.createdAt})`, sql`date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'`))),
      ]);
      return { totalUsers: u.n, totalOrganizations: o.n, activeCalls: c.n, monthlyRevenue: Number(r.cents) / 100 };
    };
    // Other test files may write to a shared server database meanwhile: compare when nothing moved.
    for (let attempt = 0; ; attempt++) {
      const before = await expected();
      const res = await call(statsRoute, "GET", "/api/admin/stats", { sessionId: admin.sessionId });
      const after = await expected();
      expect(res.status).toBe(200);
      if (JSON.stringify(before) !== JSON.stringify(after) && attempt < 4) continue;
      expect(res.body).toEqual(after);
      expect(res.body.activeCalls).toBeGreaterThanOrEqual(2);
      expect(res.body.monthlyRevenue).toBeGreaterThanOrEqual(19.99);
      break;
    }
  });
});

describe("GET /api/admin/users", () => {
  it("lists users across organizations with their organization, tier and credits", async () => {
    const admin = await makeAdmin();
    const other = await registerTestUser({ firstName: "Listed", lastName: "Person" });
    const res = await call(usersRoute, "GET", `/api/admin/users?search=${encodeURIComponent(other.email)}`, { sessionId: admin.sessionId });
    expect(res.status).toBe(200);
    expect(res.body.users).toHaveLength(1);
    expect(res.body.users[0]).toEqual({
      id: other.id,
      username: other.username,
      email: other.email,
      firstName: "Listed",
      lastName: "Person",
      role: "individual",
      status: "active",
      organizationId: other.organizationId,
      organizationName: "Listed's workspace",
      subscriptionTier: "free",
      credits: 100,
      createdAt: expect.any(String),
    });
    expect(res.body.nextCursor).toBeNull();
  });

  it("searches e-mail, username and full name case-insensitively and filters by role", async () => {
    const admin = await makeAdmin();
    const tag = `zq${uniqueSuffix()}`;
    const a = await registerTestUser({ firstName: `Ada${tag}`, lastName: "Lovelace" });
    const b = await registerTestUser({ email: `${tag}mail@example.com` });
    const c = await setRole(await registerTestUser({ username: `${tag}user` }), "business");
    const s = { sessionId: admin.sessionId };
    const ids = async (query: string) => {
      const res = await call(usersRoute, "GET", `/api/admin/users?${query}`, s);
      expect(res.status).toBe(200);
      return (res.body.users as { id: string }[]).map((u) => u.id).sort();
    };
    expect(await ids(`search=${tag.toUpperCase()}`)).toEqual([a.id, b.id, c.id].sort());
    expect(await ids(`search=${encodeURIComponent(`ada${tag} LOVE`)}`)).toEqual([a.id]);
    expect(await ids(`search=${tag}&role=business`)).toEqual([c.id]);
    expect(await ids(`search=${tag}&role=individual`)).toEqual([a.id, b.id].sort());
    expect(await ids(`search=${tag}&role=all`)).toEqual([a.id, b.id, c.id].sort());
    expect(await ids(`search=${encodeURIComponent(`${tag}%`)}`)).toEqual([]);
    const bad = await call(usersRoute, "GET", "/api/admin/users?role=king", s);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.role).toBeDefined();
    const badCursor = await call(usersRoute, "GET", "/api/admin/users?cursor=garbage!", s);
    expect(badCursor.status).toBe(400);
  });

  it("pages newest first with a cursor, every row exactly once", async () => {
    const admin = await makeAdmin();
    const tag = `pg${uniqueSuffix()}`;
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await registerTestUser({ lastName: `${tag}` })).id);
    const db = await getDb();
    // Two users with the same creation time: the id breaks the tie.
    const same = new Date();
    await db.update(users).set({ createdAt: same }).where(inArray(users.id, made.slice(0, 2)));
    const seen: string[] = [];
    let cursor: string | null = "";
    let pages = 0;
    while (cursor !== null) {
      const res: { status: number; body: { users: { id: string }[]; nextCursor: string | null } } = await call(usersRoute, "GET", `/api/admin/users?search=${tag}&limit=3&cursor=${cursor}`, { sessionId: admin.sessionId });
      expect(res.status).toBe(200);
      seen.push(...res.body.users.map((u) => u.id));
      cursor = res.body.nextCursor;
      pages++;
      expect(pages).toBeLessThan(10);
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(made));
    const [first] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, seen[0]));
    const [last] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, seen[6]));
    expect(first.createdAt.getTime()).toBeGreaterThanOrEqual(last.createdAt.getTime());
  });
});

describe("GET /api/admin/organizations", () => {
  it("counts members, numbers, assistants and calls per organization", async () => {
    const admin = await makeAdmin();
    const owner = await registerTestUser();
    const db = await getDb();
    const orgId = owner.organizationId;
    await db.insert(phoneNumbers).values({ id: crypto.randomUUID(), organizationId: orgId, phoneNumber: `+1555${uniqueSuffix()}`, friendlyName: "Main" });
    await db.insert(voiceAssistants).values([
      { id: crypto.randomUUID(), organizationId: orgId, name: "A" },
      { id: crypto.randomUUID(), organizationId: orgId, name: "B" },
    ]);
    const base = { organizationId: orgId, direction: "inbound" as const, fromNumber: "+1", toNumber: "+2", status: "completed" as const };
    await db.insert(calls).values([1, 2, 3].map(() => ({ ...base, id: crypto.randomUUID() })));
    const create = await call(createUserRoute, "POST", "/api/admin/users", {
      sessionId: admin.sessionId,
      body: { email: `m${uniqueSuffix()}@example.com`, username: `m${uniqueSuffix()}`, firstName: "Second", lastName: "Member", password: "secret123", role: "business", organizationId: orgId },
    });
    expect(create.status).toBe(201);
    const res = await call(organizationsRoute, "GET", "/api/admin/organizations", { sessionId: admin.sessionId });
    expect(res.status).toBe(200);
    const org = res.body.find((o: { id: string }) => o.id === orgId);
    expect(org).toEqual({
      id: orgId,
      name: "Test's workspace",
      subscriptionTier: "free",
      subscriptionStatus: "active",
      credits: 100,
      members: 2,
      phoneNumbers: 1,
      assistants: 3, // the starter assistant, A and B
      calls: 3,
      createdAt: expect.any(String),
    });
  });
});

describe("POST /api/admin/users", () => {
  it("creates a user in the chosen organization without handing out or keeping a session; they can sign in", async () => {
    const admin = await makeAdmin();
    const owner = await registerTestUser();
    const email = `New${uniqueSuffix()}@Example.com`;
    const res = await call(createUserRoute, "POST", "/api/admin/users", {
      sessionId: admin.sessionId,
      body: { email, username: `new${uniqueSuffix()}`, firstName: "New", lastName: "Hire", password: "secret123", role: "individual", organizationId: owner.organizationId },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: email.toLowerCase(), organizationId: owner.organizationId, role: "individual", credits: 100 });
    expect(res.body.sessionId).toBeUndefined();
    expect(res.headers.get("set-cookie")).toBeNull();
    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.userId, res.body.id))).toHaveLength(0);
    // No welcome grant: the organization's balance is untouched.
    expect(await balanceOf(owner.organizationId)).toBe(100);
    const signIn = await call(login, "POST", "/api/auth/login", { body: { email, password: "secret123" } });
    expect(signIn.status).toBe(200);
  });

  it("answers 409 for a taken e-mail, 404 for an unknown organization, 403 when an admin creates a master admin, 400 with field messages", async () => {
    const admin = await makeAdmin();
    const owner = await registerTestUser();
    const body = { email: owner.email, username: `x${uniqueSuffix()}`, firstName: "X", lastName: "Y", password: "secret123", role: "individual", organizationId: owner.organizationId };
    const s = { sessionId: admin.sessionId };
    expect((await call(createUserRoute, "POST", "/api/admin/users", { ...s, body })).status).toBe(409);
    const fresh = { ...body, email: `f${uniqueSuffix()}@example.com` };
    expect((await call(createUserRoute, "POST", "/api/admin/users", { ...s, body: { ...fresh, organizationId: "nope" } })).status).toBe(404);
    expect((await call(createUserRoute, "POST", "/api/admin/users", { ...s, body: { ...fresh, role: "master_admin" } })).status).toBe(403);
    const invalid = await call(createUserRoute, "POST", "/api/admin/users", { ...s, body: { email: "bad", organizationId: owner.organizationId } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toMatchObject({ email: expect.any(String), username: expect.any(String), password: expect.any(String) });
  });
});

describe("PUT /api/admin/users/{id}", () => {
  it("updates names, e-mail, role and status and answers the updated user", async () => {
    const admin = await makeAdmin();
    const target = await registerTestUser();
    const email = `Changed${uniqueSuffix()}@example.com`;
    const res = await call(updateUserRoute, "PUT", `/api/admin/users/${target.id}`, {
      sessionId: admin.sessionId,
      params: { id: target.id },
      body: { firstName: "Grace", lastName: "Hopper", email, role: "business" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: target.id, firstName: "Grace", lastName: "Hopper", email: email.toLowerCase(), role: "business", status: "active" });
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, target.id));
    expect(row.name).toBe("Grace Hopper");
  });

  it("answers 409 on a taken e-mail, 404 for an unknown user, 400 with field messages", async () => {
    const admin = await makeAdmin();
    const target = await registerTestUser();
    const other = await registerTestUser();
    const s = { sessionId: admin.sessionId };
    const taken = await call(updateUserRoute, "PUT", "/x", { ...s, params: { id: target.id }, body: { email: other.email.toUpperCase() } });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual({ email: "An account with this email already exists" });
    expect((await call(updateUserRoute, "PUT", "/x", { ...s, params: { id: "missing" }, body: { firstName: "A" } })).status).toBe(404);
    const invalid = await call(updateUserRoute, "PUT", "/x", { ...s, params: { id: target.id }, body: { role: "king", status: "gone", email: "no" } });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.errors).sort()).toEqual(["email", "role", "status"]);
  });

  it("suspending ends the user's sessions: their bearer gets 401 on /api/auth/me", async () => {
    const admin = await makeAdmin();
    const target = await registerTestUser();
    expect((await call(me, "GET", "/api/auth/me", { sessionId: target.sessionId })).status).toBe(200);
    const res = await call(updateUserRoute, "PUT", "/x", { sessionId: admin.sessionId, params: { id: target.id }, body: { status: "suspended" } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("suspended");
    const db = await getDb();
    expect(await db.select().from(sessions).where(eq(sessions.userId, target.id))).toHaveLength(0);
    expect((await call(me, "GET", "/api/auth/me", { sessionId: target.sessionId })).status).toBe(401);
  });

  it("protects master admins: an admin cannot edit one nor grant the role; a master admin can", async () => {
    const admin = await makeAdmin();
    const master = await makeMaster();
    const target = await registerTestUser();
    const s = { sessionId: admin.sessionId };
    const edit = await call(updateUserRoute, "PUT", "/x", { ...s, params: { id: master.id }, body: { firstName: "Hacked" } });
    expect(edit.status).toBe(403);
    expect(edit.body.message).toBe("Only a master admin can edit a master admin");
    const grant = await call(updateUserRoute, "PUT", "/x", { ...s, params: { id: target.id }, body: { role: "master_admin" } });
    expect(grant.status).toBe(403);
    expect(grant.body.message).toBe("Only a master admin can grant the master admin role");
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, target.id));
    expect(row.role).toBe("individual");
    const otherMaster = await makeMaster();
    const byMaster = await call(updateUserRoute, "PUT", "/x", { sessionId: master.sessionId, params: { id: target.id }, body: { role: "master_admin" } });
    expect(byMaster.status).toBe(200);
    expect(byMaster.body.role).toBe("master_admin");
    const editMaster = await call(updateUserRoute, "PUT", "/x", { sessionId: master.sessionId, params: { id: otherMaster.id }, body: { firstName: "Renamed" } });
    expect(editMaster.status).toBe(200);
  });

  it("keeps platform staff apart from customers: only a master admin grants admin; an owner cannot reach admin actions, even on their own organization", async () => {
    const admin = await makeAdmin();
    const master = await makeMaster();
    const owner = await setRole(await registerTestUser(), "business");
    const byAdmin = await call(updateUserRoute, "PUT", "/x", { sessionId: admin.sessionId, params: { id: owner.id }, body: { role: "admin" } });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.message).toBe("Only a master admin can grant the admin role: it is for platform staff, not for a business's users");
    const created = await call(createUserRoute, "POST", "/api/admin/users", {
      sessionId: admin.sessionId,
      body: { email: `s${uniqueSuffix()}@example.com`, username: `s${uniqueSuffix()}`, firstName: "S", lastName: "T", password: "secret123", role: "admin", organizationId: admin.organizationId },
    });
    expect(created.status).toBe(403);
    // The owner manages their own organization only: no admin action, not even on it.
    const own = await call(adjustCreditsRoute, "POST", "/api/admin/adjust-credits", { sessionId: owner.sessionId, body: { userId: owner.id, credits: 1000, reason: "free money" } });
    expect(own.status).toBe(403);
    expect((await call(updateUserRoute, "PUT", "/x", { sessionId: owner.sessionId, params: { id: owner.id }, body: { role: "admin" } })).status).toBe(403);
    // Platform staff act across organizations; a master admin makes staff.
    expect((await call(adjustCreditsRoute, "POST", "/api/admin/adjust-credits", { sessionId: admin.sessionId, body: { userId: owner.id, credits: 5, reason: "goodwill" } })).status).toBe(200);
    const byMaster = await call(updateUserRoute, "PUT", "/x", { sessionId: master.sessionId, params: { id: owner.id }, body: { role: "admin" } });
    expect(byMaster.status).toBe(200);
    expect(byMaster.body.role).toBe("admin");
  });

  it("nobody changes their own role or suspends themselves (400); editing their own names is fine", async () => {
    const admin = await makeAdmin();
    const s = { sessionId: admin.sessionId, params: { id: admin.id } };
    const role = await call(updateUserRoute, "PUT", "/x", { ...s, body: { role: "individual" } });
    expect(role.status).toBe(400);
    expect(role.body.message).toBe("You cannot change your own role");
    const status = await call(updateUserRoute, "PUT", "/x", { ...s, body: { status: "suspended" } });
    expect(status.status).toBe(400);
    expect(status.body.message).toBe("You cannot suspend or cancel your own account");
    const names = await call(updateUserRoute, "PUT", "/x", { ...s, body: { firstName: "Self", role: "admin", status: "active" } });
    expect(names.status).toBe(200);
    const master = await makeMaster();
    const masterSelf = await call(updateUserRoute, "PUT", "/x", { sessionId: master.sessionId, params: { id: master.id }, body: { role: "admin" } });
    expect(masterSelf.status).toBe(400);
  });
});

describe("DELETE /api/admin/users/{id}", () => {
  it("refuses to delete a business's only user (409 naming what would go), and deletes nothing", async () => {
    const admin = await makeAdmin();
    const target = await registerTestUser();
    const res = await call(deleteUserRoute, "DELETE", "/x", { sessionId: admin.sessionId, params: { id: target.id } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      "This is the business's only user: deleting them would delete the business with its phone numbers, assistants and calls. Add another user to the business first (or suspend this account).",
    );
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.id, target.id))).toHaveLength(1);
    expect(await db.select().from(organizations).where(eq(organizations.id, target.organizationId))).toHaveLength(1);
    expect((await call(me, "GET", "/api/auth/me", { sessionId: target.sessionId })).status).toBe(200);
  });

  it("keeps the organization while other members remain", async () => {
    const admin = await makeAdmin();
    const owner = await registerTestUser();
    const created = await call(createUserRoute, "POST", "/api/admin/users", {
      sessionId: admin.sessionId,
      body: { email: `k${uniqueSuffix()}@example.com`, username: `k${uniqueSuffix()}`, firstName: "K", lastName: "M", password: "secret123", role: "individual", organizationId: owner.organizationId },
    });
    expect(created.status).toBe(201);
    const res = await call(deleteUserRoute, "DELETE", "/x", { sessionId: admin.sessionId, params: { id: created.body.id } });
    expect(res.status).toBe(200);
    const db = await getDb();
    expect(await db.select().from(organizations).where(eq(organizations.id, owner.organizationId))).toHaveLength(1);
  });

  it("refuses deleting yourself (400), a master admin by an admin (403), an unknown user (404)", async () => {
    const admin = await makeAdmin();
    const master = await makeMaster();
    const self = await call(deleteUserRoute, "DELETE", "/x", { sessionId: admin.sessionId, params: { id: admin.id } });
    expect(self.status).toBe(400);
    expect(self.body.message).toBe("You cannot delete your own account");
    const m = await call(deleteUserRoute, "DELETE", "/x", { sessionId: admin.sessionId, params: { id: master.id } });
    expect(m.status).toBe(403);
    expect(m.body.message).toBe("Only a master admin can delete a master admin");
    expect((await call(deleteUserRoute, "DELETE", "/x", { sessionId: admin.sessionId, params: { id: "missing" } })).status).toBe(404);
    const otherMaster = await makeMaster();
    const colleague = await call(createUserRoute, "POST", "/api/admin/users", {
      sessionId: master.sessionId,
      body: { email: `c${uniqueSuffix()}@example.com`, username: `c${uniqueSuffix()}`, firstName: "C", lastName: "M", password: "secret123", role: "individual", organizationId: otherMaster.organizationId },
    });
    expect(colleague.status).toBe(201);
    expect((await call(deleteUserRoute, "DELETE", "/x", { sessionId: master.sessionId, params: { id: otherMaster.id } })).status).toBe(200);
  });
});

describe("POST /api/admin/adjust-credits", () => {
  it("adds and removes credits through the ledger with the admin as actor and the reason", async () => {
    const admin = await makeAdmin();
    const target = await registerTestUser();
    const s = { sessionId: admin.sessionId };
    const add = await call(adjustCreditsRoute, "POST", "/api/admin/adjust-credits", { ...s, body: { userId: target.id, credits: 250, reason: "Goodwill for outage" } });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ balance: 350 });
    const remove = await call(adjustCreditsRoute, "POST", "/api/admin/adjust-credits", { ...s, body: { userId: target.id, credits: -50, reason: "Correction" } });
    expect(remove.body).toEqual({ balance: 300 });
    expect(await balanceOf(target.organizationId)).toBe(300);
    const db = await getDb();
    const rows = await db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, target.organizationId), eq(creditLedger.kind, "adjustment")))
      .orderBy(creditLedger.createdAt);
    expect(rows.map((r) => [r.amount, r.balanceAfter, r.reason, r.actorUserId])).toEqual([
      [250, 350, "Goodwill for outage", admin.id],
      [-50, 300, "Correction", admin.id],
    ]);
  });

  it("refuses going below zero with 400 and changes nothing", async () => {
    const admin = await makeAdmin();
    const target = await registerTestUser();
    const res = await call(adjustCreditsRoute, "POST", "/api/admin/adjust-credits", { sessionId: admin.sessionId, body: { userId: target.id, credits: -101, reason: "Too much" } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("The balance cannot go below zero");
    expect(await balanceOf(target.organizationId)).toBe(100);
    const db = await getDb();
    expect(await db.select().from(creditLedger).where(and(eq(creditLedger.organizationId, target.organizationId), eq(creditLedger.kind, "adjustment")))).toHaveLength(0);
  });

  it("validates: zero, fractions, short reasons, unknown users", async () => {
    const admin = await makeAdmin();
    const target = await registerTestUser();
    const s = { sessionId: admin.sessionId };
    const zero = await call(adjustCreditsRoute, "POST", "/x", { ...s, body: { userId: target.id, credits: 0, reason: "ab" } });
    expect(zero.status).toBe(400);
    expect(zero.body.errors).toEqual({ credits: "Credits must not be zero", reason: "Reason must be at least 3 characters" });
    const fraction = await call(adjustCreditsRoute, "POST", "/x", { ...s, body: { userId: target.id, credits: 1.5, reason: "abc" } });
    expect(fraction.status).toBe(400);
    expect(fraction.body.errors.credits).toBe("Credits must be a whole number");
    expect((await call(adjustCreditsRoute, "POST", "/x", { ...s, body: { userId: "missing", credits: 5, reason: "abc" } })).status).toBe(404);
  });
});

describe("GET /api/admin/analytics and /api/admin/system-stats", () => {
  it("counts calls and voice minutes per day for the last 14 days", async () => {
    const admin = await makeAdmin();
    const owner = await registerTestUser();
    const db = await getDb();
    const base = { organizationId: owner.organizationId, direction: "inbound" as const, fromNumber: "+1", toNumber: "+2", status: "completed" as const };
    const before = await call(analyticsRoute, "GET", "/api/admin/analytics", { sessionId: admin.sessionId });
    await db.insert(calls).values([
      { ...base, id: crypto.randomUUID(), durationSeconds: 120 },
      { ...base, id: crypto.randomUUID(), durationSeconds: 60 },
      { ...base, id: crypto.randomUUID(), durationSeconds: 600, startedAt: new Date(Date.now() - 30 * 86_400_000) },
    ]);
    const after = await call(analyticsRoute, "GET", "/api/admin/analytics", { sessionId: admin.sessionId });
    expect(after.status).toBe(200);
    expect(after.body.days).toHaveLength(14);
    expect(after.body.days[13].day).toBe(new Date().toISOString().slice(0, 10));
    expect(after.body.days[13].calls - before.body.days[13].calls).toBeGreaterThanOrEqual(2);
    // Minutes carry one decimal: compare the difference at that precision (10.1 → 13.1 is 2.9999… in floating point).
    expect(Math.round((after.body.days[13].minutes - before.body.days[13].minutes) * 10) / 10).toBeGreaterThanOrEqual(3);
  });

  it("reports the database driver and the providers in effect", async () => {
    const admin = await makeAdmin();
    const res = await call(systemStatsRoute, "GET", "/api/admin/system-stats", { sessionId: admin.sessionId });
    expect(res.status).toBe(200);
    expect(res.body.database).toBe(process.env.DATABASE_URL ? "postgres" : "pglite");
    expect(res.body.providers).toEqual({
      llm: process.env.ANTHROPIC_API_KEY ? "anthropic" : "local",
      tts: process.env.ELEVENLABS_API_KEY ? "elevenlabs" : "offline",
      // PocketSphinx is installed wherever its tests run (CI installs it; SKIP_POCKETSPHINX=1 elsewhere).
      stt: process.env.DEEPGRAM_API_KEY ? "deepgram" : process.env.SKIP_POCKETSPHINX === "1" ? expect.stringMatching(/^(pocketsphinx|unavailable)$/) : "pocketsphinx",
      telephony: process.env.TWILIO_ACCOUNT_SID && process.env.TWILIO_AUTH_TOKEN ? "twilio" : "simulated",
      payments: process.env.STRIPE_SECRET_KEY ? "stripe" : "simulated",
    });
    expect(res.body.counts.users).toBeGreaterThan(0);
  });
});
