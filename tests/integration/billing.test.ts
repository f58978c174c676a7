import { and, count, eq, sql } from "drizzle-orm";
import { GET as invoice } from "@/app/api/billing/invoices/[paymentId]/route";
import { GET as overview } from "@/app/api/billing/overview/route";
import { POST as portal } from "@/app/api/billing/portal/route";
import { POST as purchase } from "@/app/api/billing/purchase-credits/route";
import { GET as transactions } from "@/app/api/billing/transactions/route";
import { POST as upgradePlan } from "@/app/api/billing/upgrade-plan/route";
import { GET as subscriptionPlans } from "@/app/api/subscription-plans/route";
import { POST as createAssistant } from "@/app/api/voice-assistants/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { creditLedger, organizations, paymentEvents, payments } from "@/db/schema";
import { fulfilPayment } from "@/lib/workspace/billing/fulfilment";
import { changeCredits, spendCredits } from "@/lib/workspace/billing/ledger";
import { plans } from "@/lib/workspace/billing/plans";
import { simulatedCheckoutCompleted } from "@/lib/platform/providers/payments/simulated";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());

async function org(account: TestAccount) {
  const db = await getDb();
  const [row] = await db.select().from(organizations).where(eq(organizations.id, account.organizationId));
  return row;
}

async function ledgerCount(organizationId: string) {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(creditLedger).where(eq(creditLedger.organizationId, organizationId));
  return row.n;
}

async function getOverview(account: TestAccount) {
  const res = await call(overview, "GET", "/api/billing/overview", { sessionId: account.sessionId });
  expect(res.status).toBe(200);
  return res.body;
}

describe("GET /api/subscription-plans", () => {
  it("serves the three plans from lib/workspace/billing/plans.ts without a session", async () => {
    const res = await call(subscriptionPlans, "GET", "/api/subscription-plans");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      plans.map((p) => ({ id: p.id, name: p.name, price: p.price, creditsIncluded: p.creditsIncluded, features: p.features, limits: p.limits })),
    );
    expect(res.body.map((p: { id: string; price: number; creditsIncluded: number }) => [p.id, p.price, p.creditsIncluded])).toEqual([
      ["free", 0, 100],
      ["pro", 49, 1000],
      ["enterprise", 199, -1],
    ]);
  });
});

