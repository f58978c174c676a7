import { POST as login } from "@/app/api/auth/login/route";
import { GET as me } from "@/app/api/auth/me/route";
import { DELETE as removeKey } from "@/app/api/settings/api-keys/[provider]/route";
import { GET as getKeys, PUT as putKeys } from "@/app/api/settings/api-keys/route";
import { GET as getNotifications, PUT as putNotifications } from "@/app/api/settings/notifications/route";
import { POST as changePassword } from "@/app/api/settings/password/route";
import { PATCH as patchProfile } from "@/app/api/settings/profile/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { providerCredentials, users } from "@/db/schema";
import { decryptSecret } from "@/lib/platform/crypto/secret-box";
import { resolveCredential } from "@/lib/workspace/provider-selection/credentials";
import { and, eq } from "drizzle-orm";
import { registerTestUser } from "../helpers/accounts";
import { call, uniqueSuffix, type CallResult } from "../helpers/http";
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { saveApiKeys } from "@/lib/workspace/settings/api-keys";

const randomHex = (length: number) => crypto.randomBytes(length).toString("hex").slice(0, length);

afterAll(() => closeDb());

describe("PATCH /api/settings/profile", () => {
  it("saves first name, last name and e-mail (lower-cased), updates the display name, and /api/auth/me follows", async () => {
    const account = await registerTestUser();
    const email = `Renamed${uniqueSuffix()}@Example.com`;
    const res = await call(patchProfile, "PATCH", "/api/settings/profile", {
      sessionId: account.sessionId,
      body: { firstName: " Robin ", lastName: "Banks", email },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: account.id, firstName: "Robin", lastName: "Banks", email: email.toLowerCase(), role: "individual" });
    expect(res.body.permissions).toEqual(expect.arrayContaining(["settings.write"]));
    const who = await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId });
    expect(who.body).toMatchObject({ firstName: "Robin", lastName: "Banks", email: email.toLowerCase() });
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, account.id));
    expect(row.name).toBe("Robin Banks");
    const signIn = await call(login, "POST", "/api/auth/login", { body: { email, password: account.password } });
    expect(signIn.status).toBe(200);
  });

  it("keeps the caller's own e-mail in another case without a conflict", async () => {
    const account = await registerTestUser();
    const res = await call(patchProfile, "PATCH", "/api/settings/profile", {
      sessionId: account.sessionId,
      body: { firstName: "Test", lastName: "User", email: account.email.toUpperCase() },
    });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(account.email.toLowerCase());
  });

  it("answers 409 naming email when another account has it (case-insensitive)", async () => {
    const account = await registerTestUser();
    const other = await registerTestUser();
    const res = await call(patchProfile, "PATCH", "/api/settings/profile", {
      sessionId: account.sessionId,
      body: { firstName: "Test", lastName: "User", email: other.email.toUpperCase() },
    });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual({ email: "An account with this email already exists" });
    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, account.id));
    expect(row.email).toBe(account.email);
  });

  it("answers 400 with field messages", async () => {
    const account = await registerTestUser();
    const res = await call(patchProfile, "PATCH", "/api/settings/profile", {
      sessionId: account.sessionId,
      body: { firstName: "", lastName: "  ", email: "nope" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      firstName: "First name is required",
      lastName: "Last name is required",
      email: "Please enter a valid email",
    });
  });

  it("answers 401 without a session", async () => {
    const res = await call(patchProfile, "PATCH", "/api/settings/profile", { body: { firstName: "A", lastName: "B", email: "a@b.co" } });
    expect(res.status).toBe(401);
  });
});

