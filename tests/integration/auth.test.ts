import { POST as login } from "@/app/api/auth/login/route";
import { POST as logout } from "@/app/api/auth/logout/route";
import { GET as me } from "@/app/api/auth/me/route";
import { POST as register } from "@/app/api/auth/register/route";
import { GET as loginNavigation } from "@/app/api/login/route";
import { GET as logoutNavigation } from "@/app/api/logout/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { accounts, creditLedger, organizations, users } from "@/db/schema";
import { LOGIN_FAILURE_LIMIT, LOGIN_FAILURES_PER_IP, recordLoginFailure } from "@/lib/identity/auth/login-throttle";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/peer-address";
import { permissionsFor } from "@/lib/identity/auth/roles";
import { eq } from "drizzle-orm";
import { registerTestUser } from "../helpers/accounts";
import { call, uniqueSuffix } from "../helpers/http";

afterAll(() => closeDb());

function newUser() {
  const s = uniqueSuffix();
  return { email: `person${s}@example.com`, username: `person${s}`, password: "secret123", firstName: "Pat", lastName: "Lee" };
}

describe("POST /api/auth/register", () => {
  it("creates the user and an organization, and returns a working sessionId", async () => {
    const input = newUser();
    const res = await call(register, "POST", "/api/auth/register", { body: input });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: input.email, firstName: "Pat", lastName: "Lee", role: "individual" });
    expect(typeof res.body.sessionId).toBe("string");
    expect(res.body.permissions).toEqual(permissionsFor("individual"));
    expect(res.body.organizationId).toBeTruthy();
    expect(res.text).not.toContain(input.password);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/switchboard\.session_token=/);
    expect(cookie.toLowerCase()).toContain("httponly");
    expect(cookie.toLowerCase()).toContain("samesite=lax");

    const who = await call(me, "GET", "/api/auth/me", { sessionId: res.body.sessionId });
    expect(who.status).toBe(200);
    expect(who.body).toMatchObject({ id: res.body.id, email: input.email, role: "individual" });
  });

  it("grants the Free plan's 100 welcome credits through the ledger", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    const [org] = await db.select().from(organizations).where(eq(organizations.id, account.organizationId));
    expect(org.creditBalance).toBe(100);
    const rows = await db.select().from(creditLedger).where(eq(creditLedger.organizationId, account.organizationId));
    expect(rows).toEqual([expect.objectContaining({ kind: "grant", amount: 100, balanceAfter: 100, reference: "signup" })]);
  });

  it("stores a hash, never the password", async () => {
    const account = await registerTestUser({ password: "plain-text-pw" });
    const db = await getDb();
    const [row] = await db.select().from(accounts).where(eq(accounts.userId, account.id));
    expect(row.password).toBeTruthy();
    expect(row.password).not.toContain("plain-text-pw");
  });

  it("names every failing field with the spec's message", async () => {
    const res = await call(register, "POST", "/api/auth/register", {
      body: { email: "not-an-email", password: "123", username: "ab", firstName: "", lastName: "" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      email: "Please enter a valid email",
      password: "Password must be at least 6 characters",
      username: "Username must be at least 3 characters",
      firstName: "First name is required",
      lastName: "Last name is required",
    });
    expect(res.body.message).toContain("email: Please enter a valid email");
  });

  it("answers 409 naming the e-mail when it is taken (case-insensitive)", async () => {
    const first = await registerTestUser();
    const res = await call(register, "POST", "/api/auth/register", {
      body: { ...newUser(), email: first.email.toUpperCase() },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/email/i);
    expect(res.body.errors).toHaveProperty("email");
  });

  it("answers 409 naming the username when it is taken", async () => {
    const first = await registerTestUser();
    const res = await call(register, "POST", "/api/auth/register", { body: { ...newUser(), username: first.username } });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/username/i);
    expect(res.body.errors).toHaveProperty("username");
  });

  it("rejects malformed JSON with 400 and an oversized body with 413", async () => {
    const bad = await call(register, "POST", "/api/auth/register", { rawBody: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/valid JSON/);
    const huge = await call(register, "POST", "/api/auth/register", {
      rawBody: JSON.stringify({ ...newUser(), firstName: "x".repeat(1024 * 1024 + 10) }),
    });
    expect(huge.status).toBe(413);
  });
});

