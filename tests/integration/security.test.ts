/**
 * What an attacker tried (issue 10 §2), each as a regression test against the real route handlers:
 * cross-site writes, non-JSON bodies, NUL bytes and impossible dates, the password-change guess,
 * registration floods and megabyte names, cookie clearing on https, and the client address.
 */
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { POST as login } from "@/app/api/auth/login/route";
import { GET as me } from "@/app/api/auth/me/route";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as signup } from "@/app/api/auth/signup/route";
import { GET as upgradeGet } from "@/app/api/billing/overview/route";
import { POST as upgradePlan } from "@/app/api/billing/upgrade-plan/route";
import { GET as callHistory } from "@/app/api/call-history/route";
import { GET as callDetail } from "@/app/api/calls/[id]/route";
import { GET as loginNavigation } from "@/app/api/login/route";
import { GET as logoutNavigation } from "@/app/api/logout/route";
import { DELETE as releaseNumber } from "@/app/api/phone-numbers/[id]/route";
import { POST as createNumber } from "@/app/api/phone-numbers/route";
import { PUT as putNotifications } from "@/app/api/settings/notifications/route";
import { POST as changePassword } from "@/app/api/settings/password/route";
import { PATCH as patchProfile } from "@/app/api/settings/profile/route";
import { POST as stripeWebhook } from "@/app/api/stripe/webhook/route";
import { POST as createAssistant } from "@/app/api/voice-assistants/route";
import { organizations, phoneNumbers, users } from "@/db/schema";
import { getAuth } from "@/lib/identity/auth/auth";
import { LOGIN_FAILURE_LIMIT } from "@/lib/identity/auth/login-throttle";
import { closeDb, getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { clientIp } from "@/lib/platform/http/client-ip";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/peer-address";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call, uniqueSuffix } from "../helpers/http";

afterAll(() => closeDb());

const OURS = "http://localhost:3000"; // PUBLIC_URL in tests (tests/setup/env.mjs)

/** Temporarily changes env values (read at call time by the code under test). */
async function withEnv<T>(patch: Partial<typeof env>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(patch).map((k) => [k, env[k as keyof typeof env]]));
  Object.assign(env, patch);
  try {
    return await run();
  } finally {
    Object.assign(env, saved);
  }
}

