import "server-only";
import { usagePercent as computeUsagePercent } from "./usage";
import crypto from "node:crypto";
import { and, eq, gte, sql, sum } from "drizzle-orm";
import type { Db } from "@/db/client";
import { creditLedger, organizations, payments, rateLimitHits } from "@/db/schema";
import type { RequestContext } from "@/lib/identity/http/route";
import { badRequest, conflict, HttpError, notFound } from "@/lib/platform/http/errors";
import { releaseHits, reserveHits } from "@/lib/platform/http/rate-limit";
import { env } from "@/lib/platform/env";
import { PaymentsError, type CheckoutRequest, type PaymentsProvider } from "@/lib/platform/providers/payments/interface";
import { getPaymentsProvider, getStripeProvider } from "@/lib/workspace/provider-selection/payments";
import { encodeCursor } from "@/lib/platform/http/pagination";
import { renewFreePeriodIfDue } from "./free-renewal";
import { fulfilPayment, newInvoiceNumber, type PaymentRow } from "./fulfilment";
import { creditPacks, effectiveTier, findPackByTotal, getPlan, packTotal, plans, type PlanId } from "./plans";
import { categoryLabels, creditCategories, creditMeaning } from "./prices";
import { applyScheduledPlanIfDue, changePaidPlan, isUpgrade } from "./plan-change";
import type { TransactionsQuery } from "./schema";
import { errorForLog } from "@/lib/platform/database-errors";
import { getCreditsUsed } from "@/lib/workspace/billing/credits-used";

type Organization = typeof organizations.$inferSelect;

/** GET /api/subscription-plans */
export function listPlans() {
  return plans.map(({ id, name, price, creditsIncluded, features, limits }) => ({ id, name, price, creditsIncluded, features, limits }));
}

async function loadOrganization(db: Db, organizationId: string): Promise<Organization> {
  const [org] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw notFound("Organization");
  return org;
}