describe("without a session", () => {
  it("answers 401 on every billing route", async () => {
    const answers = await Promise.all([
      call(overview, "GET", "/api/billing/overview"),
      call(transactions, "GET", "/api/billing/transactions"),
      call(purchase, "POST", "/api/billing/purchase-credits", { body: { credits: 550 } }),
      call(upgradePlan, "POST", "/api/billing/upgrade-plan", { body: { planId: "pro" } }),
      call(portal, "POST", "/api/billing/portal"),
      call(invoice, "GET", "/api/billing/invoices/pay_x", { params: { paymentId: "pay_x" } }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Unauthorized" });
    }
  });
});

describe("GET /api/billing/overview", () => {
  it("computes used, balance and percent from the ledger rows of the current period", async () => {
    const account = await registerTestUser();
    const first = await getOverview(account);
    expect(first).toMatchObject({
      plan: { id: "free", name: "Free", price: 0 },
      status: "active",
      testMode: true,
      renewalDate: null,
      balance: 100,
      usedThisPeriod: 0,
      includedThisPeriod: 100,
      usagePercent: 0,
      unlimited: false,
      paymentNeeded: false,
    });
    expect(first.packs).toEqual([
      { credits: 500, price: 15, bonus: 50, total: 550 },
      { credits: 1000, price: 25, bonus: 150, total: 1150 },
      { credits: 2500, price: 50, bonus: 500, total: 3000 },
      { credits: 5000, price: 90, bonus: 1000, total: 6000 },
    ]);

    const db = await getDb();
    await spendCredits(db, account.organizationId, 10, { reason: "before this period" });
    // That spend was made in the previous period: dated a minute back, not left to the clock
    // (within one millisecond of the period start it would read as inside the new period).
    await db
      .update(creditLedger)
      .set({ createdAt: sql`now() - interval '1 minute'` })
      .where(and(eq(creditLedger.organizationId, account.organizationId), eq(creditLedger.reason, "before this period")));
    // A new period starts now, on the database's clock, the one the ledger's entries below are dated by.
    await db
      .update(organizations)
      .set({ currentPeriodStart: sql`now()`, currentPeriodEnd: new Date(Date.now() + 30 * 24 * 3600_000) })
      .where(eq(organizations.id, account.organizationId));
    for (let i = 0; i < 3; i++) await spendCredits(db, account.organizationId, 10, { reason: "voice test" });
    await changeCredits(db, account.organizationId, "adjustment", -15, { reason: "correction" });

    const now = await getOverview(account);
    expect(now.balance).toBe(100 - 10 - 30 - 15);
    expect(now.usedThisPeriod).toBe(30);
    // Against Free's 100-credit allowance for the period, not against the balance.
    expect(now.usagePercent).toBe(30);
  });

  it("shows 0% for unlimited Enterprise and a renewal date for a paid active plan", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    await db.update(organizations).set({ subscriptionTier: "enterprise" }).where(eq(organizations.id, account.organizationId));
    await spendCredits(db, account.organizationId, 40, { reason: "voice test" });
    const body = await getOverview(account);
    expect(body).toMatchObject({ plan: { id: "enterprise" }, unlimited: true, usedThisPeriod: 40, usagePercent: 0, balance: 100 });
    expect(new Date(body.renewalDate).getTime()).toBe((await org(account)).currentPeriodEnd.getTime());
  });
});

describe("POST /api/billing/purchase-credits (test mode)", () => {
  it.each([[500], [551], [0], [-550], [550.5]])("refuses %p credits (not a pack's credits + bonus) with 400 naming credits", async (credits) => {
    const account = await registerTestUser();
    const res = await call(purchase, "POST", "/api/billing/purchase-credits", { sessionId: account.sessionId, body: { credits } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(["credits"]);
    expect((await org(account)).creditBalance).toBe(100);
  });

  it("refuses a missing or non-numeric amount", async () => {
    const account = await registerTestUser();
    for (const body of [{}, { credits: "550" }]) {
      const res = await call(purchase, "POST", "/api/billing/purchase-credits", { sessionId: account.sessionId, body });
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveProperty("credits");
    }
  });

  it("settles at once through the fulfilment: balance, ledger, payment, event and Billing History", async () => {
    const account = await registerTestUser();
    const res = await call(purchase, "POST", "/api/billing/purchase-credits", { sessionId: account.sessionId, body: { credits: 550 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, credits: 550, balance: 650, paymentId: expect.stringMatching(/^pay_/), testMode: true });

    const db = await getDb();
    const [payment] = await db.select().from(payments).where(eq(payments.id, res.body.paymentId));
    expect(payment).toMatchObject({ organizationId: account.organizationId, provider: "simulated", kind: "credit_pack", status: "paid", amountCents: 1500, credits: 550 });
    expect(payment.paidAt).toBeInstanceOf(Date);
    const [entry] = await db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, account.organizationId), eq(creditLedger.kind, "purchase")));
    expect(entry).toMatchObject({ amount: 550, balanceAfter: 650, reference: payment.id, actorUserId: account.id });

    const history = await call(transactions, "GET", "/api/billing/transactions", { sessionId: account.sessionId });
    expect(history.status).toBe(200);
    expect(history.body.items).toEqual([
      {
        id: payment.id,
        date: payment.paidAt!.toISOString(),
        type: "Credit purchase",
        description: "Credit pack: 500 credits + 50 bonus",
        amount: 550,
        amountCents: 1500,
        currency: "usd",
        status: "paid",
        paymentId: payment.id,
        invoiceAvailable: true,
      },
      expect.objectContaining({ type: "Credit grant", amount: 100, amountCents: null, status: "completed", paymentId: null, invoiceAvailable: false }),
    ]);
    expect(history.body.nextCursor).toBeNull();
    expect((await getOverview(account)).balance).toBe(650);
  });

  it("applies the same simulated event once", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    const [payment] = await db
      .insert(payments)
      .values({
        id: `pay_replay_${Date.now()}`,
        organizationId: account.organizationId,
        provider: "simulated",
        kind: "credit_pack",
        amountCents: 2500,
        credits: 1150,
        description: "Credit pack: 1,000 credits + 150 bonus",
        invoiceNumber: `SB-REPLAY-${Date.now()}`,
      })
      .returning();
    const event = simulatedCheckoutCompleted({
      payment: { ...payment, planId: null },
      organization: { id: account.organizationId, name: "x", stripeCustomerId: null },
      customerEmail: account.email,
      successUrl: "",
      cancelUrl: "",
    });
    const results = await Promise.all([fulfilPayment(db, event), fulfilPayment(db, event)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(["duplicate", "fulfilled"]);
    expect((await fulfilPayment(db, event)).outcome).toBe("duplicate");
    expect((await org(account)).creditBalance).toBe(100 + 1150);
    expect(await ledgerCount(account.organizationId)).toBe(2);
    const events = await db.select().from(paymentEvents).where(eq(paymentEvents.id, event.id));
    expect(events).toHaveLength(1);
  });
});

describe("POST /api/billing/upgrade-plan (test mode)", () => {
  it("applies the new plan's limits at once; a downgrade to Free waits for renewal, with no charge", async () => {
    const account = await registerTestUser();
    const sessionId = account.sessionId;
    // The starter assistant holds the Free plan's one slot.
    const refused = await call(createAssistant, "POST", "/api/voice-assistants", { sessionId, body: { name: "Two" } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Your Free plan allows 1 voice assistant/);

    const up = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId, body: { planId: "pro" } });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ success: true, plan: "pro", status: "active", paymentId: expect.any(String), testMode: true });
    expect((await call(createAssistant, "POST", "/api/voice-assistants", { sessionId, body: { name: "Two" } })).status).toBe(201);

    const after = await getOverview(account);
    expect(after).toMatchObject({ plan: { id: "pro", name: "Pro", price: 49 }, status: "active", balance: 1100, includedThisPeriod: 1000 });
    expect(after.renewalDate).not.toBeNull();
    const history = await call(transactions, "GET", "/api/billing/transactions", { sessionId });
    expect(history.body.items[0]).toMatchObject({ type: "Subscription", description: "Pro plan: 1 month", amount: 1000, amountCents: 4900, status: "paid", invoiceAvailable: true });

    const again = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId, body: { planId: "pro" } });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual({ planId: "You are already on the Pro plan" });

    const down = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId, body: { planId: "free" } });
    expect(down.status).toBe(200);
    expect(down.body).toEqual({ success: true, plan: "pro", status: "active", scheduledPlan: "free", effectiveAt: after.periodEnd });
    // Paid for until renewal: Pro's limits stay, no charge, no credits.
    expect(await org(account)).toMatchObject({ subscriptionTier: "pro", scheduledTier: "free", subscriptionStatus: "active", creditBalance: 1100 });
    expect((await getOverview(account)).scheduledPlan).toEqual({ id: "free", name: "Free" });
    // At renewal Free applies.
    const db = await getDb();
    await db.update(organizations).set({ currentPeriodEnd: new Date(Date.now() - 1000) }).where(eq(organizations.id, account.organizationId));
    await getOverview(account);
    expect(await org(account)).toMatchObject({ subscriptionTier: "free", scheduledTier: null, subscriptionStatus: "active" });
    expect((await call(createAssistant, "POST", "/api/voice-assistants", { sessionId, body: { name: "Three" } })).status).toBe(403);

    const noop = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId, body: { planId: "free" } });
    expect(noop.status).toBe(400);
    const bad = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId, body: { planId: "gold" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ planId: "Choose a plan: free, pro or enterprise" });
  });

  it("answers 400 'Available with Stripe' for the customer portal in test mode", async () => {
    const account = await registerTestUser();
    const res = await call(portal, "POST", "/api/billing/portal", { sessionId: account.sessionId });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Available with Stripe");
  });
});

