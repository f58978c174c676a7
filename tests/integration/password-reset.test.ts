import { POST as forgot } from "@/app/api/auth/forgot-password/route";
import { POST as resetPassword } from "@/app/api/auth/reset-password/route";
import { POST as login } from "@/app/api/auth/login/route";
import { GET as me } from "@/app/api/auth/me/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { emails, verifications } from "@/db/schema";
import { and, eq, like } from "drizzle-orm";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());

/** The link in the newest reset e-mail kept for the organization (no SMTP in tests: the Outbox). */
async function resetLink(organizationId: string, to: string) {
  const db = await getDb();
  const rows = await db.select().from(emails).where(and(eq(emails.organizationId, organizationId), eq(emails.kind, "password_reset"), eq(emails.toAddress, to)));
  expect(rows.length).toBeGreaterThan(0);
  const newest = rows.sort((a, b) => +b.createdAt - +a.createdAt)[0];
  const url = newest.text.match(/https?:\/\/\S+\/auth\/reset-password\?token=\S+/)?.[0];
  expect(url).toBeTruthy();
  return { email: newest, token: new URL(url!).searchParams.get("token")! };
}

describe("Forgot password (issue 30)", () => {
  it("e-mails a link (kept in the Outbox without SMTP) that sets a new password once, and signs out old sessions", async () => {
    const account = await registerTestUser();
    const res = await call(forgot, "POST", "/api/auth/forgot-password", { body: { email: account.email } });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/link/);

    const { email, token } = await resetLink(account.organizationId, account.email);
    expect(email.status).toBe("outbox");
    expect(email.subject).toBe("Reset your Switchboard password");
    expect(email.text).toContain("30 minutes");

    const done = await call(resetPassword, "POST", "/api/auth/reset-password", { body: { token, newPassword: "brand-new-pw" } });
    expect(done.status).toBe(200);

    expect((await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: "brand-new-pw" } })).status).toBe(200);
    expect((await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: account.password } })).status).toBe(401);
    // The session from before the reset no longer works.
    expect((await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId })).status).toBe(401);

    // Single use: the same link a second time is refused, naming the token.
    const again = await call(resetPassword, "POST", "/api/auth/reset-password", { body: { token, newPassword: "another-pw" } });
    expect(again.status).toBe(400);
    expect(again.body.errors).toHaveProperty("token");
    expect((await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: "another-pw" } })).status).toBe(401);
  });

  it("the link expires 30 minutes after it was asked for", async () => {
    const account = await registerTestUser();
    const before = Date.now();
    await call(forgot, "POST", "/api/auth/forgot-password", { body: { email: account.email } });
    const { token } = await resetLink(account.organizationId, account.email);
    const db = await getDb();
    const [row] = await db.select().from(verifications).where(like(verifications.identifier, `%${token}`));
    const minutes = (+row.expiresAt - before) / 60_000;
    expect(minutes).toBeGreaterThan(29.5);
    expect(minutes).toBeLessThanOrEqual(30.5);

    await db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(verifications.id, row.id));
    const late = await call(resetPassword, "POST", "/api/auth/reset-password", { body: { token, newPassword: "too-late-pw" } });
    expect(late.status).toBe(400);
    expect(late.body.errors).toHaveProperty("token");
  });

  it("answers the same for an unknown address, and sends nothing", async () => {
    const res = await call(forgot, "POST", "/api/auth/forgot-password", { body: { email: "nobody-here@example.com" } });
    expect(res.status).toBe(200);
    const db = await getDb();
    expect(await db.select().from(emails).where(eq(emails.toAddress, "nobody-here@example.com"))).toEqual([]);
  });

  it("names the field on bad input", async () => {
    const bad = await call(forgot, "POST", "/api/auth/forgot-password", { body: { email: "not-an-email" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("email");
    const short = await call(resetPassword, "POST", "/api/auth/reset-password", { body: { token: "x", newPassword: "123" } });
    expect(short.status).toBe(400);
    expect(short.body.errors).toHaveProperty("newPassword");
  });
});
