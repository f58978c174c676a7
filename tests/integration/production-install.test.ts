/**
 * A production install (issue 10 §1): with DATABASE_URL the demo seed (known passwords) and test-mode
 * payments (free credits) are off unless asked for; the first master admin comes from
 * MASTER_ADMIN_EMAIL / MASTER_ADMIN_PASSWORD; without payments the billing routes say so.
 */
import { eq } from "drizzle-orm";
import { GET as overview } from "@/app/api/billing/overview/route";
import { POST as purchase } from "@/app/api/billing/purchase-credits/route";
import { POST as upgradePlan } from "@/app/api/billing/upgrade-plan/route";
import { openDatabase, type DbHandle } from "@/db/client";
import { organizations, users } from "@/db/schema";
import { ensureFirstMasterAdmin, MASTER_ADMIN_ORGANIZATION } from "@/lib/consoles/admin/bootstrap";
import { signIn } from "@/lib/identity/auth/service";
import { PAYMENTS_NOT_CONFIGURED } from "@/lib/workspace/billing/service";
import { closeDb, getDb } from "@/lib/platform/database";
import { env, loadEnv } from "@/lib/platform/env";
import { isEmpty, seedIfEmpty } from "@/lib/consoles/seed/demo";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());
// Fresh in-memory databases are migrated per test, and seeding is heavy: allow for a busy machine.
jest.setTimeout(90_000);

const base = { BETTER_AUTH_SECRET: "x".repeat(40) };

describe("environment defaults", () => {
  it("a server database (DATABASE_URL) means no demo seed and no test payments unless asked for", () => {
    const server = loadEnv({ ...base, DATABASE_URL: "postgres://db.example.com/switchboard" });
    expect(server.SEED_DEMO_DATA).toBe(false);
    expect(server.PAYMENTS_TEST_MODE).toBe(false);
    const asked = loadEnv({ ...base, DATABASE_URL: "postgres://db.example.com/switchboard", SEED_DEMO_DATA: "true", PAYMENTS_TEST_MODE: "true" });
    expect(asked.SEED_DEMO_DATA).toBe(true);
    expect(asked.PAYMENTS_TEST_MODE).toBe(true);
  });

  it("the embedded database (a local install) keeps both on, and either can be turned off", () => {
    const local = loadEnv(base);
    expect(local.SEED_DEMO_DATA).toBe(true);
    expect(local.PAYMENTS_TEST_MODE).toBe(true);
    expect(loadEnv({ ...base, SEED_DEMO_DATA: "false" }).SEED_DEMO_DATA).toBe(false);
    // An empty value, as copied from .env.example, means "not set".
    expect(loadEnv({ ...base, DATABASE_URL: "postgres://db/x", SEED_DEMO_DATA: "" }).SEED_DEMO_DATA).toBe(false);
  });

  it("refuses a short MASTER_ADMIN_PASSWORD at start", () => {
    expect(() => loadEnv({ ...base, MASTER_ADMIN_EMAIL: "ops@example.com", MASTER_ADMIN_PASSWORD: "short" })).toThrow(/MASTER_ADMIN_PASSWORD/);
  });
});

describe("on a fresh database", () => {
  let fresh: DbHandle;
  beforeEach(async () => {
    fresh = await openDatabase({ driver: "pglite", dataDir: "memory://" });
  });
  afterEach(async () => {
    await fresh.close();
  });

  it("seeds nothing when SEED_DEMO_DATA is off, and the demo when it is on", async () => {
    const saved = env.SEED_DEMO_DATA;
    try {
      env.SEED_DEMO_DATA = false;
      expect(await seedIfEmpty(fresh.db)).toBeNull();
      expect(await isEmpty(fresh.db)).toBe(true);
      env.SEED_DEMO_DATA = true;
      expect(await seedIfEmpty(fresh.db)).toMatchObject({ calls: expect.any(Number) });
      expect(await isEmpty(fresh.db)).toBe(false);
    } finally {
      env.SEED_DEMO_DATA = saved;
    }
  }, 120_000);

  it("creates the first master admin from MASTER_ADMIN_EMAIL / PASSWORD once, who can sign in; never touches it again", async () => {
    expect(await ensureFirstMasterAdmin(fresh.db, undefined, undefined)).toBe("not-configured");
    expect(await ensureFirstMasterAdmin(fresh.db, "Ops@Example.com", "a-long-password-1")).toBe("created");
    const [row] = await fresh.db.select().from(users).where(eq(users.email, "ops@example.com"));
    expect(row).toMatchObject({ role: "master_admin", status: "active" });
    const [org] = await fresh.db.select().from(organizations).where(eq(organizations.id, row.organizationId));
    expect(org.name).toBe(MASTER_ADMIN_ORGANIZATION);
    const signedIn = await signIn(fresh.db, { email: "ops@example.com", password: "a-long-password-1" }, new Headers(), null);
    expect(signedIn.user.role).toBe("master_admin");
    // Once a master admin exists the variables are ignored: no second account, no password change.
    expect(await ensureFirstMasterAdmin(fresh.db, "ops@example.com", "another-password-2")).toBe("exists");
    expect(await ensureFirstMasterAdmin(fresh.db, "second@example.com", "another-password-2")).toBe("exists");
    expect((await fresh.db.select().from(users).where(eq(users.role, "master_admin"))).length).toBe(1);
    await expect(signIn(fresh.db, { email: "ops@example.com", password: "another-password-2" }, new Headers(), null)).rejects.toMatchObject({ status: 401 });
  }, 60_000);
});

describe("payments not configured (no Stripe key, test payments off)", () => {
  async function withoutTestPayments<T>(run: () => Promise<T>): Promise<T> {
    const saved = env.PAYMENTS_TEST_MODE;
    env.PAYMENTS_TEST_MODE = false;
    try {
      return await run();
    } finally {
      env.PAYMENTS_TEST_MODE = saved;
    }
  }

  it("the overview says so, and purchases and upgrades answer 503 without granting anything", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    const [before] = await db.select().from(organizations).where(eq(organizations.id, account.organizationId));
    await withoutTestPayments(async () => {
      const view = await call(overview, "GET", "/api/billing/overview", { sessionId: account.sessionId });
      expect(view.body).toMatchObject({ paymentsConfigured: false, testMode: false });
      const pack = await call(purchase, "POST", "/api/billing/purchase-credits", { sessionId: account.sessionId, body: { credits: 550 } });
      expect(pack.status).toBe(503);
      expect(pack.body.message).toBe(PAYMENTS_NOT_CONFIGURED);
      const up = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId: account.sessionId, body: { planId: "enterprise" } });
      expect(up.status).toBe(503);
    });
    const [after] = await db.select().from(organizations).where(eq(organizations.id, account.organizationId));
    expect(after).toMatchObject({ creditBalance: before.creditBalance, subscriptionTier: "free" });
    const view = await call(overview, "GET", "/api/billing/overview", { sessionId: account.sessionId });
    expect(view.body).toMatchObject({ paymentsConfigured: true, testMode: true });
  });

  it("a downgrade to Free needs no payment and still works", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    await db.update(organizations).set({ subscriptionTier: "pro" }).where(eq(organizations.id, account.organizationId));
    await withoutTestPayments(async () => {
      const down = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId: account.sessionId, body: { planId: "free" } });
      expect(down.status).toBe(200);
    });
  });
});