function addMonths(date: Date, months: number): Date {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

/**
 * The period "used this period" is measured in. Paid plans move it on payment and renewal; Free has
 * no renewal event, so its monthly window is rolled forward from the stored one.
 */
function currentPeriod(org: Organization, now = new Date()) {
  let start = new Date(org.currentPeriodStart);
  let end = new Date(org.currentPeriodEnd);
  if (org.subscriptionTier === "free") {
    for (let i = 0; end <= now && i < 1200; i++) {
      start = end;
      end = addMonths(end, 1);
    }
  }
  return { start, end };
}

/** Whether an organization pays in real money (Stripe), in test mode (simulated), or cannot pay at all. */
async function providerName(db: Db, organizationId: string) {
  return (await getPaymentsProvider(db, organizationId))?.name ?? "none";
}

export const PAYMENTS_NOT_CONFIGURED =
  "Payments are not set up on this Switchboard server yet, so plans and credit packs cannot be bought. Please contact your administrator.";

/** The payments provider, or 503 when this deployment has none (no Stripe key, test mode off). */
async function requirePaymentsProvider(db: Db, organizationId: string): Promise<PaymentsProvider> {
  const provider = await getPaymentsProvider(db, organizationId);
  if (!provider) throw new HttpError(503, PAYMENTS_NOT_CONFIGURED);
  return provider;
}

/** GET /api/billing/overview: every figure is computed from the organization and its ledger. */
export async function getBillingOverview(db: Db, organizationId: string) {
  await applyScheduledPlanIfDue(db, organizationId);
  await renewFreePeriodIfDue(db, organizationId);
  const org = await loadOrganization(db, organizationId);
  const plan = getPlan(org.subscriptionTier);
  const effective = getPlan(effectiveTier(org));
  const period = currentPeriod(org);
  // lib/reports/figures' one definition of "credits used": spent this period, less what was given back.
  const { used, creditedBack } = await getCreditsUsed(db, organizationId, period.start, null);
  // The spending split by what spent it; a "Given back" row makes the split add up to the figure.
  const byCategory = await db
    .select({ category: creditLedger.category, used: sum(creditLedger.units) })
    .from(creditLedger)
    .where(and(eq(creditLedger.organizationId, organizationId), eq(creditLedger.kind, "usage"), gte(creditLedger.createdAt, period.start)))
    .groupBy(creditLedger.category);
  const usageByKind: { kind: string; label: string; credits: number }[] = creditCategories.map((category) => ({
    kind: category,
    label: categoryLabels[category],
    credits: Number(byCategory.find((r) => r.category === category)?.used ?? 0),
  }));
  const uncategorized = Number(byCategory.find((r) => r.category === null)?.used ?? 0);
  if (uncategorized > 0) usageByKind.push({ kind: "other", label: "Other", credits: uncategorized });
  if (creditedBack > 0) usageByKind.push({ kind: "credited_back", label: "Given back (failed, short or spam)", credits: -creditedBack });
  const balance = org.creditBalance;
  // The ledger spends an active Enterprise's credits without lowering the balance (lib/workspace/billing/ledger.ts).
  const unlimited = org.subscriptionTier === "enterprise" && org.subscriptionStatus === "active";
  // Against the plan's allowance for the period (lib/workspace/billing/usage.ts): a purchase does not reset it.
  const usagePercent = computeUsagePercent({ used, allowance: effective.creditsIncluded, unlimited });
  const paid = plan.price > 0;
  const payments = await providerName(db, organizationId);
  return {
    plan: { id: plan.id, name: plan.name, price: plan.price },
    status: org.subscriptionStatus,
    /** A downgrade chosen this period: it applies at renewal (periodEnd), with no charge. */
    scheduledPlan: org.scheduledTier ? { id: org.scheduledTier, name: getPlan(org.scheduledTier).name } : null,
    /** The plan whose limits apply now: Free until a paid plan is paid for. */
    effectivePlan: { id: effective.id, name: effective.name, limits: effective.limits },
    paymentNeeded: paid && org.subscriptionStatus !== "active",
    testMode: payments === "simulated",
    /** False: no Stripe key and test payments off — nothing can be bought (the screen says so). */
    paymentsConfigured: payments !== "none",
    canManageInStripe: Boolean(org.stripeCustomerId),
    renewalDate: paid && org.subscriptionStatus === "active" ? period.end.toISOString() : null,
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
    balance,
    usedThisPeriod: used,
    includedThisPeriod: plan.creditsIncluded,
    usagePercent,
    /** Credits used this period by kind: they add up to usedThisPeriod. */
    usageByKind,
    /** What a credit buys, in words (Signup and Billing). */
    creditMeaning: creditMeaning(),
    unlimited,
    packs: creditPacks.map((p) => ({ ...p, total: packTotal(p) })),
  };
}
export type BillingOverview = Awaited<ReturnType<typeof getBillingOverview>>;

const ledgerTypes: Record<string, string> = {
  grant: "Credit grant",
  purchase: "Credit purchase",
  usage: "Usage",
  adjustment: "Adjustment",
  refund: "Refund",
};
const paymentTypes: Record<string, string> = { credit_pack: "Credit purchase", subscription: "Subscription" };

export type BillingTransaction = {
  id: string;
  date: string;
  type: string;
  description: string;
  /** Credits added (positive) or used (negative). */
  amount: number;
  /** Money paid, in cents, when the row is a payment. */
  amountCents: number | null;
  currency: string | null;
  status: string;
  paymentId: string | null;
  invoiceAvailable: boolean;
};

type TransactionRow = {
  id: string;
  source: "ledger" | "payment";
  kind: string;
  date: Date | string;
  t_us: string;
  description: string;
  amount: number;
  units: number;
  amount_cents: number | null;
  currency: string | null;
  status: string;
};

/**
 * GET /api/billing/transactions: Billing History, newest first, keyset-paged. One list from two
 * sources: payments (packs and plan periods; failed and refunded ones too, not pending checkouts) and
 * the ledger rows no payment accounts for (welcome credits, usage, adjustments, renewal grants).
 */
export async function listTransactions(db: Db, organizationId: string, query: TransactionsQuery) {
  const cursor = query.cursor ?? null;
  const after = cursor ? sql`where (t.t_us, t.id) < (${cursor.t}::bigint, ${cursor.id})` : sql``;
  const result = await db.execute(sql`
    select * from (
      select l.id, 'ledger' as source, l.kind, l.created_at as date,
             floor(extract(epoch from l.created_at) * 1000000)::bigint as t_us,
             l.reason as description, l.amount, l.units, null::integer as amount_cents, null::text as currency,
             'completed' as status
        from ${creditLedger} l
        left join ${payments} p on p.id = l.reference and p.organization_id = l.organization_id
       where l.organization_id = ${organizationId} and p.id is null
      union all
      select p.id, 'payment' as source, p.kind, coalesce(p.paid_at, p.created_at) as date,
             floor(extract(epoch from coalesce(p.paid_at, p.created_at)) * 1000000)::bigint as t_us,
             p.description, case when p.status in ('paid', 'refunded') then p.credits else 0 end as amount, 0 as units,
             p.amount_cents, p.currency, p.status
        from ${payments} p
       where p.organization_id = ${organizationId} and p.status <> 'pending'
    ) t
    ${after}
    order by t.t_us desc, t.id desc
    limit ${query.limit + 1}
  `);
  const rows = (result as unknown as { rows: TransactionRow[] }).rows;
  const page = rows.slice(0, query.limit);
  const items: BillingTransaction[] = page.map((r) => ({
    id: r.id,
    date: new Date(r.date).toISOString(),
    type: r.source === "payment" ? (paymentTypes[r.kind] ?? "Payment") : (ledgerTypes[r.kind] ?? r.kind),
    description: r.description,
    amount: r.source === "ledger" && r.kind === "usage" && Number(r.amount) === 0 ? -Number(r.units) : Number(r.amount),
    amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
    currency: r.currency,
    status: r.status,
    paymentId: r.source === "payment" ? r.id : null,
    invoiceAvailable: r.source === "payment" && (r.status === "paid" || r.status === "refunded"),
  }));
  const last = page[page.length - 1];
  const nextCursor = rows.length > query.limit && last ? encodeCursor({ t: String(last.t_us), id: last.id }) : null;
  return { items, nextCursor };
}

function appUrl(path: string) {
  return `${env.PUBLIC_URL.replace(/\/+$/, "")}${path}`;
}

async function createPayment(
  db: Db,
  ctx: RequestContext,
  provider: PaymentsProvider,
  input: { kind: "credit_pack" | "subscription"; amountCents: number; credits: number; planId: PlanId | null; description: string },
): Promise<PaymentRow> {
  const [row] = await db
    .insert(payments)
    .values({
      id: `pay_${crypto.randomUUID().replaceAll("-", "")}`,
      organizationId: ctx.organizationId,
      provider: provider.name,
      kind: input.kind,
      amountCents: input.amountCents,
      currency: "usd",
      credits: input.credits,
      planId: input.planId,
      description: input.description,
      invoiceNumber: newInvoiceNumber(),
      createdBy: ctx.userId,
    })
    .returning();
  return row;
}

/** Runs the checkout; a provider failure marks the payment failed and answers 502 with its message. */
async function checkout(db: Db, provider: PaymentsProvider, org: Organization, ctx: RequestContext, payment: PaymentRow) {
  const request: CheckoutRequest = {
    payment: {
      id: payment.id,
      kind: payment.kind,
      amountCents: payment.amountCents,
      currency: payment.currency,
      description: payment.description,
      credits: payment.credits,
      planId: (payment.planId as PlanId | null) ?? null,
    },
    organization: { id: org.id, name: org.name, stripeCustomerId: org.stripeCustomerId },
    customerEmail: ctx.user.email,
    successUrl: `${appUrl("/api/billing/checkout/return")}?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: appUrl("/billing?checkout=cancelled"),
  };
  try {
    const result = await provider.startCheckout(request);
    if (result.status === "redirect") {
      await db.update(payments).set({ providerSessionId: result.sessionId }).where(eq(payments.id, payment.id));
    }
    return result;
  } catch (error) {
    await db.update(payments).set({ status: "failed" }).where(and(eq(payments.id, payment.id), eq(payments.status, "pending")));
    if (error instanceof PaymentsError) throw new HttpError(502, error.message);
    throw error;
  }
}

/** POST /api/billing/purchase-credits: a pack's credits + bonus, paid through the provider. */
export async function purchaseCredits(db: Db, ctx: RequestContext, credits: number) {
  const pack = findPackByTotal(credits);
  if (!pack) throw badRequest("Choose a credit pack", { credits: "Choose a credit pack" });
  const org = await loadOrganization(db, ctx.organizationId);
  const provider = await requirePaymentsProvider(db, ctx.organizationId);
  const total = packTotal(pack);
  const payment = await createPayment(db, ctx, provider, {
    kind: "credit_pack",
    amountCents: pack.price * 100,
    credits: total,
    planId: null,
    description: `Credit pack: ${pack.credits.toLocaleString("en-US")} credits + ${pack.bonus.toLocaleString("en-US")} bonus`,
  });
  const result = await checkout(db, provider, org, ctx, payment);
  if (result.status === "redirect") return { checkoutUrl: result.url, paymentId: payment.id };
  const after = await loadOrganization(db, ctx.organizationId);
  return { success: true, credits: total, balance: after.creditBalance, paymentId: payment.id, testMode: true };
}

/**
 * POST /api/billing/upgrade-plan. From Free (or to pay for the plan a signup is trialing) a paid plan
 * runs a subscription checkout: Stripe answers {checkoutUrl}; test mode settles at once. Paying for the
 * plan a signup is trialing adds no credits (the welcome credits are that period's). Between plans
 * while one is paid (lib/workspace/billing/plan-change.ts): an upgrade is prorated and applies at once, a
 * downgrade (Free included) applies at renewal with no charge, the current plan again cancels it.
 */
export async function changePlan(db: Db, ctx: RequestContext, planId: PlanId) {
  // One plan change per organization at a time: the claim is taken atomically (reserveHits), so ten
  // simultaneous upgrades make one change and grant its credits once; the others answer 409.
  const claim = await reserveHits(db, rateLimitHits, [{ key: `plan-change:${ctx.organizationId}`, limit: 1 }], PLAN_CHANGE_CLAIM_MS);
  if ("blocked" in claim) {
    throw conflict("A plan change for your business is already under way. Please wait a moment and reload.", {
      planId: "A plan change is already under way",
    });
  }
  try {
    return await changePlanClaimed(db, ctx, planId);
  } finally {
    await releaseHits(db, claim.reservation);
  }
}

/** How long a plan-change claim holds when its process dies mid-way (it is released as soon as the change ends). */
const PLAN_CHANGE_CLAIM_MS = 2 * 60 * 1000;

async function changePlanClaimed(db: Db, ctx: RequestContext, planId: PlanId) {
  await applyScheduledPlanIfDue(db, ctx.organizationId);
  const org = await loadOrganization(db, ctx.organizationId);
  const plan = getPlan(planId);
  const paidAndActive = org.subscriptionTier !== "free" && org.subscriptionStatus === "active";
  if (planId === "free" && org.subscriptionTier === "free") {
    throw badRequest("You are already on the Free plan", { planId: "You are already on the Free plan" });
  }
  if (org.subscriptionTier === planId && org.subscriptionStatus === "active" && !org.scheduledTier) {
    throw badRequest(`You are already on the ${plan.name} plan`, { planId: `You are already on the ${plan.name} plan` });
  }
  if (paidAndActive) return changePlanDuringPeriod(db, ctx, org, planId);
  if (planId === "free") {
    // Nothing was paid for this period (a trial, a lapsed plan): Free applies at once.
    await db
      .update(organizations)
      .set({ subscriptionTier: "free", subscriptionStatus: "active", scheduledTier: null, updatedAt: new Date() })
      .where(eq(organizations.id, ctx.organizationId));
    return { success: true, plan: "free" as PlanId, status: "active" };
  }
  const completingTrial = org.subscriptionTier === planId && org.subscriptionStatus !== "active";
  const provider = await requirePaymentsProvider(db, ctx.organizationId);
  const payment = await createPayment(db, ctx, provider, {
    kind: "subscription",
    amountCents: plan.price * 100,
    credits: completingTrial ? 0 : Math.max(plan.creditsIncluded, 0),
    planId,
    description: `${plan.name} plan: 1 month`,
  });
  const result = await checkout(db, provider, org, ctx, payment);
  if (result.status === "redirect") return { checkoutUrl: result.url, paymentId: payment.id };
  const after = await loadOrganization(db, ctx.organizationId);
  return { success: true, plan: after.subscriptionTier, status: after.subscriptionStatus, paymentId: payment.id, testMode: true };
}

/** Upgrade (prorated, now), downgrade (at renewal, free of charge) or cancelling a scheduled downgrade. */
async function changePlanDuringPeriod(db: Db, ctx: RequestContext, org: Organization, planId: PlanId) {
  const stripe = org.stripeSubscriptionId ? await getStripeProvider(db, ctx.organizationId) : null;
  // A downgrade or a cancelled one needs no payment provider; an upgrade does.
  const provider = stripe ?? (isUpgrade(org.subscriptionTier, planId) ? await requirePaymentsProvider(db, ctx.organizationId) : null);
  const subscriptionId = org.stripeSubscriptionId;
  const viaStripe = Boolean(stripe && subscriptionId);
  const priceCents = (id: PlanId) => getPlan(id).price * 100;
  try {
    const outcome = await changePaidPlan(
      db,
      { organizationId: ctx.organizationId, userId: ctx.userId, planId, provider: viaStripe ? "stripe" : "simulated" },
      viaStripe
        ? {
            charge: async (_org, computed) => {
              const charged = await stripe!.changeSubscriptionPrice!({ subscriptionId: subscriptionId!, amountCents: priceCents(planId), currency: "usd", prorate: true, prorationDate: new Date() });
              return { amountCents: charged.invoiceId ? charged.amountCents : computed, invoiceId: charged.invoiceId };
            },
            schedule: async (current, to) => {
              if (to === "free") await stripe!.setCancelAtPeriodEnd!(subscriptionId!, true);
              else await stripe!.changeSubscriptionPrice!({ subscriptionId: subscriptionId!, amountCents: priceCents(to), currency: "usd", prorate: false, prorationDate: new Date() });
              void current;
            },
            unschedule: async (current) => {
              if (current.scheduledTier === "free") await stripe!.setCancelAtPeriodEnd!(subscriptionId!, false);
              else if (current.scheduledTier) await stripe!.changeSubscriptionPrice!({ subscriptionId: subscriptionId!, amountCents: priceCents(current.subscriptionTier), currency: "usd", prorate: false, prorationDate: new Date() });
            },
          }
        : {},
    );
    const testMode = provider?.name === "simulated" || (!viaStripe && outcome.kind === "upgraded");
    if (outcome.kind === "upgraded") {
      return { success: true, plan: outcome.plan, status: "active", paymentId: outcome.paymentId, amountCents: outcome.amountCents, prorated: true, ...(testMode ? { testMode: true } : {}) };
    }
    if (outcome.kind === "scheduled") {
      return { success: true, plan: outcome.plan, status: "active", scheduledPlan: outcome.scheduledPlan, effectiveAt: outcome.effectiveAt };
    }
    return { success: true, plan: outcome.plan, status: "active", scheduledPlan: null };
  } catch (error) {
    if (error instanceof PaymentsError) throw new HttpError(502, error.message);
    throw error;
  }
}

/** POST /api/billing/portal: Stripe's customer portal; 400 in test mode or before any Stripe payment. */
export async function openCustomerPortal(db: Db, organizationId: string) {
  const provider = await getPaymentsProvider(db, organizationId);
  if (provider?.name !== "stripe") throw badRequest("Available with Stripe");
  const org = await loadOrganization(db, organizationId);
  if (!org.stripeCustomerId) throw badRequest("There is no Stripe customer yet: buy a credit pack or subscribe first.");
  try {
    return await provider.createPortalSession({ customerId: org.stripeCustomerId, returnUrl: appUrl("/billing") });
  } catch (error) {
    if (error instanceof PaymentsError) throw new HttpError(502, error.message);
    throw error;
  }
}

/**
 * GET /api/billing/checkout/return?session_id=: the payer is back from Stripe Checkout. Asks Stripe
 * for the session (the query string is not trusted) and settles it through the same fulfilment as
 * the webhook, so a slow or missing webhook does not keep the payer waiting. Returns where to go.
 */
export async function confirmCheckoutReturn(db: Db, sessionId: string | null): Promise<string> {
  if (!sessionId || sessionId.length > 255) return "/billing?checkout=unknown";
  const [payment] = await db.select().from(payments).where(eq(payments.providerSessionId, sessionId));
  if (!payment) return "/billing?checkout=unknown";
  const done = (status: string) => {
    const q = new URLSearchParams({ checkout: status, kind: payment.kind });
    if (payment.kind === "credit_pack") q.set("credits", String(payment.credits));
    if (payment.planId) q.set("plan", payment.planId);
    return `/billing?${q.toString()}`;
  };
  if (payment.status === "paid") return done("success");
  const stripe = await getStripeProvider(db, payment.organizationId);
  if (!stripe) return done("pending");
  try {
    const session = await stripe.retrieveCheckoutSession(sessionId);
    if (session.status !== "complete") return done("pending");
    const result = await fulfilPayment(db, { id: `return_${session.id}`, type: "checkout.session.completed", data: { object: session } });
    if (result.replacedSubscriptionId) await stripe.cancelSubscription(result.replacedSubscriptionId).catch(() => undefined);
    const [after] = await db.select({ status: payments.status }).from(payments).where(eq(payments.id, payment.id));
    return done(after?.status === "paid" ? "success" : "pending");
  } catch (error) {
    console.error("checkout return: could not confirm the session:", errorForLog(error));
    return done("pending");
  }
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function money(cents: number, currency: string) {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);
}

/** GET /api/billing/invoices/{paymentId}: a printable HTML invoice for one of the organization's paid payments. */
export async function renderInvoice(db: Db, organizationId: string, paymentId: string): Promise<string> {
  const [row] = await db
    .select({ payment: payments, organizationName: organizations.name })
    .from(payments)
    .innerJoin(organizations, eq(organizations.id, payments.organizationId))
    .where(and(eq(payments.id, paymentId), eq(payments.organizationId, organizationId)));
  if (!row || (row.payment.status !== "paid" && row.payment.status !== "refunded")) throw notFound("Invoice");
  const p = row.payment;
  const date = (p.paidAt ?? p.createdAt).toISOString().slice(0, 10);
  const amount = money(p.amountCents, p.currency);
  const status = p.status === "paid" ? "Paid" : "Refunded";
  const credits = p.credits > 0 ? `${p.credits.toLocaleString("en-US")} credits` : "—";
  const mode = p.provider === "simulated" ? `<p class="note">Test mode: no money was charged for this payment.</p>` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invoice ${escapeHtml(p.invoiceNumber)} · Switchboard</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #111; background: #fff; margin: 0; padding: 40px; }
  main { max-width: 720px; margin: 0 auto; }
  header { display: flex; justify-content: space-between; align-items: flex-start; gap: 24px; margin-bottom: 32px; }
  h1 { font-size: 28px; margin: 0 0 4px; }
  .muted { color: #555; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; margin: 0 0 32px; }
  dt { color: #555; }
  dd { margin: 0; }
  table { width: 100%; border-collapse: collapse; margin-bottom: 24px; }
  th, td { text-align: left; padding: 10px 8px; border-bottom: 1px solid #ddd; }
  th:last-child, td:last-child { text-align: right; }
  tfoot td { font-weight: 600; border-bottom: none; }
  .status { display: inline-block; padding: 2px 10px; border-radius: 999px; background: #e6f4ea; color: #1e7b34; font-weight: 600; }
  .note { color: #8a5a00; }
  button { font: inherit; padding: 8px 16px; border-radius: 8px; border: 1px solid #bbb; background: #f5f5f5; cursor: pointer; }
  @media print { .no-print { display: none; } body { padding: 0; } }
</style>
</head>
<body>
<main>
  <header>
    <div>
      <h1>Invoice</h1>
      <div class="muted">Switchboard · AI phone desk</div>
    </div>
    <button class="no-print" type="button" onclick="window.print()">Print</button>
  </header>
  <dl>
    <dt>Invoice number</dt><dd data-field="invoice-number">${escapeHtml(p.invoiceNumber)}</dd>
    <dt>Date</dt><dd data-field="date">${date}</dd>
    <dt>Billed to</dt><dd data-field="organization">${escapeHtml(row.organizationName)}</dd>
    <dt>Payment</dt><dd>${escapeHtml(p.id)}</dd>
    <dt>Status</dt><dd><span class="status" data-field="status">${status}</span></dd>
  </dl>
  <table>
    <thead><tr><th>Description</th><th>Credits</th><th>Amount</th></tr></thead>
    <tbody><tr><td data-field="line-item">${escapeHtml(p.description)}</td><td>${credits}</td><td>${amount}</td></tr></tbody>
    <tfoot><tr><td colspan="2">Total</td><td data-field="amount">${amount}</td></tr></tfoot>
  </table>
  ${mode}
  <p class="muted">Credits never expire. Questions: support@switchboard.dev</p>
</main>
</body>
</html>`;
}