describe("GET /api/billing/transactions paging", () => {
  it("pages newest first with a cursor, without gaps or repeats", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    for (let i = 0; i < 6; i++) await spendCredits(db, account.organizationId, 1, { reason: `turn ${i}` });
    await call(purchase, "POST", "/api/billing/purchase-credits", { sessionId: account.sessionId, body: { credits: 550 } });

    const seen: { id: string; date: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=3&cursor=${cursor}` : "?limit=3";
      const res = await call(transactions, "GET", `/api/billing/transactions${query}`, { sessionId: account.sessionId });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toHaveLength(8); // welcome grant + 6 usage rows + 1 payment
    expect(new Set(seen.map((t) => t.id)).size).toBe(8);
    const dates = seen.map((t) => Date.parse(t.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(seen.filter((t) => (t as unknown as { type: string }).type === "Usage")).toHaveLength(6);

    const bad = await call(transactions, "GET", "/api/billing/transactions?cursor=not*valid", { sessionId: account.sessionId });
    expect(bad.status).toBe(400);
    const tooMany = await call(transactions, "GET", "/api/billing/transactions?limit=1000", { sessionId: account.sessionId });
    expect(tooMany.status).toBe(400);
  });
});

describe("GET /api/billing/invoices/{paymentId}", () => {
  it("renders a printable HTML invoice for the organization's own paid payment, 404 for anyone else's", async () => {
    const [owner, other] = await Promise.all([registerTestUser(), registerTestUser()]);
    const bought = await call(purchase, "POST", "/api/billing/purchase-credits", { sessionId: owner.sessionId, body: { credits: 6000 } });
    const paymentId: string = bought.body.paymentId;
    const db = await getDb();
    const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));

    const res = await call(invoice, "GET", `/api/billing/invoices/${paymentId}`, { sessionId: owner.sessionId, params: { paymentId } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.text).toContain(payment.invoiceNumber);
    expect(res.text).toContain((await org(owner)).name.replace(/'/g, "&#39;"));
    expect(res.text).toContain("Credit pack: 5,000 credits + 1,000 bonus");
    expect(res.text).toContain("$90.00");
    expect(res.text).toContain(">Paid<");
    expect(res.text).toContain("window.print()");
    expect(res.text).toContain(payment.paidAt!.toISOString().slice(0, 10));

    const foreign = await call(invoice, "GET", `/api/billing/invoices/${paymentId}`, { sessionId: other.sessionId, params: { paymentId } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Invoice not found" });
    const unknown = await call(invoice, "GET", "/api/billing/invoices/pay_nope", { sessionId: owner.sessionId, params: { paymentId: "pay_nope" } });
    expect(unknown.status).toBe(404);
  });
});
