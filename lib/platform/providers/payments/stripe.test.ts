/**
 * The Stripe adapter and webhook, run with the real `stripe` SDK against the local fake API in
 * tests/fakes/stripe-server.ts. Nothing here reaches the internet. The environment's Stripe keys are
 * set before the app modules load (lib/platform/env.ts reads process.env once), so the routes run in Stripe
 * mode; the SDK is aimed at the fake through setStripeClientFactory.
 */
import Stripe from "stripe";
import { startFakeStripe, type FakeStripe } from "@/tests/fakes/stripe-server";

const SECRET_KEY = "sk_test_fake_switchboard";
const WEBHOOK_SECRET = "whsec_test_switchboard";
process.env.STRIPE_SECRET_KEY = SECRET_KEY;
process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;

type Routes = {
  webhook: typeof import("@/app/api/stripe/webhook/route").POST;
  purchase: typeof import("@/app/api/billing/purchase-credits/route").POST;
  upgrade: typeof import("@/app/api/billing/upgrade-plan/route").POST;
  portal: typeof import("@/app/api/billing/portal/route").POST;
  overview: typeof import("@/app/api/billing/overview/route").GET;
  transactions: typeof import("@/app/api/billing/transactions/route").GET;
  checkoutReturn: typeof import("@/app/api/billing/checkout/return/route").GET;
};

let fake: FakeStripe;
let routes: Routes;
let app: {
  call: typeof import("@/tests/helpers/http").call;
  registerTestUser: typeof import("@/tests/helpers/accounts").registerTestUser;
  getDb: typeof import("@/lib/platform/database").getDb;
  schema: typeof import("@/db/schema");
  drizzle: typeof import("drizzle-orm");
  stripe: typeof import("./stripe");
};
const signer = new Stripe(SECRET_KEY);

beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: SECRET_KEY });
  const stripeModule = await import("./stripe");
  stripeModule.setStripeClientFactory(
    (key) => new Stripe(key, { host: "127.0.0.1", port: fake.port, protocol: "http", maxNetworkRetries: 0, telemetry: false }),
  );
  routes = {
    webhook: (await import("@/app/api/stripe/webhook/route")).POST,
    purchase: (await import("@/app/api/billing/purchase-credits/route")).POST,
    upgrade: (await import("@/app/api/billing/upgrade-plan/route")).POST,
    portal: (await import("@/app/api/billing/portal/route")).POST,
    overview: (await import("@/app/api/billing/overview/route")).GET,
    transactions: (await import("@/app/api/billing/transactions/route")).GET,
    checkoutReturn: (await import("@/app/api/billing/checkout/return/route")).GET,
  };
  app = {
    call: (await import("@/tests/helpers/http")).call,
    registerTestUser: (await import("@/tests/helpers/accounts")).registerTestUser,
    getDb: (await import("@/lib/platform/database")).getDb,
    schema: await import("@/db/schema"),
    drizzle: await import("drizzle-orm"),
    stripe: stripeModule,
  };
});

afterAll(async () => {
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
  await fake.close();
  app?.stripe.setStripeClientFactory(null);
  await (await import("@/lib/platform/database")).closeDb();
});

beforeEach(() => {
  fake.requests.length = 0;
});

function provider() {
  return app.stripe.createStripePaymentsProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
}

const packRequest = {
  payment: {
    id: "pay_test_pack",
    kind: "credit_pack" as const,
    amountCents: 1500,
    currency: "usd",
    description: "Credit pack: 500 credits + 50 bonus",
    credits: 550,
    planId: null,
  },
  organization: { id: "org_1", name: "Acme", stripeCustomerId: null },
  customerEmail: "owner@acme.test",
  successUrl: "https://app.test/api/billing/checkout/return?session_id={CHECKOUT_SESSION_ID}",
  cancelUrl: "https://app.test/billing?checkout=cancelled",
};

function event(type: string, object: unknown, id = `evt_${Math.random().toString(36).slice(2)}`) {
  return JSON.stringify({ id, object: "event", api_version: "2026-10-28.endive", created: Math.floor(Date.now() / 1000), livemode: false, type, data: { object } });
}