async function makeNumber(account: TestAccount) {
  const res = await call(createNumber, "POST", "/api/phone-numbers", { sessionId: account.sessionId, body: { friendlyName: "Front line" } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe("cross-site writes (CSRF)", () => {
  const hostile: [string, Record<string, string>][] = [
    ["Origin: http://evil.example", { origin: "http://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site", origin: "http://evil.example" }],
    ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site", origin: "http://attacker.localhost:3000" }],
    ["Sec-Fetch-Site: cross-site with no Origin", { "sec-fetch-site": "cross-site" }],
    ["an Origin that only starts like ours", { origin: "http://localhost:3000.evil.example" }],
  ];

  it.each(hostile)("a cookie-authenticated plan upgrade with %s is 403 and changes nothing", async (_what, headers) => {
    const account = await registerTestUser();
    const res = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { cookie: account.cookie, headers, body: { planId: "pro" } });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/another site/);
    const db = await getDb();
    const [org] = await db.select().from(organizations).where(eq(organizations.id, account.organizationId));
    expect(org.subscriptionTier).toBe("free");
  });

  it.each(hostile)("releasing a number (DELETE), editing the profile (PATCH) and settings (PUT) with %s are 403", async (_what, headers) => {
    const account = await registerTestUser();
    const id = await makeNumber(account);
    const del = await call(releaseNumber, "DELETE", `/api/phone-numbers/${id}`, { cookie: account.cookie, headers, params: { id } });
    expect(del.status).toBe(403);
    const db = await getDb();
    expect(await db.select().from(phoneNumbers).where(eq(phoneNumbers.id, id))).toHaveLength(1);
    const patch = await call(patchProfile, "PATCH", "/api/settings/profile", {
      cookie: account.cookie,
      headers,
      body: { firstName: "Mallory", lastName: "X", email: `m${uniqueSuffix()}@evil.example` },
    });
    expect(patch.status).toBe(403);
    const put = await call(putNotifications, "PUT", "/api/settings/notifications", { cookie: account.cookie, headers, body: { callAlerts: false } });
    expect(put.status).toBe(403);
  });

  it("a cross-site sign-in (login CSRF) is 403 too", async () => {
    const account = await registerTestUser();
    const res = await call(login, "POST", "/api/auth/login", {
      headers: { origin: "https://evil.example" },
      body: { email: account.email, password: account.password },
    });
    expect(res.status).toBe(403);
  });

  it("our own pages may write: Origin ours, Sec-Fetch-Site same-origin, or the host the request was sent to", async () => {
    const account = await registerTestUser();
    const viaOrigin = await call(putNotifications, "PUT", "/api/settings/notifications", {
      cookie: account.cookie,
      headers: { origin: OURS },
      body: { callAlerts: false },
    });
    expect(viaOrigin.status).toBe(200);
    const viaFetchSite = await call(putNotifications, "PUT", "/api/settings/notifications", {
      cookie: account.cookie,
      headers: { origin: OURS, "sec-fetch-site": "same-origin" },
      body: { callAlerts: true },
    });
    expect(viaFetchSite.status).toBe(200);
    const viaHost = await call(putNotifications, "PUT", "/api/settings/notifications", {
      cookie: account.cookie,
      headers: { origin: "https://desk.example.com", host: "desk.example.com" },
      body: { systemUpdates: false },
    });
    expect(viaHost.status).toBe(200);
  });

  it("non-browser callers without Origin keep working: cookie (curl), bearer, and a bearer call from anywhere", async () => {
    const account = await registerTestUser();
    const curl = await call(putNotifications, "PUT", "/api/settings/notifications", { cookie: account.cookie, body: { callAlerts: false } });
    expect(curl.status).toBe(200);
    const bearer = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", { sessionId: account.sessionId, body: { planId: "pro" } });
    expect(bearer.status).toBe(200);
    // A page elsewhere cannot attach an Authorization header without a CORS preflight we never grant.
    const bearerWithOrigin = await call(upgradeGet, "GET", "/api/billing/overview", {
      sessionId: account.sessionId,
      headers: { origin: "http://evil.example" },
    });
    expect(bearerWithOrigin.status).toBe(200);
  });

  it("reads are not affected: a GET with a foreign Origin still answers", async () => {
    const account = await registerTestUser();
    const res = await call(me, "GET", "/api/auth/me", { cookie: account.cookie, headers: { origin: "http://evil.example", "sec-fetch-site": "cross-site" } });
    expect(res.status).toBe(200);
  });

  it("the Stripe webhook (a raw body, no Origin) still reaches its signature check", async () => {
    const res = await call(stripeWebhook, "POST", "/api/stripe/webhook", {
      rawBody: "a=1&b=2",
      headers: { "content-type": "application/x-www-form-urlencoded", "stripe-signature": "t=1,v1=bad" },
    });
    expect([400, 503]).toContain(res.status);
    expect(res.status).not.toBe(415);
  });
});

describe("non-JSON bodies (415)", () => {
  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])(
    "a same-origin cookie write sent as %s is 415 and changes nothing",
    async (type) => {
      const account = await registerTestUser();
      const res = await call(upgradePlan, "POST", "/api/billing/upgrade-plan", {
        cookie: account.cookie,
        headers: { "content-type": type, origin: OURS },
        rawBody: JSON.stringify({ planId: "pro" }),
      });
      expect(res.status).toBe(415);
      expect(res.body.message).toMatch(/as JSON/);
      const db = await getDb();
      const [org] = await db.select().from(organizations).where(eq(organizations.id, account.organizationId));
      expect(org.subscriptionTier).toBe("free");
    },
  );

  it("a DELETE carrying a text/plain body is 415 even though the route reads no body", async () => {
    const account = await registerTestUser();
    const id = await makeNumber(account);
    const res = await call(releaseNumber, "DELETE", `/api/phone-numbers/${id}`, {
      sessionId: account.sessionId,
      params: { id },
      headers: { "content-type": "text/plain" },
      rawBody: "x",
    });
    expect(res.status).toBe(415);
  });

  it("public JSON routes refuse a text/plain body, and a JSON body without a Content-Type", async () => {
    const plain = await call(login, "POST", "/api/auth/login", {
      headers: { "content-type": "text/plain" },
      rawBody: JSON.stringify({ email: "a@example.com", password: "secret123" }),
    });
    expect(plain.status).toBe(415);
    const req = new Request(`${OURS}/api/auth/login`, { method: "POST", body: new Blob([JSON.stringify({ email: "a@example.com", password: "x" })]) });
    const res = await login(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(415);
  });

  it("JSON with parameters and +json types are JSON; an empty body needs no type", async () => {
    const account = await registerTestUser();
    const withCharset = await call(putNotifications, "PUT", "/api/settings/notifications", {
      sessionId: account.sessionId,
      headers: { "content-type": "application/json; charset=utf-8" },
      body: { callAlerts: false },
    });
    expect(withCharset.status).toBe(200);
    const id = await makeNumber(account);
    const empty = await call(releaseNumber, "DELETE", `/api/phone-numbers/${id}`, { sessionId: account.sessionId, params: { id } });
    expect(empty.status).toBe(200);
  });
});

