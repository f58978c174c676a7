/**
 * A local fake of Stripe's API (the parts Switchboard uses) for adapter tests: plain HTTP on
 * 127.0.0.1 with a random port, speaking Stripe's wire format — Bearer auth with the secret key,
 * form-encoded POST bodies with bracket-encoded nested parameters (`line_items[0][price_data][currency]`),
 * JSON objects with `object` fields, errors as {error: {type, code, message}}. It keeps Checkout
 * Sessions, so a test can "pay" one and build the webhook event Stripe would send. See
 * ../shared/notes/provider-sdk-fakes.md §5. Point the SDK at it with
 * `new Stripe(key, {host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0})`.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeStripeRequest = {
  method: string;
  path: string;
  /** The form body exactly as sent, flat: {"line_items[0][price_data][currency]": "usd", …}. */
  form: Record<string, string>;
  rawBody: string;
  headers: http.IncomingHttpHeaders;
};

export type FakeCheckoutSession = {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid" | "no_payment_required";
  url: string;
  amount_total: number;
  currency: string;
  customer: string | null;
  customer_email: string | null;
  subscription: string | null;
  payment_intent: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
};

export type FakeSubscription = {
  id: string;
  itemId: string;
  product: string;
  unitAmount: number;
  currency: string;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  invoices: { id: string; amount: number }[];
};

export type FakeStripe = {
  url: string;
  port: number;
  requests: FakeStripeRequest[];
  sessions: Map<string, FakeCheckoutSession>;
  cancelledSubscriptions: string[];
  /** Subscriptions made by paid subscription checkouts: their price, period and cancel-at-period-end flag. */
  subscriptions: Map<string, FakeSubscription>;
  /** Pays a session as Stripe Checkout would; a subscription gets a customer and a subscription id. */
  complete(sessionId: string): FakeCheckoutSession;
  /** Makes the next request whose path ends with `pathSuffix` answer this error (once). */
  failNext(pathSuffix: string, status: number, code: string, message: string): void;
  close(): Promise<void>;
};

