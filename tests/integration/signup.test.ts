import { and, eq } from "drizzle-orm";
import { GET as me } from "@/app/api/auth/me/route";
import { POST as signup } from "@/app/api/auth/signup/route";
import { POST as upgradePlan } from "@/app/api/billing/upgrade-plan/route";
import { POST as createNumber } from "@/app/api/phone-numbers/route";
import { POST as createAssistant } from "@/app/api/voice-assistants/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { creditLedger, organizations } from "@/db/schema";
import { assertWithinPlanLimit } from "@/lib/workspace/billing/limits";
import { call, uniqueSuffix } from "../helpers/http";

afterAll(() => closeDb());

function payload(overrides: Record<string, unknown> = {}) {
  const suffix = uniqueSuffix();
  return {
    firstName: "Dana",
    lastName: "Reyes",
    email: `dana${suffix}@example.com`,
    username: `dana${suffix}`,
    password: "longenough1",
    confirmPassword: "longenough1",
    subscriptionTier: "pro",
    role: "business",
    organizationName: "Reyes Plumbing",
    agreeToTerms: true,
    ...overrides,
  };
}

async function ledgerOf(organizationId: string) {
  const db = await getDb();
  return db.select().from(creditLedger).where(eq(creditLedger.organizationId, organizationId));
}

async function orgOf(organizationId: string) {
  const db = await getDb();
  const [org] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  return org;
}

describe("POST /api/auth/signup validation (advanced spec §5)", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["firstName", { firstName: "D" }, "First name is required"],
    ["firstName", { firstName: "  " }, "First name is required"],
    ["lastName", { lastName: "R" }, "Last name is required"],
    ["email", { email: "not-an-email" }, "Valid email is required"],
    ["username", { username: "ab" }, "Username must be at least 3 characters"],
    ["password", { password: "short12", confirmPassword: "short12" }, "Password must be at least 8 characters"],
    ["confirmPassword", { confirmPassword: "different1" }, "Passwords don't match"],
    ["subscriptionTier", { subscriptionTier: "gold" }, "Choose a plan: free, pro or enterprise"],
    ["role", { role: "admin" }, "Choose an account type: individual or business"],
    ["agreeToTerms", { agreeToTerms: false }, "You must agree to the terms"],
    ["agreeToTerms", { agreeToTerms: undefined }, "You must agree to the terms"],
  ];

  it.each(cases)("%s %j → 400 with the spec's message", async (field, overrides, message) => {
    const res = await call(signup, "POST", "/api/auth/signup", { body: payload(overrides) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ [field]: message });
  });

  it("reports every invalid field at once, the password mismatch included", async () => {
    const res = await call(signup, "POST", "/api/auth/signup", {
      body: payload({ firstName: "", email: "x", confirmPassword: "nope-nope", agreeToTerms: false }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      firstName: "First name is required",
      email: "Valid email is required",
      confirmPassword: "Passwords don't match",
      agreeToTerms: "You must agree to the terms",
    });
  });

  it("accepts a missing organization name (a personal workspace)", async () => {
    const body = payload({ organizationName: undefined, role: "individual", subscriptionTier: "free" });
    const res = await call(signup, "POST", "/api/auth/signup", { body });
    expect(res.status).toBe(200);
    expect((await orgOf(res.body.user.organizationId)).name).toBe("Dana's workspace");
    expect(res.body.user.role).toBe("individual");
  });

  it("keeps an optional business website on the new organization's profile, for the import offer", async () => {
    const res = await call(signup, "POST", "/api/auth/signup", { body: payload({ website: "reyesplumbing.example" }) });
    expect(res.status).toBe(200);
    expect((await orgOf(res.body.user.organizationId)).businessProfile).toEqual({ website: "https://reyesplumbing.example/" });
    const bad = await call(signup, "POST", "/api/auth/signup", { body: payload({ website: "not a website" }) });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ website: "Enter your website's address, e.g. https://example.com" });
    const none = await call(signup, "POST", "/api/auth/signup", { body: payload({ website: "" }) });
    expect((await orgOf(none.body.user.organizationId)).businessProfile).toEqual({});
  });
});