describe("POST /api/settings/password", () => {
  it("changes the password, ends the user's other sessions and keeps the current one", async () => {
    const account = await registerTestUser({ password: "first-pass-1" });
    const other = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: "first-pass-1" } });
    expect(other.status).toBe(200);
    const bystander = await registerTestUser();

    const res = await call(changePassword, "POST", "/api/settings/password", {
      sessionId: account.sessionId,
      body: { currentPassword: "first-pass-1", newPassword: "second-pass-2", confirmPassword: "second-pass-2" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(res.text).not.toContain("second-pass-2");

    expect((await call(me, "GET", "/api/auth/me", { sessionId: other.body.sessionId })).status).toBe(401);
    expect((await call(me, "GET", "/api/auth/me", { sessionId: account.sessionId })).status).toBe(200);
    // Another user's session is not touched.
    expect((await call(me, "GET", "/api/auth/me", { sessionId: bystander.sessionId })).status).toBe(200);

    const withNew = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: "second-pass-2" } });
    expect(withNew.status).toBe(200);
    const withOld = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: "first-pass-1" } });
    expect(withOld.status).toBe(401);
  });

  it("answers 400 on currentPassword when it is wrong, and changes nothing", async () => {
    const account = await registerTestUser({ password: "first-pass-1" });
    const other = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: "first-pass-1" } });
    const res = await call(changePassword, "POST", "/api/settings/password", {
      sessionId: account.sessionId,
      body: { currentPassword: "not-my-password", newPassword: "second-pass-2", confirmPassword: "second-pass-2" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ currentPassword: "Current password is incorrect" });
    expect((await call(me, "GET", "/api/auth/me", { sessionId: other.body.sessionId })).status).toBe(200);
    const old = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: "first-pass-1" } });
    expect(old.status).toBe(200);
  });

  it("answers 400 naming newPassword (≥ 8) and confirmPassword (must match)", async () => {
    const account = await registerTestUser();
    const short = await call(changePassword, "POST", "/api/settings/password", {
      sessionId: account.sessionId,
      body: { currentPassword: account.password, newPassword: "short", confirmPassword: "short" },
    });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ newPassword: "Password must be at least 8 characters" });
    const mismatch = await call(changePassword, "POST", "/api/settings/password", {
      sessionId: account.sessionId,
      body: { currentPassword: account.password, newPassword: "long-enough-1", confirmPassword: "long-enough-2" },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual({ confirmPassword: "Passwords don't match" });
    const missing = await call(changePassword, "POST", "/api/settings/password", { sessionId: account.sessionId, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.currentPassword).toBe("Current password is required");
    const still = await call(login, "POST", "/api/auth/login", { body: { email: account.email, password: account.password } });
    expect(still.status).toBe(200);
  });

  it("answers 401 without a session", async () => {
    const res = await call(changePassword, "POST", "/api/settings/password", {
      body: { currentPassword: "whatever1", newPassword: "second-pass-2", confirmPassword: "second-pass-2" },
    });
    expect(res.status).toBe(401);
  });
});