describe("POST /api/auth/login", () => {
  it("signs in with the right password and returns the contract shape", async () => {
    const account = await registerTestUser();
    const res = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: account.password } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(
      expect.arrayContaining(["sessionId", "id", "email", "firstName", "lastName", "role", "permissions"]),
    );
    expect(res.body.id).toBe(account.id);
    expect(res.body.sessionId).not.toBe(account.sessionId);
  });

  it("answers 401 with a readable message for a wrong password or unknown e-mail", async () => {
    const account = await registerTestUser();
    const wrong = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: "wrong-password" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toMatch(/Invalid email or password/);
    const unknown = await call(login, "POST", "/api/auth/login", {
      body: { email: `nobody${uniqueSuffix()}@example.com`, password: "whatever1" },
    });
    expect(unknown.status).toBe(401);
  });

  it("validates the body with the sign-in rules", async () => {
    const res = await call(login, "POST", "/api/auth/login", { body: { email: "x", password: "1" } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      email: "Please enter a valid email",
      password: "Password must be at least 6 characters",
    });
  });

  it("rate-limits failed logins per e-mail with 429 and Retry-After", async () => {
    const account = await registerTestUser();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      const res = await call(login, "POST", "/api/auth/login", {
        body: { email: account.email, password: "wrong-password" },
        headers: { [PEER_ADDRESS_HEADER]: `10.9.${i}.1` },
      });
      expect(res.status).toBe(401);
    }
    const blocked = await call(login, "POST", "/api/auth/login", {
      body: { email: account.email, password: account.password },
      headers: { [PEER_ADDRESS_HEADER]: "10.9.200.1" },
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(blocked.body.message).toMatch(/Too many failed sign-in attempts/);
  });

  it("lets a shared address (an office) make typos on many accounts without locking out the others", async () => {
    const ip = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
    // Ten people behind one NAT each mistype once: nobody else is affected.
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      const res = await call(login, "POST", "/api/auth/login", {
        body: { email: `colleague${uniqueSuffix()}@example.com`, password: "wrong-password" },
        headers: { [PEER_ADDRESS_HEADER]: ip },
      });
      expect(res.status).toBe(401);
    }
    const account = await registerTestUser();
    const fine = await call(login, "POST", "/api/auth/login", {
      body: { email: account.email, password: account.password },
      headers: { [PEER_ADDRESS_HEADER]: ip },
    });
    expect(fine.status).toBe(200);
  });

  // Most failures below are recorded straight into the throttle (as the route does) to keep the
  // suite light on CPU — each failed sign-in runs scrypt; the requests that decide go through the route.
  it(`rate-limits failed logins per IP across e-mails at ${LOGIN_FAILURES_PER_IP} in the window`, async () => {
    expect(LOGIN_FAILURES_PER_IP).toBeGreaterThanOrEqual(50);
    const db = await getDb();
    const ip = `198.18.${Math.floor(Math.random() * 200) + 1}.${Math.floor(Math.random() * 200) + 1}`;
    const account = await registerTestUser();
    for (let i = 0; i < LOGIN_FAILURES_PER_IP - 2; i++) await recordLoginFailure(db, `stranger${uniqueSuffix()}@example.com`, ip);
    const fails = () =>
      call(login, "POST", "/api/auth/login", {
        body: { email: `stranger${uniqueSuffix()}@example.com`, password: "wrong-password" },
        headers: { [PEER_ADDRESS_HEADER]: ip },
      });
    expect((await fails()).status).toBe(401); // 49 failures from this address
    // One below the limit: another account's correct password still works.
    const below = await call(login, "POST", "/api/auth/login", {
      body: { email: account.email, password: account.password },
      headers: { [PEER_ADDRESS_HEADER]: ip },
    });
    expect(below.status).toBe(200);
    expect((await fails()).status).toBe(401); // 50
    const blocked = await call(login, "POST", "/api/auth/login", {
      body: { email: account.email, password: account.password },
      headers: { [PEER_ADDRESS_HEADER]: ip },
    });
    expect(blocked.status).toBe(429);
    const elsewhere = await call(login, "POST", "/api/auth/login", {
      body: { email: account.email, password: account.password },
      headers: { [PEER_ADDRESS_HEADER]: "198.51.100.7" },
    });
    expect(elsewhere.status).toBe(200);
  });

  it("ignores X-Forwarded-For without a trusted proxy: a client cannot spread its failures over invented addresses", async () => {
    const db = await getDb();
    const peer = `100.64.${Math.floor(Math.random() * 200) + 1}.9`;
    for (let i = 0; i < LOGIN_FAILURES_PER_IP - 1; i++) await recordLoginFailure(db, `rotating${uniqueSuffix()}@example.com`, peer);
    // The 50th failure claims to come from elsewhere: it still counts for the real peer.
    const spoofed = await call(login, "POST", "/api/auth/login", {
      body: { email: `rotating${uniqueSuffix()}@example.com`, password: "wrong-password" },
      headers: { [PEER_ADDRESS_HEADER]: peer, "x-forwarded-for": "192.0.2.1", "x-real-ip": "192.0.2.2" },
    });
    expect(spoofed.status).toBe(401);
    const account = await registerTestUser();
    const blocked = await call(login, "POST", "/api/auth/login", {
      body: { email: account.email, password: account.password },
      headers: { [PEER_ADDRESS_HEADER]: peer, "x-forwarded-for": "192.0.2.250" },
    });
    expect(blocked.status).toBe(429);
  });

  it("cannot lock out someone else's address by claiming it in X-Forwarded-For", async () => {
    const db = await getDb();
    const victim = `192.0.2.${Math.floor(Math.random() * 200) + 1}`;
    const attacker = `100.65.${Math.floor(Math.random() * 200) + 1}.1`;
    // The victim's office has made 49 typos; one more failure "from" it would lock it out.
    for (let i = 0; i < LOGIN_FAILURES_PER_IP - 1; i++) await recordLoginFailure(db, `typo${uniqueSuffix()}@example.com`, victim);
    for (let i = 0; i < 3; i++) {
      const res = await call(login, "POST", "/api/auth/login", {
        body: { email: `spoof${uniqueSuffix()}@example.com`, password: "wrong-password" },
        headers: { [PEER_ADDRESS_HEADER]: attacker, "x-forwarded-for": victim, "x-real-ip": victim },
      });
      expect(res.status).toBe(401);
    }
    const account = await registerTestUser();
    const res = await call(login, "POST", "/api/auth/login", {
      body: { email: account.email, password: account.password },
      headers: { [PEER_ADDRESS_HEADER]: victim },
    });
    expect(res.status).toBe(200);
  });

  it("refuses a suspended account", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    await db.update(users).set({ status: "suspended" }).where(eq(users.id, account.id));
    const res = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: account.password } });
    expect(res.status).toBe(403);
    const who = await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId });
    expect(who.status).toBe(401);
  });
});