describe("POST /api/auth/signup", () => {
  it("answers {sessionId, user} with the tier and credits, sets the session cookie, and signs in", async () => {
    const body = payload();
    const res = await call(signup, "POST", "/api/auth/signup", { body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sessionId: expect.any(String),
      user: {
        id: expect.any(String),
        email: body.email,
        username: body.username,
        firstName: "Dana",
        lastName: "Reyes",
        role: "business",
        permissions: expect.arrayContaining(["billing.read", "billing.write"]),
        organizationId: expect.any(String),
        subscriptionTier: "pro",
        subscriptionStatus: "trialing",
        credits: 1000,
      },
    });
    expect(res.headers.get("set-cookie")).toMatch(/session_token=.*HttpOnly/i);
    expect((await orgOf(res.body.user.organizationId)).name).toBe("Reyes Plumbing");
    const who = await call(me, "GET", "/api/auth/me", { sessionId: res.body.sessionId });
    expect(who.status).toBe(200);
    expect(who.body.email).toBe(body.email);
  });

  it.each([
    ["free", 100, "active"],
    ["pro", 1000, "trialing"],
    ["enterprise", 10000, "trialing"],
  ] as const)("grants the %s tier's %d initial credits as one ledger grant (status %s)", async (tier, credits, status) => {
    const res = await call(signup, "POST", "/api/auth/signup", { body: payload({ subscriptionTier: tier }) });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ subscriptionTier: tier, subscriptionStatus: status, credits });
    const org = await orgOf(res.body.user.organizationId);
    expect(org).toMatchObject({ subscriptionTier: tier, subscriptionStatus: status, creditBalance: credits });
    const rows = await ledgerOf(org.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "grant", amount: credits, balanceAfter: credits, reference: "signup", actorUserId: res.body.user.id });
  });

  it("answers 409 naming the field when the e-mail or username is taken (any case)", async () => {
    const first = payload();
    expect((await call(signup, "POST", "/api/auth/signup", { body: first })).status).toBe(200);
    const sameEmail = await call(signup, "POST", "/api/auth/signup", { body: payload({ email: first.email.toUpperCase() }) });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({
      message: "An account with this email already exists",
      errors: { email: "An account with this email already exists" },
    });
    const sameUsername = await call(signup, "POST", "/api/auth/signup", { body: payload({ username: first.username.toUpperCase() }) });
    expect(sameUsername.status).toBe(409);
    expect(sameUsername.body.errors).toEqual({ username: "This username is already taken" });
  });
});

describe("a paid tier before payment", () => {
  it("has Free's limits until it is paid; paying activates Pro's limits and adds no second welcome grant", async () => {
    const res = await call(signup, "POST", "/api/auth/signup", { body: payload({ subscriptionTier: "pro" }) });
    const { sessionId } = res.body;
    const organizationId: string = res.body.user.organizationId;

    // The starter assistant is the first; a second one waits for payment.
    const second = await call(createAssistant, "POST", "/api/voice-assistants", { sessionId, body: { name: "Second" } });
    expect(second.status).toBe(403);
    expect(second.body.message).toBe(
      "Your Pro plan is waiting for payment, so the Free plan's limits apply (1 voice assistant). Complete payment in Billing to add more.",
    );

    expect((await call(createNumber, "POST", "/api/phone-numbers", { sessionId, body: { friendlyName: "Main", isActive: true } })).status).toBe(201);
    const db = await getDb();
    await expect(assertWithinPlanLimit(db, organizationId, "phoneNumbers")).rejects.toMatchObject({
      status: 403,
      message: expect.stringMatching(/waiting for payment.*1 phone number/),
    });

    // "Complete payment" (test mode settles at once).
    const paid = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId, body: { planId: "pro" } });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ success: true, plan: "pro", status: "active" });
    await expect(assertWithinPlanLimit(db, organizationId, "phoneNumbers")).resolves.toBeUndefined();
    expect((await call(createAssistant, "POST", "/api/voice-assistants", { sessionId, body: { name: "Second" } })).status).toBe(201);

    const org = await orgOf(organizationId);
    expect(org).toMatchObject({ subscriptionTier: "pro", subscriptionStatus: "active", creditBalance: 1000 });
    const grants = (await ledgerOf(organizationId)).filter((r) => r.kind === "grant");
    expect(grants).toHaveLength(1);
  });

  it("a trialing Enterprise org is limited like Free too", async () => {
    const res = await call(signup, "POST", "/api/auth/signup", { body: payload({ subscriptionTier: "enterprise" }) });
    const db = await getDb();
    const org = await orgOf(res.body.user.organizationId);
    // Its starter assistant already uses the one slot Free's limits allow.
    await expect(assertWithinPlanLimit(db, org.id, "assistants")).rejects.toMatchObject({ status: 403 });
    const active = await db
      .update(organizations)
      .set({ subscriptionStatus: "active" })
      .where(and(eq(organizations.id, org.id)))
      .returning();
    expect(active).toHaveLength(1);
    await expect(assertWithinPlanLimit(db, org.id, "assistants")).resolves.toBeUndefined();
  });
});