function sign(payload: string, options: { secret?: string; timestamp?: number } = {}) {
  return signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp });
}

function deliver(payload: string, signature: string | null) {
  return app.call(routes.webhook, "POST", "/api/stripe/webhook", {
    rawBody: payload,
    headers: signature === null ? {} : { "stripe-signature": signature },
  });
}

async function orgState(organizationId: string) {
  const { eq, count } = app.drizzle;
  const { organizations, creditLedger, payments } = app.schema;
  const db = await app.getDb();
  const [org] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  const [ledger] = await db.select({ n: count() }).from(creditLedger).where(eq(creditLedger.organizationId, organizationId));
  const rows = await db.select().from(payments).where(eq(payments.organizationId, organizationId));
  return { org, ledgerRows: ledger.n, payments: rows };
}

describe("Stripe adapter (real SDK, fake API)", () => {
  it("creates a payment-mode Checkout Session with bracket-encoded line items and metadata", async () => {
    const result = await provider().startCheckout(packRequest);
    expect(result).toEqual({ status: "redirect", url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/), sessionId: expect.stringMatching(/^cs_test_/) });
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/checkout/sessions");
    expect(req.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(req.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(req.headers["idempotency-key"]).toBe("checkout-pay_test_pack");
    expect(req.form).toMatchObject({
      mode: "payment",
      client_reference_id: "org_1",
      customer_email: "owner@acme.test",
      customer_creation: "always",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "1500",
      "line_items[0][price_data][product_data][name]": "Credit pack: 500 credits + 50 bonus",
      "metadata[paymentId]": "pay_test_pack",
      "metadata[organizationId]": "org_1",
      "metadata[kind]": "credit_pack",
      "metadata[credits]": "550",
      "payment_intent_data[metadata][paymentId]": "pay_test_pack",
      success_url: packRequest.successUrl,
      cancel_url: packRequest.cancelUrl,
    });
    expect(req.form).not.toHaveProperty("line_items[0][price_data][recurring][interval]");
    expect(req.rawBody).toContain("success_url=https%3A%2F%2Fapp.test%2Fapi%2Fbilling%2Fcheckout%2Freturn%3Fsession_id%3D%7BCHECKOUT_SESSION_ID%7D");
  });

  it("creates a subscription-mode session with a monthly price for a known customer", async () => {
    await provider().startCheckout({
      ...packRequest,
      payment: { ...packRequest.payment, id: "pay_test_sub", kind: "subscription", amountCents: 4900, credits: 1000, planId: "pro", description: "Pro plan: 1 month" },
      organization: { ...packRequest.organization, stripeCustomerId: "cus_known" },
    });
    const [req] = fake.requests;
    expect(req.form).toMatchObject({
      mode: "subscription",
      customer: "cus_known",
      "line_items[0][price_data][unit_amount]": "4900",
      "line_items[0][price_data][recurring][interval]": "month",
      "metadata[planId]": "pro",
      "subscription_data[metadata][paymentId]": "pay_test_sub",
      "subscription_data[metadata][organizationId]": "org_1",
    });
    expect(req.form).not.toHaveProperty("customer_email");
    expect(req.form).not.toHaveProperty("customer_creation");
  });

  it("opens a customer portal session", async () => {
    const { url } = await provider().createPortalSession({ customerId: "cus_known", returnUrl: "https://app.test/billing" });
    expect(url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    const [req] = fake.requests;
    expect(req.path).toBe("/v1/billing_portal/sessions");
    expect(req.form).toEqual({ customer: "cus_known", return_url: "https://app.test/billing" });
  });

  it("turns Stripe's errors into a PaymentsError with Stripe's message", async () => {
    fake.failNext("/v1/checkout/sessions", 400, "amount_too_small", "Amount must be at least $0.50 usd");
    await expect(provider().startCheckout(packRequest)).rejects.toMatchObject({
      name: "PaymentsError",
      message: "Stripe: Amount must be at least $0.50 usd",
    });
  });
});

describe("credit pack through Stripe Checkout and the webhook", () => {
  it("answers a checkout URL, then credits once for the signed event; a replay changes nothing", async () => {
    const owner = await app.registerTestUser();
    const before = await orgState(owner.organizationId);

    const res = await app.call(routes.purchase, "POST", "/api/billing/purchase-credits", { sessionId: owner.sessionId, body: { credits: 1150 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ checkoutUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//), paymentId: expect.any(String) });
    const pending = await orgState(owner.organizationId);
    expect(pending.org.creditBalance).toBe(before.org.creditBalance);
    const payment = pending.payments.find((p) => p.id === res.body.paymentId)!;
    expect(payment).toMatchObject({ status: "pending", provider: "stripe", amountCents: 2500, credits: 1150 });
    expect(payment.providerSessionId).toMatch(/^cs_test_/);
    const overview = await app.call(routes.overview, "GET", "/api/billing/overview", { sessionId: owner.sessionId });
    expect(overview.body.testMode).toBe(false);

    const session = fake.complete(payment.providerSessionId!);
    const payload = event("checkout.session.completed", session, "evt_pack_once");
    const first = await deliver(payload, sign(payload));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, outcome: "fulfilled" });

    const paid = await orgState(owner.organizationId);
    expect(paid.org.creditBalance).toBe(before.org.creditBalance + 1150);
    expect(paid.ledgerRows).toBe(before.ledgerRows + 1);
    expect(paid.payments.find((p) => p.id === payment.id)).toMatchObject({ status: "paid", providerPaymentId: session.payment_intent });
    expect(paid.org.stripeCustomerId).toBe(session.customer);
    const { eq, and } = app.drizzle;
    const db = await app.getDb();
    const [row] = await db
      .select()
      .from(app.schema.creditLedger)
      .where(and(eq(app.schema.creditLedger.organizationId, owner.organizationId), eq(app.schema.creditLedger.kind, "purchase")));
    expect(row).toMatchObject({ amount: 1150, reference: payment.id, balanceAfter: before.org.creditBalance + 1150 });

    // Stripe retries deliveries: the same event, signed again, is acknowledged and changes nothing.
    const replay = await deliver(payload, sign(payload));
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, outcome: "duplicate" });
    const after = await orgState(owner.organizationId);
    expect(after.org.creditBalance).toBe(paid.org.creditBalance);
    expect(after.ledgerRows).toBe(paid.ledgerRows);

    // The customer portal works once the organization is a Stripe customer.
    const portal = await app.call(routes.portal, "POST", "/api/billing/portal", { sessionId: owner.sessionId });
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.test\//);
  });

  it("refuses forged, altered, unsigned and stale deliveries with 400, and nothing changes", async () => {
    const owner = await app.registerTestUser();
    const res = await app.call(routes.purchase, "POST", "/api/billing/purchase-credits", { sessionId: owner.sessionId, body: { credits: 550 } });
    const before = await orgState(owner.organizationId);
    const payment = before.payments.find((p) => p.id === res.body.paymentId)!;
    const session = fake.complete(payment.providerSessionId!);
    const payload = event("checkout.session.completed", session);

    const forged = await deliver(payload, sign(payload, { secret: "whsec_attacker" }));
    expect(forged.status).toBe(400);
    expect(forged.body.message).toMatch(/signature/i);

    const altered = payload.replace('"amount_total":1500', '"amount_total":1');
    expect(altered).not.toBe(payload);
    expect((await deliver(altered, sign(payload))).status).toBe(400);

    expect((await deliver(payload, null)).status).toBe(400);

    const stale = await deliver(payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 }));
    expect(stale.status).toBe(400);
    expect(stale.body.message).toMatch(/tolerance/i);

    const after = await orgState(owner.organizationId);
    expect(after.org.creditBalance).toBe(before.org.creditBalance);
    expect(after.ledgerRows).toBe(before.ledgerRows);
    expect(after.payments.find((p) => p.id === payment.id)?.status).toBe("pending");
  });

  it("settles on the return from Checkout when the webhook has not arrived yet", async () => {
    const owner = await app.registerTestUser();
    const res = await app.call(routes.purchase, "POST", "/api/billing/purchase-credits", { sessionId: owner.sessionId, body: { credits: 3000 } });
    const before = await orgState(owner.organizationId);
    const payment = before.payments.find((p) => p.id === res.body.paymentId)!;

    const early = await app.call(routes.checkoutReturn, "GET", `/api/billing/checkout/return?session_id=${payment.providerSessionId}`);
    expect(early.status).toBe(303);
    expect(early.headers.get("location")).toContain("/billing?checkout=pending");

    const session = fake.complete(payment.providerSessionId!);
    const back = await app.call(routes.checkoutReturn, "GET", `/api/billing/checkout/return?session_id=${session.id}`);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toMatch(/\/billing\?checkout=success&kind=credit_pack&credits=3000$/);
    const after = await orgState(owner.organizationId);
    expect(after.org.creditBalance).toBe(before.org.creditBalance + 3000);

    // The webhook that follows finds the payment paid and credits nothing more.
    const payload = event("checkout.session.completed", session);
    expect((await deliver(payload, sign(payload))).body.outcome).toBe("duplicate");
    expect((await orgState(owner.organizationId)).org.creditBalance).toBe(after.org.creditBalance);
  });
});