describe("/api/settings/notifications", () => {
  it("answers the spec's defaults before anything is saved", async () => {
    const account = await registerTestUser();
    const res = await call(getNotifications, "GET", "/api/settings/notifications", { sessionId: account.sessionId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ emailNotifications: false, callAlerts: true, systemUpdates: true, messageAlerts: true, voicemailAlerts: true, missedCallAlerts: true, urgentTaskAlerts: true, alertEmails: true });
  });

  it("saves a partial change per user and answers all three", async () => {
    const account = await registerTestUser();
    const other = await registerTestUser();
    const first = await call(putNotifications, "PUT", "/api/settings/notifications", {
      sessionId: account.sessionId,
      body: { emailNotifications: true },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ emailNotifications: true, callAlerts: true, systemUpdates: true, messageAlerts: true, voicemailAlerts: true, missedCallAlerts: true, urgentTaskAlerts: true, alertEmails: true });
    const second = await call(putNotifications, "PUT", "/api/settings/notifications", {
      sessionId: account.sessionId,
      body: { callAlerts: false, systemUpdates: false },
    });
    expect(second.body).toEqual({ emailNotifications: true, callAlerts: false, systemUpdates: false, messageAlerts: true, voicemailAlerts: true, missedCallAlerts: true, urgentTaskAlerts: true, alertEmails: true });
    const read = await call(getNotifications, "GET", "/api/settings/notifications", { sessionId: account.sessionId });
    expect(read.body).toEqual({ emailNotifications: true, callAlerts: false, systemUpdates: false, messageAlerts: true, voicemailAlerts: true, missedCallAlerts: true, urgentTaskAlerts: true, alertEmails: true });
    const theirs = await call(getNotifications, "GET", "/api/settings/notifications", { sessionId: other.sessionId });
    expect(theirs.body).toEqual({ emailNotifications: false, callAlerts: true, systemUpdates: true, messageAlerts: true, voicemailAlerts: true, missedCallAlerts: true, urgentTaskAlerts: true, alertEmails: true });
  });

  it("turns one alert off without touching the others (issue 30: each alert switchable)", async () => {
    const account = await registerTestUser();
    const res = await call(putNotifications, "PUT", "/api/settings/notifications", { sessionId: account.sessionId, body: { voicemailAlerts: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ voicemailAlerts: false, messageAlerts: true, missedCallAlerts: true, urgentTaskAlerts: true, alertEmails: true });
  });

  it("answers 400 naming a non-boolean field or an empty body", async () => {
    const account = await registerTestUser();
    const bad = await call(putNotifications, "PUT", "/api/settings/notifications", { sessionId: account.sessionId, body: { callAlerts: "off" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ callAlerts: "callAlerts must be true or false" });
    const empty = await call(putNotifications, "PUT", "/api/settings/notifications", { sessionId: account.sessionId, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toHaveProperty("body");
  });

  it("answers 401 without a session", async () => {
    expect((await call(getNotifications, "GET", "/api/settings/notifications")).status).toBe(401);
    expect((await call(putNotifications, "PUT", "/api/settings/notifications", { body: { callAlerts: false } })).status).toBe(401);
  });
});

describe("/api/settings/api-keys", () => {
  const envSource = (name: string) => (process.env[name] ? "environment" : "offline");
  const plaintexts = {
    anthropic: `sk-ant-api03-secret-${uniqueSuffix()}-9876`,
    elevenlabs: `sk_${randomHex(44)}5555`,
    deepgram: `${randomHex(36)}4444`,
    twilio: { accountSid: `AC${"0123456789abcdef".repeat(2)}`, authToken: `${randomHex(28)}3333` },
  };
  const allSecrets = [plaintexts.anthropic, plaintexts.elevenlabs, plaintexts.deepgram, plaintexts.twilio.authToken, plaintexts.twilio.accountSid];
  const responses: CallResult[] = [];
  const track = (res: CallResult) => {
    responses.push(res);
    return res;
  };

  afterAll(() => {
    // No answer of this block ever carried a secret.
    for (const res of responses) for (const secret of allSecrets) expect(res.text).not.toContain(secret);
  });

  it("starts with nothing set and the source in effect per provider", async () => {
    const account = await registerTestUser();
    const res = track(await call(getKeys, "GET", "/api/settings/api-keys", { sessionId: account.sessionId }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      anthropic: { set: false, hint: null, updatedAt: null, source: envSource("ANTHROPIC_API_KEY"), verification: null },
      elevenlabs: { set: false, hint: null, updatedAt: null, source: envSource("ELEVENLABS_API_KEY"), verification: null },
      deepgram: { set: false, hint: null, updatedAt: null, source: envSource("DEEPGRAM_API_KEY"), verification: null },
      twilio: {
        set: false,
        hint: null,
        accountSidHint: null,
        updatedAt: null,
        verification: null,
        source: process.env.TWILIO_ACCOUNT_SID && process.env.TWILIO_AUTH_TOKEN ? "environment" : "offline",
      },
    });
  });

  it("saves every key encrypted, shows only hints, and the providers resolve the organization's keys", async () => {
    const account = await registerTestUser();
    const res = track(await call(putKeys, "PUT", "/api/settings/api-keys", { sessionId: account.sessionId, body: plaintexts }));
    expect(res.status).toBe(200);
    expect(res.body.anthropic).toMatchObject({ set: true, hint: "…9876", source: "organization" });
    expect(res.body.elevenlabs).toMatchObject({ set: true, hint: "…5555", source: "organization" });
    expect(res.body.deepgram).toMatchObject({ set: true, hint: "…4444", source: "organization" });
    expect(res.body.twilio).toMatchObject({ set: true, hint: "…3333", accountSidHint: "…cdef", source: "organization" });
    expect(typeof res.body.anthropic.updatedAt).toBe("string");
    // No network at test time: every key is saved and shown "Not verified (offline)".
    for (const provider of ["anthropic", "elevenlabs", "deepgram", "twilio"]) {
      expect(res.body[provider].verification).toEqual({ status: "offline", message: null, checkedAt: null });
    }

    const db = await getDb();
    const rows = await db.select().from(providerCredentials).where(eq(providerCredentials.organizationId, account.organizationId));
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      for (const secret of allSecrets) expect(row.ciphertext).not.toContain(secret);
      expect(row.ciphertext.startsWith("v1.")).toBe(true);
      expect(row.updatedBy).toBe(account.id);
    }
    const byProvider = Object.fromEntries(rows.map((r) => [r.provider, r]));
    expect(JSON.parse(decryptSecret(byProvider.anthropic.ciphertext))).toEqual({ apiKey: plaintexts.anthropic });
    expect(JSON.parse(decryptSecret(byProvider.elevenlabs.ciphertext))).toEqual({ apiKey: plaintexts.elevenlabs });
    expect(JSON.parse(decryptSecret(byProvider.deepgram.ciphertext))).toEqual({ apiKey: plaintexts.deepgram });
    expect(JSON.parse(decryptSecret(byProvider.twilio.ciphertext))).toEqual(plaintexts.twilio);

    expect(await resolveCredential(db, account.organizationId, "anthropic")).toEqual({
      source: "organization",
      secret: { apiKey: plaintexts.anthropic },
    });
    expect(await resolveCredential(db, account.organizationId, "twilio")).toEqual({ source: "organization", secret: plaintexts.twilio });

    const read = track(await call(getKeys, "GET", "/api/settings/api-keys", { sessionId: account.sessionId }));
    expect(read.body).toEqual(res.body);

    // Organization-wide, and only for this organization.
    const stranger = await registerTestUser();
    const theirs = track(await call(getKeys, "GET", "/api/settings/api-keys", { sessionId: stranger.sessionId }));
    expect(theirs.body.anthropic.set).toBe(false);
    expect((await resolveCredential(db, stranger.organizationId, "anthropic"))?.source ?? "offline").toBe(envSource("ANTHROPIC_API_KEY"));
  });

  it("replaces one key and keeps the others", async () => {
    const account = await registerTestUser();
    track(await call(putKeys, "PUT", "/api/settings/api-keys", { sessionId: account.sessionId, body: plaintexts }));
    const replacement = `sk-ant-replaced-${uniqueSuffix()}-1212`;
    const res = track(await call(putKeys, "PUT", "/api/settings/api-keys", { sessionId: account.sessionId, body: { anthropic: replacement } }));
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(replacement);
    expect(res.body.anthropic.hint).toBe("…1212");
    expect(res.body.deepgram.hint).toBe("…4444");
    const db = await getDb();
    expect((await resolveCredential(db, account.organizationId, "anthropic"))?.secret).toEqual({ apiKey: replacement });
    const rows = await db
      .select()
      .from(providerCredentials)
      .where(and(eq(providerCredentials.organizationId, account.organizationId), eq(providerCredentials.provider, "anthropic")));
    expect(rows).toHaveLength(1);
  });

  it("refuses keys that do not look like the provider's, naming the field", async () => {
    const account = await registerTestUser();
    const res = track(
      await call(putKeys, "PUT", "/api/settings/api-keys", {
        sessionId: account.sessionId,
        body: { anthropic: "my-openai-key-123456", deepgram: "not-a-deepgram-key-at-all" },
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      anthropic: "Anthropic API keys start with sk-ant-",
      deepgram: "Deepgram API keys are 40 letters (a–f) and digits",
    });
  });

  it("records the provider's answer: verified, or its refusal with its own words", async () => {
    const server = http.createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      if (req.headers["x-api-key"] === plaintexts.anthropic) res.writeHead(200).end("{}");
      else res.writeHead(401).end(JSON.stringify({ detail: { status: "invalid_api_key", message: "Invalid API key" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const fake = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const account = await registerTestUser();
      const db = await getDb();
      await saveApiKeys(db, account.organizationId, account.id, { anthropic: plaintexts.anthropic, elevenlabs: plaintexts.elevenlabs }, {
        baseUrls: { anthropic: fake, elevenlabs: fake },
      });
      const read = track(await call(getKeys, "GET", "/api/settings/api-keys", { sessionId: account.sessionId }));
      expect(read.body.anthropic.verification).toMatchObject({ status: "verified", message: null });
      expect(typeof read.body.anthropic.verification.checkedAt).toBe("string");
      expect(read.body.elevenlabs.verification).toEqual({ status: "refused", message: "Invalid API key", checkedAt: null });
      const other = await registerTestUser();
      const theirs = track(await call(getKeys, "GET", "/api/settings/api-keys", { sessionId: other.sessionId }));
      expect(theirs.body.anthropic.verification).toBeNull();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("answers 400 naming twilio.accountSid, a key that is too short, and an empty body", async () => {
    const account = await registerTestUser();
    const sid = track(
      await call(putKeys, "PUT", "/api/settings/api-keys", {
        sessionId: account.sessionId,
        body: { twilio: { accountSid: "XX123", authToken: plaintexts.twilio.authToken } },
      }),
    );
    expect(sid.status).toBe(400);
    expect(sid.body.errors).toEqual({ "twilio.accountSid": "Account SID must start with AC and be 34 characters" });
    const tooLong = track(
      await call(putKeys, "PUT", "/api/settings/api-keys", {
        sessionId: account.sessionId,
        body: { twilio: { accountSid: `${plaintexts.twilio.accountSid}0`, authToken: plaintexts.twilio.authToken } },
      }),
    );
    expect(tooLong.body.errors).toHaveProperty(["twilio.accountSid"]);
    const short = track(await call(putKeys, "PUT", "/api/settings/api-keys", { sessionId: account.sessionId, body: { deepgram: "abc" } }));
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ deepgram: "Deepgram API key looks too short" });
    const empty = track(await call(putKeys, "PUT", "/api/settings/api-keys", { sessionId: account.sessionId, body: {} }));
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ body: "Enter at least one API key to save" });
    const db = await getDb();
    const rows = await db.select().from(providerCredentials).where(eq(providerCredentials.organizationId, account.organizationId));
    expect(rows).toHaveLength(0);
  });

  it("DELETE /api/settings/api-keys/{provider} removes one key; the provider falls back", async () => {
    const account = await registerTestUser();
    track(await call(putKeys, "PUT", "/api/settings/api-keys", { sessionId: account.sessionId, body: plaintexts }));
    const res = track(
      await call(removeKey, "DELETE", "/api/settings/api-keys/deepgram", { sessionId: account.sessionId, params: { provider: "deepgram" } }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const read = track(await call(getKeys, "GET", "/api/settings/api-keys", { sessionId: account.sessionId }));
    expect(read.body.deepgram).toEqual({ set: false, hint: null, updatedAt: null, source: envSource("DEEPGRAM_API_KEY"), verification: null });
    expect(read.body.anthropic.set).toBe(true);
    const db = await getDb();
    expect((await resolveCredential(db, account.organizationId, "deepgram"))?.source ?? "offline").toBe(envSource("DEEPGRAM_API_KEY"));
    const unknown = track(await call(removeKey, "DELETE", "/api/settings/api-keys/stripe", { sessionId: account.sessionId, params: { provider: "stripe" } }));
    expect(unknown.status).toBe(404);
  });

  it("another organization's DELETE does not touch this organization's key", async () => {
    const account = await registerTestUser();
    const stranger = await registerTestUser();
    track(await call(putKeys, "PUT", "/api/settings/api-keys", { sessionId: account.sessionId, body: { anthropic: plaintexts.anthropic } }));
    track(await call(removeKey, "DELETE", "/api/settings/api-keys/anthropic", { sessionId: stranger.sessionId, params: { provider: "anthropic" } }));
    const db = await getDb();
    expect((await resolveCredential(db, account.organizationId, "anthropic"))?.source).toBe("organization");
  });

  it("answers 401 without a session", async () => {
    expect((await call(getKeys, "GET", "/api/settings/api-keys")).status).toBe(401);
    expect((await call(putKeys, "PUT", "/api/settings/api-keys", { body: { anthropic: plaintexts.anthropic } })).status).toBe(401);
    expect((await call(removeKey, "DELETE", "/api/settings/api-keys/anthropic", { params: { provider: "anthropic" } })).status).toBe(401);
  });
});