describe("GET /api/auth/me", () => {
  it("answers 401 containing Unauthorized without a session, with a bad one, or with an unsigned token", async () => {
    const none = await call(me, "GET", "/api/auth/me");
    expect(none.status).toBe(401);
    expect(none.text).toContain("Unauthorized");
    const bad = await call(me, "GET", "/api/auth/me", { sessionId: "not-a-real-session.abc" });
    expect(bad.status).toBe(401);
    expect(bad.text).toContain("Unauthorized");
    const account = await registerTestUser();
    const unsigned = account.sessionId.split(".")[0];
    const res = await call(me, "GET", "/api/auth/me", { sessionId: unsigned });
    expect(res.status).toBe(401);
  });

  it("accepts the session cookie as well as the bearer header", async () => {
    const input = newUser();
    const reg = await call(register, "POST", "/api/auth/register", { body: input });
    const cookie = (reg.headers.get("set-cookie") ?? "").split(";")[0];
    const res = await call(me, "GET", "/api/auth/me", { cookie });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(input.email);
  });
});

describe("logout", () => {
  it("POST /api/auth/logout ends the session everywhere", async () => {
    const account = await registerTestUser();
    const out = await call(logout, "POST", "/api/auth/logout", { sessionId: account.sessionId });
    expect(out.status).toBe(200);
    const after = await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId });
    expect(after.status).toBe(401);
  });

  it("GET /api/logout from one of our pages ends the session, clears the cookie and goes to /", async () => {
    const input = newUser();
    const reg = await call(register, "POST", "/api/auth/register", { body: input });
    const cookie = (reg.headers.get("set-cookie") ?? "").split(";")[0];
    const res = await call(logoutNavigation, "GET", "/api/logout", { cookie, headers: { "sec-fetch-site": "same-origin" } });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!, "https://desk.example.com").pathname).toBe("/");
    expect(res.headers.get("set-cookie")).toMatch(/switchboard\.session_token=;.*Max-Age=0/i);
    const after = await call(me, "GET", "/api/auth/me", { sessionId: reg.body.sessionId });
    expect(after.status).toBe(401);
  });

  it("GET /api/logout in an old browser: a Referer of ours counts as our page", async () => {
    const account = await registerTestUser();
    const res = await call(logoutNavigation, "GET", "/api/logout", {
      sessionId: account.sessionId,
      headers: { referer: "http://localhost:3000/dashboard" },
    });
    expect(res.status).toBe(303);
    expect((await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId })).status).toBe(401);
  });

  it.each([
    ["a link on another site", { "sec-fetch-site": "cross-site" }],
    ["a sibling subdomain", { "sec-fetch-site": "same-site" }],
    ["a typed URL or bookmark", { "sec-fetch-site": "none" }],
    ["another site's Referer", { referer: "https://evil.example/page" }],
    ["no browser hints at all", {}],
  ])("GET /api/logout from %s leaves the session alone and goes to /", async (_what, headers) => {
    const input = newUser();
    const reg = await call(register, "POST", "/api/auth/register", { body: input });
    const cookie = (reg.headers.get("set-cookie") ?? "").split(";")[0];
    const res = await call(logoutNavigation, "GET", "/api/logout", { cookie, headers });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("location")!, "https://desk.example.com").pathname).toBe("/");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await call(me, "GET", "/api/auth/me", { cookie })).status).toBe(200);
  });

  it("sign-in and sign-out redirects stay on the address the browser used (relative Location), behind a proxy too", async () => {
    const account = await registerTestUser();
    const behindProxy = { host: "desk.example.com", "x-forwarded-host": "desk.example.com", "x-forwarded-proto": "https", "sec-fetch-site": "same-origin" };
    const signedIn = await call(loginNavigation, "GET", "/api/login", { sessionId: account.sessionId, headers: behindProxy });
    expect(signedIn.headers.get("location")).toBe("/dashboard");
    const out = await call(loginNavigation, "GET", "/api/login", { headers: behindProxy });
    expect(out.headers.get("location")).toBe("/auth");
    const loggedOut = await call(logoutNavigation, "GET", "/api/logout", { sessionId: account.sessionId, headers: behindProxy });
    expect(loggedOut.status).toBe(303);
    expect(loggedOut.headers.get("location")).toBe("/");
  });

  it("GET /api/login sends a signed-out visitor to /auth and a signed-in one to /dashboard", async () => {
    const out = await call(loginNavigation, "GET", "/api/login");
    expect(new URL(out.headers.get("location")!, "https://desk.example.com").pathname).toBe("/auth");
    const account = await registerTestUser();
    const signedIn = await call(loginNavigation, "GET", "/api/login", { sessionId: account.sessionId });
    expect(new URL(signedIn.headers.get("location")!, "https://desk.example.com").pathname).toBe("/dashboard");
  });
});