describe("subscriptions through Stripe", () => {
  it("activates on checkout, renews on invoice.paid once, replaces on a plan change, and ends on deletion", async () => {
    const owner = await app.registerTestUser();
    const start = await orgState(owner.organizationId);
    expect(start.org).toMatchObject({ subscriptionTier: "free", subscriptionStatus: "active" });

    const res = await app.call(routes.upgrade, "POST", "/api/billing/upgrade-plan", { sessionId: owner.sessionId, body: { planId: "pro" } });
    expect(res.status).toBe(200);
    expect(res.body.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    expect((await orgState(owner.organizationId)).org.subscriptionTier).toBe("free");
    const created = fake.requests.find((r) => r.path === "/v1/checkout/sessions")!;
    expect(created.form).toMatchObject({ mode: "subscription", "line_items[0][price_data][recurring][interval]": "month", "metadata[planId]": "pro" });

    const payment = (await orgState(owner.organizationId)).payments.find((p) => p.id === res.body.paymentId)!;
    const session = fake.complete(payment.providerSessionId!);
    const completed = event("checkout.session.completed", session);
    expect((await deliver(completed, sign(completed))).body.outcome).toBe("fulfilled");
    const active = await orgState(owner.organizationId);
    expect(active.org).toMatchObject({
      subscriptionTier: "pro",
      subscriptionStatus: "active",
      stripeCustomerId: session.customer,
      stripeSubscriptionId: session.subscription,
    });
    expect(active.org.creditBalance).toBe(start.org.creditBalance + 1000);
    expect(active.org.currentPeriodEnd.getTime() - active.org.currentPeriodStart.getTime()).toBeGreaterThan(27 * 24 * 3600_000);

    // The first invoice belongs to the checkout: nothing more.
    const firstInvoice = event("invoice.paid", {
      id: "in_first_" + Date.now(),
      object: "invoice",
      billing_reason: "subscription_create",
      amount_paid: 4900,
      currency: "usd",
      parent: { type: "subscription_details", subscription_details: { subscription: session.subscription } },
    });
    expect((await deliver(firstInvoice, sign(firstInvoice))).body.outcome).toBe("ignored");

    const periodStart = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
    const invoiceId = `in_renew_${Date.now()}`;
    const renewal = event("invoice.paid", {
      id: invoiceId,
      object: "invoice",
      number: "STRIPE-0002",
      billing_reason: "subscription_cycle",
      amount_paid: 4900,
      currency: "usd",
      customer: session.customer,
      parent: { type: "subscription_details", subscription_details: { subscription: session.subscription } },
      lines: { object: "list", data: [{ period: { start: periodStart, end: periodStart + 31 * 24 * 3600 } }] },
    });
    expect((await deliver(renewal, sign(renewal))).body.outcome).toBe("fulfilled");
    const renewed = await orgState(owner.organizationId);
    expect(renewed.org.creditBalance).toBe(active.org.creditBalance + 1000);
    expect(renewed.org.currentPeriodStart.getTime()).toBe(periodStart * 1000);
    expect(renewed.payments.find((p) => p.id === invoiceId)).toMatchObject({ status: "paid", amountCents: 4900, invoiceNumber: "STRIPE-0002" });
    const history = await app.call(routes.transactions, "GET", "/api/billing/transactions", { sessionId: owner.sessionId });
    expect(history.body.items[0]).toMatchObject({ id: invoiceId, type: "Subscription", amount: 1000, amountCents: 4900, invoiceAvailable: true });
    expect((await deliver(renewal, sign(renewal))).body.outcome).toBe("duplicate");
    expect((await orgState(owner.organizationId)).org.creditBalance).toBe(renewed.org.creditBalance);
    expect((await orgState(owner.organizationId)).ledgerRows).toBe(renewed.ledgerRows);

    // Pro → Enterprise: the same subscription, updated with Stripe's proration, invoiced at once.
    const up = await app.call(routes.upgrade, "POST", "/api/billing/upgrade-plan", { sessionId: owner.sessionId, body: { planId: "enterprise" } });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ success: true, plan: "enterprise", prorated: true });
    const update = fake.requests.find((r) => r.method === "POST" && r.path === `/v1/subscriptions/${session.subscription}`)!;
    expect(update.form).toMatchObject({ proration_behavior: "always_invoice", "items[0][price_data][unit_amount]": "19900" });
    const stripeInvoice = fake.subscriptions.get(session.subscription!)!.invoices[0];
    expect(up.body.amountCents).toBe(stripeInvoice.amount);
    expect(stripeInvoice.amount).toBeGreaterThan(14_000);
    expect(stripeInvoice.amount).toBeLessThanOrEqual(15_000);
    const upgraded = await orgState(owner.organizationId);
    expect(upgraded.org).toMatchObject({ subscriptionTier: "enterprise", stripeSubscriptionId: session.subscription });
    expect(upgraded.payments.find((p) => p.id === stripeInvoice.id)).toMatchObject({ status: "paid", amountCents: stripeInvoice.amount });
    expect(fake.cancelledSubscriptions).not.toContain(session.subscription);

    // Deleting another subscription does not affect the organization; deleting its own does.
    const oldDeleted = event("customer.subscription.deleted", { id: "sub_someone_else", object: "subscription" });
    expect((await deliver(oldDeleted, sign(oldDeleted))).body.outcome).toBe("ignored");
    const deleted = event("customer.subscription.deleted", { id: session.subscription, object: "subscription", customer: session.customer });
    expect((await deliver(deleted, sign(deleted))).body.outcome).toBe("fulfilled");
    expect((await orgState(owner.organizationId)).org).toMatchObject({ subscriptionTier: "free", subscriptionStatus: "active", stripeSubscriptionId: null });
  });

  it("a downgrade to Free ends the Stripe subscription at the period's end, with no charge; choosing Pro again keeps it", async () => {
    const owner = await app.registerTestUser();
    const res = await app.call(routes.upgrade, "POST", "/api/billing/upgrade-plan", { sessionId: owner.sessionId, body: { planId: "pro" } });
    const payment = (await orgState(owner.organizationId)).payments.find((p) => p.id === res.body.paymentId)!;
    const session = fake.complete(payment.providerSessionId!);
    const completed = event("checkout.session.completed", session);
    await deliver(completed, sign(completed));

    const down = await app.call(routes.upgrade, "POST", "/api/billing/upgrade-plan", { sessionId: owner.sessionId, body: { planId: "free" } });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ success: true, plan: "pro", scheduledPlan: "free" });
    expect(fake.requests.some((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${session.subscription}`)).toBe(false);
    expect(fake.subscriptions.get(session.subscription!)!.cancelAtPeriodEnd).toBe(true);
    expect((await orgState(owner.organizationId)).org).toMatchObject({ subscriptionTier: "pro", scheduledTier: "free", stripeSubscriptionId: session.subscription });

    const keep = await app.call(routes.upgrade, "POST", "/api/billing/upgrade-plan", { sessionId: owner.sessionId, body: { planId: "pro" } });
    expect(keep.body).toMatchObject({ plan: "pro", scheduledPlan: null });
    expect(fake.subscriptions.get(session.subscription!)!.cancelAtPeriodEnd).toBe(false);
  });
});