describe("NUL bytes and impossible dates are 400, never 500", () => {
  it("an assistant named a\\u0000b is 400 naming the field, and nothing is stored", async () => {
    const account = await registerTestUser();
    const res = await call(createAssistant, "POST", "/api/voice-assistants", { sessionId: account.sessionId, body: { name: "a\u0000b" } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ name: expect.stringMatching(/NUL/) });
  });

  it("NUL inside nested values and keys is found too", async () => {
    const account = await registerTestUser();
    const id = await makeNumber(account);
    const nested = await call(
      (await import("@/app/api/phone-numbers/[id]/route")).PATCH,
      "PATCH",
      `/api/phone-numbers/${id}`,
      {
        sessionId: account.sessionId,
        params: { id },
        body: { businessHours: { timezone: "America/New_York", days: { mon: { open: "09:00\u0000", close: "17:00" } } } },
      },
    );
    expect(nested.status).toBe(400);
    expect(Object.keys(nested.body.errors)).toEqual(["businessHours.days.mon.open"]);
    const key = await call(putNotifications, "PUT", "/api/settings/notifications", { sessionId: account.sessionId, body: { "call\u0000Alerts": true } });
    expect(key.status).toBe(400);
  });

  it("GET /api/calls/%00 is 400", async () => {
    const account = await registerTestUser();
    const res = await call(callDetail, "GET", "/api/calls/%00", { sessionId: account.sessionId, params: { id: "\u0000" } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ id: expect.stringMatching(/NUL/) });
  });

  it("a NUL in a query parameter is 400", async () => {
    const account = await registerTestUser();
    const res = await call(callHistory, "GET", "/api/call-history?phoneNumberId=%00", { sessionId: account.sessionId });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ phoneNumberId: expect.stringMatching(/NUL/) });
  });

  it.each(["99999-01-01", "+275760-09-13T00:00:00Z", "0000-01-01T00:00:00Z", "-000001-01-01T00:00:00Z"])(
    "/api/call-history?from=%s is 400 naming from",
    async (from) => {
      const account = await registerTestUser();
      const res = await call(callHistory, "GET", `/api/call-history?from=${encodeURIComponent(from)}`, { sessionId: account.sessionId });
      expect(res.status).toBe(400);
      expect(res.body.errors.from).toBeTruthy();
    },
  );

  it("every route answers a NUL in its path, query or body with something other than a 500", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    await db.update(users).set({ role: "master_admin" }).where(eq(users.id, account.id));
    const root = path.join(process.cwd(), "app", "api");
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name === "route.ts") files.push(full);
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(40);
    const nul = "a\u0000b";
    const failures: string[] = [];
    let tried = 0;
    for (const file of files) {
      const route = path.relative(process.cwd(), file).replace(/\\/g, "/").replace(/\.ts$/, "");
      if (/\/(logout|auth\/logout)\/route$/.test(route)) continue; // would end the session the sweep uses
      const mod = (await import(`@/${route}`)) as Record<string, unknown>;
      const names = [...route.matchAll(/\[(\w+)\]/g)].map((m) => m[1]);
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const handler = mod[method];
        if (typeof handler !== "function") continue;
        const urlPath = "/" + route.replace(/^app\//, "").replace(/\/route$/, "");
        const variants = [
          { params: Object.fromEntries(names.map((n) => [n, nul])), query: "", body: undefined as unknown },
          { params: Object.fromEntries(names.map((n) => [n, "x"])), query: "?from=%00&cursor=%00&search=%00&session_id=%00", body: undefined },
        ];
        if (method !== "GET") {
          variants.push({
            params: Object.fromEntries(names.map((n) => [n, "x"])),
            query: "",
            body: { name: nul, text: nul, testText: nul, email: `a${nul}@example.com`, friendlyName: nul, firstName: nul, url: nul, reason: nul, planId: nul },
          });
        }
        for (const v of variants) {
          tried += 1;
          const res = await call(handler as Parameters<typeof call>[0], method, `${urlPath}${v.query}`, {
            sessionId: account.sessionId,
            params: v.params,
            body: v.body,
          });
          // 503 "not configured" (the Stripe webhook without its secret) is a deliberate answer, not a crash.
          if (res.status === 500) failures.push(`${method} ${urlPath}${v.query} ${JSON.stringify(v.params)} → ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(tried).toBeGreaterThan(80);
    expect(failures).toEqual([]);
  }, 120_000);
});

describe("password change: a wrong current password", () => {
  it("is 400 naming currentPassword, counted with sign-in failures, then 429", async () => {
    const account = await registerTestUser({ password: "right-pass-1" });
    const guess = (n: number) =>
      call(changePassword, "POST", "/api/settings/password", {
        sessionId: account.sessionId,
        headers: { [PEER_ADDRESS_HEADER]: "192.0.2.77" },
        body: { currentPassword: `guess-${n}-xx`, newPassword: "attacker-pass-1", confirmPassword: "attacker-pass-1" },
      });
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      const res = await guess(i);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ currentPassword: "Current password is incorrect" });
    }
    const blocked = await guess(99);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // Even the right current password waits now: the guesses used up the account's failures.
    const right = await call(changePassword, "POST", "/api/settings/password", {
      sessionId: account.sessionId,
      body: { currentPassword: "right-pass-1", newPassword: "attacker-pass-1", confirmPassword: "attacker-pass-1" },
    });
    expect(right.status).toBe(429);
    const signIn = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: "right-pass-1" } });
    expect(signIn.status).toBe(429);
  });

  it("is recognised by shape: Better Auth's APIError from another copy of the module (the production bundle) is still a 400", async () => {
    const account = await registerTestUser({ password: "right-pass-1" });
    const db = await getDb();
    const api = getAuth(db).api as unknown as { changePassword: (...args: unknown[]) => Promise<unknown> };
    const original = api.changePassword;
    // Not an instance of the APIError this test's bundle imports: same name, status and body.
    class APIError extends Error {
      constructor(
        readonly status: string,
        readonly body: { code: string; message: string },
        readonly statusCode = 400,
      ) {
        super(body.message);
        this.name = "APIError";
      }
    }
    api.changePassword = async () => {
      throw new APIError("BAD_REQUEST", { code: "INVALID_PASSWORD", message: "Invalid password" });
    };
    try {
      const res = await call(changePassword, "POST", "/api/settings/password", {
        sessionId: account.sessionId,
        body: { currentPassword: "whatever-1", newPassword: "second-pass-2", confirmPassword: "second-pass-2" },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ currentPassword: "Current password is incorrect" });
    } finally {
      api.changePassword = original;
    }
  });

  it("no code under lib/ or app/ matches Better Auth errors with instanceof", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name)) {
          const source = fs.readFileSync(full, "utf8");
          if (/from "better-auth/.test(source) && /instanceof\s+APIError/.test(source)) offenders.push(full);
        }
      }
    };
    walk(path.join(process.cwd(), "lib"));
    walk(path.join(process.cwd(), "app"));
    expect(offenders).toEqual([]);
  });
});

describe("registration: per-address limit and field lengths", () => {
  const person = () => {
    const s = uniqueSuffix();
    return { email: `new${s}@example.com`, username: `new${s}`, password: "secret123", firstName: "New", lastName: "Person" };
  };

  it(`allows ${env.REGISTRATIONS_PER_IP_PER_HOUR} registrations an hour per address (register and signup together), then 429`, async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const headers = { [PEER_ADDRESS_HEADER]: ip };
    const limit = env.REGISTRATIONS_PER_IP_PER_HOUR;
    for (let i = 0; i < limit; i++) {
      const res =
        i % 2 === 0
          ? await call(register, "POST", "/api/auth/register", { headers, body: person() })
          : await call(signup, "POST", "/api/auth/signup", {
              headers,
              body: { ...person(), confirmPassword: "secret123", subscriptionTier: "enterprise", role: "business", agreeToTerms: true },
            });
      expect(res.status).toBe(200);
    }
    const refused = await call(register, "POST", "/api/auth/register", { headers, body: person() });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const refusedSignup = await call(signup, "POST", "/api/auth/signup", {
      headers,
      body: { ...person(), confirmPassword: "secret123", subscriptionTier: "enterprise", role: "business", agreeToTerms: true },
    });
    expect(refusedSignup.status).toBe(429);
    const elsewhere = await call(register, "POST", "/api/auth/register", { headers: { [PEER_ADDRESS_HEADER]: "203.0.113.250" }, body: person() });
    expect(elsewhere.status).toBe(200);
  });

  it("refuses a 1,000,000-character first name on both sign-up routes, and stores nothing", async () => {
    const huge = "A".repeat(1_000_000);
    const input = { ...person(), firstName: huge };
    const a = await call(register, "POST", "/api/auth/register", { body: input });
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual({ firstName: "First name must be at most 100 characters" });
    const b = await call(signup, "POST", "/api/auth/signup", {
      body: { ...input, confirmPassword: "secret123", subscriptionTier: "free", role: "individual", agreeToTerms: true },
    });
    expect(b.status).toBe(400);
    expect(b.body.errors.firstName).toBe("First name is too long");
    const db = await getDb();
    expect(await db.select({ id: users.id }).from(users).where(eq(users.email, input.email))).toHaveLength(0);
  });

  it.each([
    ["lastName", "L".repeat(101)],
    ["username", "u".repeat(51)],
    ["email", `${"e".repeat(250)}@example.com`],
    ["password", "p".repeat(129)],
  ])("caps %s", async (field, value) => {
    const res = await call(register, "POST", "/api/auth/register", { body: { ...person(), [field]: value } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toContain(field);
  });
});

describe("Sign Out on an https PUBLIC_URL", () => {
  it("clears the __Secure- cookies with Secure, so the browser really drops them", async () => {
    await withEnv({ PUBLIC_URL: "https://desk.example.com" }, async () => {
      const res = await call(loginNavigation, "GET", "/api/login");
      const cleared = res.headers.getSetCookie();
      const token = cleared.find((c) => c.startsWith("__Secure-switchboard.session_token="));
      expect(token).toBeDefined();
      expect(token).toMatch(/;\s*Secure/i);
      expect(token).toMatch(/Max-Age=0/i);
      expect(token).toMatch(/Path=\//i);
      const account = await registerTestUser();
      const out = await call(logoutNavigation, "GET", "/api/logout", { sessionId: account.sessionId, headers: { "sec-fetch-site": "same-origin" } });
      expect(out.headers.getSetCookie().every((c) => /;\s*Secure/i.test(c) && c.startsWith("__Secure-"))).toBe(true);
      expect(new URL(out.headers.get("location")!, "https://desk.example.com").pathname).toBe("/");
    });
  });
});

describe("the client address", () => {
  const h = (init: Record<string, string>) => new Headers(init);

  it("is the TCP peer (stamped by the server), never X-Forwarded-For or X-Real-IP, without a trusted proxy", () => {
    expect(clientIp(h({ [PEER_ADDRESS_HEADER]: "::ffff:203.0.113.5", "x-forwarded-for": "1.2.3.4", "x-real-ip": "5.6.7.8" }))).toBe("203.0.113.5");
    expect(clientIp(h({ "x-forwarded-for": "1.2.3.4" }))).toBeNull();
    expect(clientIp(h({ [PEER_ADDRESS_HEADER]: "not-an-ip" }))).toBeNull();
  });

  it("behind a trusted proxy is the X-Forwarded-For entry the proxy wrote: the right-most (or TRUSTED_PROXY_HOPS from the right)", async () => {
    await withEnv({ TRUST_PROXY_HEADERS: true }, async () => {
      const headers = h({ "x-forwarded-for": "6.6.6.6, 203.0.113.9", [PEER_ADDRESS_HEADER]: "10.0.0.2" });
      expect(clientIp(headers)).toBe("203.0.113.9");
      await withEnv({ TRUSTED_PROXY_HOPS: 2 }, async () => {
        expect(clientIp(h({ "x-forwarded-for": "6.6.6.6, 203.0.113.9, 198.51.100.1" }))).toBe("203.0.113.9");
      });
      expect(clientIp(h({ [PEER_ADDRESS_HEADER]: "10.0.0.2" }))).toBe("10.0.0.2");
    });
  });
});