/** `a[b][0][c]=x` → {a: {b: [{c: "x"}]}}: how Stripe reads the bracket encoding. */
export function parseStripeForm(flat: Record<string, string>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]);
      const slot = node as Record<string, unknown>;
      if (last) slot[part] = value;
      else {
        slot[part] ??= nextIsIndex ? [] : {};
        node = slot[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

function id(prefix: string) {
  return `${prefix}_${crypto.randomBytes(12).toString("hex")}`;
}

export async function startFakeStripe(options: { secretKey: string }): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, FakeCheckoutSession>();
  const cancelledSubscriptions: string[] = [];
  const subscriptions = new Map<string, FakeSubscription>();
  const failures: { suffix: string; status: number; code: string; message: string }[] = [];

  function send(res: http.ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
    res.end(JSON.stringify(body));
  }
  function error(res: http.ServerResponse, status: number, code: string, message: string) {
    const type = status === 401 ? "authentication_error" : status >= 500 ? "api_error" : "invalid_request_error";
    send(res, status, { error: { type, code, message } });
  }

  function subscriptionObject(sub: FakeSubscription, latestInvoice: unknown = null) {
    return {
      id: sub.id,
      object: "subscription",
      status: "active",
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      items: {
        object: "list",
        data: [{ id: sub.itemId, object: "subscription_item", current_period_start: sub.periodStart, current_period_end: sub.periodEnd, price: { id: id("price"), object: "price", product: sub.product, unit_amount: sub.unitAmount, currency: sub.currency } }],
      },
      latest_invoice: latestInvoice,
    };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url ?? "/", "http://fake");
      const form = Object.fromEntries(new URLSearchParams(rawBody).entries());
      const method = req.method ?? "GET";
      requests.push({ method, path: url.pathname, form, rawBody, headers: req.headers });

      if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
        return error(res, 401, "invalid_api_key", "Invalid API Key provided");
      }
      const failure = failures.findIndex((f) => url.pathname.endsWith(f.suffix));
      if (failure >= 0) {
        const [f] = failures.splice(failure, 1);
        return error(res, f.status, f.code, f.message);
      }

      if (method === "POST" && url.pathname === "/v1/checkout/sessions") {
        const params = parseStripeForm(form) as {
          mode?: string;
          customer?: string;
          customer_email?: string;
          client_reference_id?: string;
          success_url?: string;
          cancel_url?: string;
          metadata?: Record<string, string>;
          line_items?: { quantity?: string; price_data?: { currency?: string; unit_amount?: string } }[];
        };
        if (!params.mode || !params.success_url || !params.line_items?.length) {
          return error(res, 400, "parameter_missing", "Missing required param: mode, success_url or line_items.");
        }
        const sessionId = id("cs_test");
        const session: FakeCheckoutSession = {
          id: sessionId,
          object: "checkout.session",
          mode: params.mode,
          status: "open",
          payment_status: "unpaid",
          url: `https://checkout.stripe.test/c/pay/${sessionId}`,
          amount_total: params.line_items.reduce(
            (total, item) => total + Number(item.price_data?.unit_amount ?? 0) * Number(item.quantity ?? 1),
            0,
          ),
          currency: params.line_items[0].price_data?.currency ?? "usd",
          customer: params.customer ?? null,
          customer_email: params.customer_email ?? null,
          subscription: null,
          payment_intent: null,
          client_reference_id: params.client_reference_id ?? null,
          metadata: params.metadata ?? {},
          success_url: params.success_url,
          cancel_url: params.cancel_url ?? "",
        };
        sessions.set(sessionId, session);
        return send(res, 200, session);
      }
      const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
      if (method === "GET" && sessionMatch) {
        const session = sessions.get(decodeURIComponent(sessionMatch[1]));
        return session ? send(res, 200, session) : error(res, 404, "resource_missing", `No such checkout.session: '${sessionMatch[1]}'`);
      }
      if (method === "POST" && url.pathname === "/v1/billing_portal/sessions") {
        if (!form.customer) return error(res, 400, "parameter_missing", "Missing required param: customer.");
        const portalId = id("bps");
        return send(res, 200, {
          id: portalId,
          object: "billing_portal.session",
          customer: form.customer,
          return_url: form.return_url ?? null,
          url: `https://billing.stripe.test/p/session/${portalId}`,
        });
      }
      const subscriptionMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
      const known = subscriptionMatch ? subscriptions.get(decodeURIComponent(subscriptionMatch[1])) : undefined;
      if (subscriptionMatch && (method === "GET" || method === "POST") && !known) {
        return error(res, 404, "resource_missing", `No such subscription: '${subscriptionMatch[1]}'`);
      }
      if (method === "GET" && known) return send(res, 200, subscriptionObject(known));
      if (method === "POST" && known) {
        // Stripe's proration: the unused time of the old price credited, the rest of the period at the new price, per second.
        const params = parseStripeForm(form) as {
          items?: { id?: string; price_data?: { unit_amount?: string } }[];
          proration_behavior?: string;
          proration_date?: string;
          cancel_at_period_end?: string;
        };
        if (params.cancel_at_period_end !== undefined) known.cancelAtPeriodEnd = params.cancel_at_period_end === "true";
        let invoice: unknown = null;
        const next = params.items?.[0]?.price_data?.unit_amount;
        if (next !== undefined) {
          if (params.items?.[0]?.id !== known.itemId) return error(res, 400, "resource_missing", "No such subscription item.");
          const old = known.unitAmount;
          known.unitAmount = Number(next);
          if (params.proration_behavior === "always_invoice") {
            const at = Number(params.proration_date ?? Math.floor(Date.now() / 1000));
            const share = Math.max(known.periodEnd - at, 0) / (known.periodEnd - known.periodStart);
            const amount = Math.max(Math.round((known.unitAmount - old) * share), 0);
            const inv = { id: id("in"), amount };
            known.invoices.push(inv);
            invoice = { id: inv.id, object: "invoice", status: "paid", amount_due: amount, amount_paid: amount, billing_reason: "subscription_update" };
          }
        }
        return send(res, 200, subscriptionObject(known, invoice));
      }
      if (method === "DELETE" && subscriptionMatch) {
        cancelledSubscriptions.push(decodeURIComponent(subscriptionMatch[1]));
        return send(res, 200, { id: subscriptionMatch[1], object: "subscription", status: "canceled" });
      }
      return error(res, 404, "resource_missing", `Unrecognized request URL (${method}: ${url.pathname}).`);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    sessions,
    cancelledSubscriptions,
    subscriptions,
    complete(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.status = "complete";
      session.payment_status = "paid";
      session.customer ??= id("cus");
      if (session.mode === "subscription") {
        session.subscription = id("sub");
        const now = Math.floor(Date.now() / 1000);
        subscriptions.set(session.subscription, {
          id: session.subscription,
          itemId: id("si"),
          product: id("prod"),
          unitAmount: session.amount_total,
          currency: session.currency,
          periodStart: now,
          periodEnd: now + 30 * 24 * 3600,
          cancelAtPeriodEnd: false,
          invoices: [],
        });
      }
      else session.payment_intent = id("pi");
      return session;
    },
    failNext(suffix, status, code, message) {
      failures.push({ suffix, status, code, message });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
