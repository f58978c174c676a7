import { eq } from "drizzle-orm";
import { POST as logout } from "@/app/api/auth/logout/route";
import { GET as me } from "@/app/api/auth/me/route";
import { sessions, users } from "@/db/schema";
import { SESSION_EXPIRES_IN_SECONDS } from "@/lib/identity/auth/auth";
import { sessionCache } from "@/lib/identity/auth/session-cache";
import { closeDb, getDb, getDbHandle } from "@/lib/platform/database";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";

// The session lookup every authed request makes (lib/identity/auth/session.ts): the ordinary case answers
// from one query; expired, due-for-refresh and malformed sessions go through Better Auth. Each
// case here must give what Better Auth alone gave.

afterAll(() => closeDb());

const DAY = 24 * 60 * 60 * 1000;

async function sessionRow(token: string) {
  const db = await getDb();
  const [row] = await db.select().from(sessions).where(eq(sessions.token, token));
  return row;
}

const tokenOf = (sessionId: string) => sessionId.slice(0, sessionId.lastIndexOf("."));

describe("session lookup", () => {
  it("answers a bearer session and a cookie session with the same user", async () => {
    const account = await registerTestUser();
    const byBearer = await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId });
    const byCookie = await call(me, "GET", "/api/auth/me", { cookie: account.cookie });
    expect(byBearer.status).toBe(200);
    expect(byBearer.body).toMatchObject({ id: account.id, email: account.email, organizationId: account.organizationId, role: "individual" });
    expect(byCookie.body).toEqual(byBearer.body);
  });

  it("refuses a tampered signature, a token without one, and another scheme", async () => {
    const account = await registerTestUser();
    const token = tokenOf(account.sessionId);
    const signature = account.sessionId.slice(token.length + 1);
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    for (const authorization of [`Bearer ${token}.${flipped}`, `Bearer ${token}`, `Basic ${account.sessionId}`, "Bearer "]) {
      const res = await call(me, "GET", "/api/auth/me", { headers: { authorization } });
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 401 });
    }
    const forged = await call(me, "GET", "/api/auth/me", { cookie: `switchboard.session_token=${encodeURIComponent(`${token}.${flipped}`)}` });
    expect(forged.status).toBe(401);
  });

  it("falls back to the session cookie when the bearer header is not a valid session, as Better Auth does", async () => {
    const account = await registerTestUser();
    const res = await call(me, "GET", "/api/auth/me", { cookie: account.cookie, headers: { authorization: "Bearer not-a-session" } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(account.id);
  });

  it("an expired session is refused and deleted", async () => {
    const account = await registerTestUser();
    const token = tokenOf(account.sessionId);
    const db = await getDb();
    await db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.token, token));
    expect((await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId })).status).toBe(401);
    expect(await sessionRow(token)).toBeUndefined();
  });

  it("a session last refreshed more than a day ago has its expiry pushed on; a fresh one is left alone", async () => {
    const account = await registerTestUser();
    const token = tokenOf(account.sessionId);
    const db = await getDb();
    const stale = new Date(Date.now() + SESSION_EXPIRES_IN_SECONDS * 1000 - 2 * DAY);
    await db.update(sessions).set({ expiresAt: stale }).where(eq(sessions.token, token));
    expect((await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId })).status).toBe(200);
    const refreshed = (await sessionRow(token)).expiresAt.getTime();
    expect(refreshed).toBeGreaterThan(stale.getTime() + DAY);

    expect((await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId })).status).toBe(200);
    expect((await sessionRow(token)).expiresAt.getTime()).toBe(refreshed);
  });

  it("a suspended account's session is refused", async () => {
    const account = await registerTestUser();
    const db = await getDb();
    await db.update(users).set({ status: "suspended" }).where(eq(users.id, account.id));
    expect((await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId })).status).toBe(401);
    expect((await call(me, "GET", "/api/auth/me", { cookie: account.cookie })).status).toBe(401);
  });

  it("no session at all is 401", async () => {
    expect((await call(me, "GET", "/api/auth/me")).status).toBe(401);
    expect((await call(me, "GET", "/api/auth/me", { cookie: "other=1" })).status).toBe(401);
  });
});

// Embedded PGlite keeps signed-in sessions in memory (lib/identity/auth/session-cache.ts), told of every change
// by the database before the writing statement returns; PostgreSQL servers are asked every time. On
// both, the next request after any change must see it.
describe("sessions kept in memory on embedded PGlite", () => {
  it("are reused, and a change to the user or the session is seen by the very next request", async () => {
    const { db, driver } = await getDbHandle();
    const cache = sessionCache(db);
    expect(cache !== null).toBe(driver === "pglite");
    const account = await registerTestUser();
    const asUser = () => call(me, "GET", "/api/auth/me", { sessionId: account.sessionId });

    expect((await asUser()).status).toBe(200);
    const before = cache?.stats();
    expect((await asUser()).body.firstName).toBe("Test");
    if (cache && before) expect(cache.stats().hits).toBe(before.hits + 1); // answered from memory, no query

    await db.update(users).set({ firstName: "Renamed" }).where(eq(users.id, account.id));
    expect((await asUser()).body.firstName).toBe("Renamed");

    await db.update(users).set({ status: "suspended" }).where(eq(users.id, account.id));
    expect((await asUser()).status).toBe(401);
    await db.update(users).set({ status: "active" }).where(eq(users.id, account.id));
    expect((await asUser()).status).toBe(200);

    const past = new Date(Date.now() - DAY);
    await db.update(sessions).set({ expiresAt: past }).where(eq(sessions.token, tokenOf(account.sessionId)));
    expect((await asUser()).status).toBe(401);
  });

  it("a signed-out session is refused by the next request", async () => {
    const account = await registerTestUser();
    expect((await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId })).status).toBe(200);
    expect((await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId })).status).toBe(200);
    expect((await call(logout, "POST", "/api/auth/logout", { sessionId: account.sessionId })).status).toBe(200);
    expect((await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId })).status).toBe(401);
  });
});
