/**
 * Issue 31: the OAuth cards. Connect → authorize (the fakes auto-approve) → callback, then calls made
 * through the simulated carrier reach the fake providers through the job runner: HubSpot (contact by
 * phone + call engagement), "Add to Slack" (chat.postMessage to the picked channel) and Google
 * Calendar (free/busy and events with the OAuth token). Also: PKCE and state checks, token refresh,
 * a revoked grant ("Reconnect" + an in-app alert), 429 with Retry-After, an outage (retried, shown on
 * the card, nothing lost), Disconnect revoking the grant, and cards without a configured provider.
 */
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { GET as list } from "@/app/api/integrations/route";
import { POST as connect } from "@/app/api/integrations/[slug]/connect/route";
import { GET as callback } from "@/app/api/integrations/[slug]/callback/route";
import { POST as disconnect } from "@/app/api/integrations/[slug]/disconnect/route";
import { GET as options } from "@/app/api/integrations/[slug]/options/route";
import { POST as settings } from "@/app/api/integrations/[slug]/settings/route";
import { POST as sync } from "@/app/api/integrations/[slug]/sync/route";
import { GET as deliveries } from "@/app/api/integrations/[slug]/deliveries/route";
import { calls, integrationConnections, notifications, oauthStates, webhookDeliveries } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { reconnectNoticeJob, refreshExpiringGrants } from "@/lib/channels/integrations/oauth";
import { deliverWebhookJob, processDueDeliveries } from "@/lib/channels/integrations/webhooks";
import { getCalendarConnection } from "@/lib/workspace/provider-selection/calendar";
import { finishCallJob } from "@/lib/channels/phone-line/voice/post-call";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar-server";
import { startFakeGoogleOAuth, type FakeGoogleOAuth } from "../fakes/google-oauth-server";
import { startFakeHubSpot, type FakeHubSpot } from "../fakes/hubspot-server";
import { startFakeSlack, type FakeSlack } from "../fakes/slack-server";
import { startFakeNotion, type FakeNotion } from "../fakes/notion-server";
import { startFakeAirtable, type FakeAirtable } from "../fakes/airtable-server";
import { startFakeAsana, type FakeAsana } from "../fakes/asana-server";
import { startFakeGmail, type FakeGmail } from "../fakes/gmail-server";
import { emails, notificationPreferences } from "@/db/schema";
import { pollAsanaCompletions } from "@/lib/channels/integrations/asana-sync";
import { createTask } from "@/lib/phone/callers/tasks";
import { tasks } from "@/db/schema";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";
import { placeSimulatedCall } from "../helpers/simulated-call";
import { runJobsUntil } from "../helpers/jobs";
import { business, type Business } from "../helpers/phone";

jest.setTimeout(120_000);

let hubspot: FakeHubSpot;
let slack: FakeSlack;
let calendar: FakeGoogleCalendar;
let google: FakeGoogleOAuth;
let notion: FakeNotion;
let airtable: FakeAirtable;
let asana: FakeAsana;
let gmail: FakeGmail;
const mutableEnv = env as unknown as Record<string, string | undefined>;
const saved: Record<string, string | undefined> = {};

function setEnv(values: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(values)) {
    if (!(k in saved)) saved[k] = mutableEnv[k];
    mutableEnv[k] = v;
  }
}

beforeAll(async () => {
  [hubspot, slack, calendar] = await Promise.all([startFakeHubSpot(), startFakeSlack(), startFakeGoogleCalendar()]);
  google = await startFakeGoogleOAuth(calendar);
  [notion, airtable, asana] = await Promise.all([startFakeNotion(), startFakeAirtable(), startFakeAsana()]);
  gmail = await startFakeGmail(google.oauth);
  calendar.addCalendar("primary");
  calendar.addCalendar("front-desk@example.com");
  setEnv({
    HUBSPOT_CLIENT_ID: hubspot.oauth.clientId,
    HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret,
    HUBSPOT_OAUTH_BASE: hubspot.url,
    HUBSPOT_API_BASE: hubspot.url,
    SLACK_CLIENT_ID: slack.oauth.clientId,
    SLACK_CLIENT_SECRET: slack.oauth.clientSecret,
    SLACK_OAUTH_BASE: slack.url,
    SLACK_API_BASE: slack.url,
    GOOGLE_CLIENT_ID: google.oauth.clientId,
    GOOGLE_CLIENT_SECRET: google.oauth.clientSecret,
    GOOGLE_OAUTH_BASE: google.url,
    GOOGLE_CALENDAR_API_URL: calendar.url,
    GOOGLE_API_BASE: gmail.url,
    NOTION_CLIENT_ID: notion.oauth.clientId,
    NOTION_CLIENT_SECRET: notion.oauth.clientSecret,
    NOTION_OAUTH_BASE: notion.url,
    NOTION_API_BASE: notion.url,
    AIRTABLE_CLIENT_ID: airtable.oauth.clientId,
    AIRTABLE_CLIENT_SECRET: airtable.oauth.clientSecret,
    AIRTABLE_OAUTH_BASE: airtable.url,
    AIRTABLE_API_BASE: airtable.url,
    ASANA_CLIENT_ID: asana.oauth.clientId,
    ASANA_CLIENT_SECRET: asana.oauth.clientSecret,
    ASANA_OAUTH_BASE: asana.url,
    ASANA_API_BASE: asana.url,
  });
});

afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) mutableEnv[k] = v;
  await Promise.all([hubspot.close(), slack.close(), google.close(), calendar.close(), notion.close(), airtable.close(), asana.close(), gmail.close()]);
  await closeDb();
});

const post = (handler: typeof connect, slug: string, action: string, account: TestAccount, body?: unknown) =>
  call(handler, "POST", `/api/integrations/${slug}/${action}`, { sessionId: account.sessionId, params: { slug }, body });

async function view(account: TestAccount, slug: string) {
  const res = await call(list, "GET", "/api/integrations", { sessionId: account.sessionId });
  return res.body.find((i: { slug: string }) => i.slug === slug);
}

/** Connect → the provider's page (auto-approved) → the callback, as the browser would go. */
async function authorize(account: TestAccount, slug: string) {
  const started = await post(connect, slug, "connect", account, {});
  expect(started.status).toBe(200);
  const authorizeUrl = new URL(started.body.authorizeUrl);
  const consent = await fetch(authorizeUrl, { redirect: "manual" });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get("location")!);
  const done = await call(callback, "GET", `${back.pathname}${back.search}`, { sessionId: account.sessionId, params: { slug } });
  return { authorizeUrl, back, done };
}

async function placeCall(biz: Business, from: string, lines: string[]) {
  const { call: simulated } = await placeSimulatedCall(biz, from, lines);
  await runJobsUntil([finishCallJob], async () => {
    const [row] = await (await getDb()).select().from(calls).where(eq(calls.providerCallSid, simulated.callSid));
    return Boolean(row?.notifiedAt);
  });
  const [row] = await (await getDb()).select().from(calls).where(eq(calls.providerCallSid, simulated.callSid));
  return row;
}

async function deliveriesOf(account: TestAccount, slug: string) {
  const res = await call(deliveries, "GET", `/api/integrations/${slug}/deliveries`, { sessionId: account.sessionId, params: { slug } });
  expect(res.status).toBe(200);
  return res.body as { event: string; status: string; attempts: number; lastStatusCode: number | null; lastError: string | null; nextAttemptAt: string | null }[];
}

describe("the OAuth connect flow", () => {
  it("answers the provider's authorization URL with an S256 code challenge and a state", async () => {
    const a = await registerTestUser();
    const res = await post(connect, "hubspot", "connect", a, {});
    expect(res.status).toBe(200);
    const url = new URL(res.body.authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${hubspot.url}/oauth/authorize`);
    expect(url.searchParams.get("client_id")).toBe(hubspot.oauth.clientId);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("redirect_uri")).toBe(`${env.PUBLIC_URL}/api/integrations/hubspot/callback`);
    expect(url.searchParams.get("scope")).toContain("crm.objects.contacts.write");
  });

  it("without the provider's client id and secret answers a 4xx naming the settings, and the card is not connectable", async () => {
    const a = await registerTestUser();
    setEnv({ HUBSPOT_CLIENT_SECRET: undefined });
    try {
      const res = await post(connect, "hubspot", "connect", a, {});
      expect(res.status).toBe(409);
      expect(res.body.message).toContain("HUBSPOT_CLIENT_SECRET");
      const card = await view(a, "hubspot");
      expect(card).toMatchObject({ connected: false, available: false, missingSettings: ["HUBSPOT_CLIENT_SECRET"] });
    } finally {
      setEnv({ HUBSPOT_CLIENT_SECRET: hubspot.oauth.clientSecret });
    }
  });

  it("a row from the days of \"marked as connected\" (no grant) never reads connected", async () => {
    const a = await registerTestUser();
    const db = await getDb();
    for (const integration of ["hubspot", "notion", "airtable", "gmail", "asana"]) {
      await db.insert(integrationConnections).values({ id: crypto.randomUUID(), organizationId: a.organizationId, integration, connected: true, config: { syncing: false } });
      expect(await view(a, integration)).toMatchObject({ connected: false, available: true, kind: "oauth" });
    }
  });

  it("uses a state once, only for the user and organization that started it, and not after it expires", async () => {
    const a = await registerTestUser();
    const b = await registerTestUser();
    // Another user cannot finish a's authorization.
    const started = await post(connect, "hubspot", "connect", a, {});
    const consent = await fetch(started.body.authorizeUrl, { redirect: "manual" });
    const back = new URL(consent.headers.get("location")!);
    const stolen = await call(callback, "GET", `${back.pathname}${back.search}`, { sessionId: b.sessionId, params: { slug: "hubspot" } });
    expect(stolen.status).toBe(303);
    expect(new URL(stolen.headers.get("location")!).searchParams.get("error")).toMatch(/expired or was already used/);
    expect((await view(b, "hubspot")).connected).toBe(false);
    // a finishes it once; a replay of the same answer is refused.
    const first = await call(callback, "GET", `${back.pathname}${back.search}`, { sessionId: a.sessionId, params: { slug: "hubspot" } });
    expect(new URL(first.headers.get("location")!).searchParams.get("connected")).toBe("hubspot");
    const replay = await call(callback, "GET", `${back.pathname}${back.search}`, { sessionId: a.sessionId, params: { slug: "hubspot" } });
    expect(new URL(replay.headers.get("location")!).searchParams.get("error")).toMatch(/expired or was already used/);
    // An expired state is refused.
    const late = await post(connect, "hubspot", "connect", b, {});
    const state = new URL(late.body.authorizeUrl).searchParams.get("state")!;
    await (await getDb()).update(oauthStates).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oauthStates.id, state));
    const lateConsent = await fetch(late.body.authorizeUrl, { redirect: "manual" });
    const lateBack = new URL(lateConsent.headers.get("location")!);
    const expired = await call(callback, "GET", `${lateBack.pathname}${lateBack.search}`, { sessionId: b.sessionId, params: { slug: "hubspot" } });
    expect(new URL(expired.headers.get("location")!).searchParams.get("error")).toMatch(/expired/);
    expect((await view(b, "hubspot")).connected).toBe(false);
  });

  it("sends the PKCE verifier with the code, and stores the tokens encrypted", async () => {
    const a = await registerTestUser();
    const before = hubspot.oauth.tokenRequests.length;
    const { done } = await authorize(a, "hubspot");
    expect(new URL(done.headers.get("location")!).searchParams.get("connected")).toBe("hubspot");
    const exchange = hubspot.oauth.tokenRequests.slice(before).find((r) => r.grant_type === "authorization_code")!;
    expect(exchange.code_verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    const [row] = await (await getDb())
      .select()
      .from(integrationConnections)
      .where(and(eq(integrationConnections.organizationId, a.organizationId), eq(integrationConnections.integration, "hubspot")));
    expect(row.connected).toBe(true);
    expect(row.secretCiphertext).toBeTruthy();
    expect(row.secretCiphertext).not.toContain("at-");
    expect(row.secretCiphertext).not.toContain("rt-");
    expect(await view(a, "hubspot")).toMatchObject({ connected: true, needsReconnect: false, config: { account: "fake-portal.hubspot.com" } });
  });
});

describe("HubSpot", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("HubSpot Dental");
    const { done } = await authorize(biz.account, "hubspot");
    expect(done.status).toBe(303);
  });

  it("a call through the simulated carrier finds or creates the contact by phone and logs the call on it", async () => {
    const caller = `+1555${String(Date.now()).slice(-7)}`;
    const row = await placeCall(biz, caller, ["What are your opening hours?", "Thanks, goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => hubspot.calls.some((c) => c.properties.hs_call_body?.includes(row.id)));
    const contact = hubspot.contacts.find((c) => c.properties.phone === caller)!;
    expect(contact).toBeDefined();
    const logged = hubspot.calls.find((c) => c.properties.hs_call_body.includes(row.id))!;
    expect(logged.properties).toMatchObject({
      hs_call_direction: "INBOUND",
      hs_call_duration: String(row.durationSeconds * 1000),
      hs_call_status: "COMPLETED",
      hs_call_from_number: caller,
      hs_call_to_number: biz.phoneNumber,
      hs_timestamp: row.startedAt.toISOString(),
    });
    expect(logged.properties.hs_call_body).toContain(row.summary!);
    expect(logged.properties.hs_call_body).toContain("Outcome: Answered by the assistant");
    expect(logged.associations).toEqual([{ to: { id: contact.id }, types: [{ associationCategory: "HUBSPOT_DEFINED", associationTypeId: 194 }] }]);
    const log = await deliveriesOf(biz.account, "hubspot");
    expect(log[0]).toMatchObject({ event: "call.completed", status: "delivered", attempts: 1 });

    // The same caller again: the same contact, a second engagement.
    const again = await placeCall(biz, caller, ["Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => hubspot.calls.some((c) => c.properties.hs_call_body?.includes(again.id)));
    expect(hubspot.contacts.filter((c) => c.properties.phone === caller)).toHaveLength(1);
  });

  it("Sync now sends the last 30 days of calls again, with the recording link", async () => {
    const db = await getDb();
    const caller = `+1555${String(Date.now() + 7).slice(-7)}`;
    const row = await placeCall(biz, caller, ["Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => hubspot.calls.some((c) => c.properties.hs_call_body?.includes(row.id)));
    // The recording arrives after the call was logged: Sync now brings it to HubSpot.
    await db.update(calls).set({ recordingUrl: `/api/recordings/${row.id}` }).where(eq(calls.id, row.id));
    const res = await post(sync, "hubspot", "sync", biz.account);
    expect(res.status).toBe(200);
    expect(res.body.queued).toBeGreaterThanOrEqual(1);
    await runJobsUntil([deliverWebhookJob], async () => hubspot.calls.some((c) => c.properties.hs_call_recording_url));
    await runJobsUntil([deliverWebhookJob], async () => (await deliveriesOf(biz.account, "hubspot")).every((d) => d.status !== "pending"));
    const synced = hubspot.calls.filter((c) => c.properties.hs_call_body.includes(row.id));
    expect(synced).toHaveLength(1); // logged once, then updated by the sync: not a second engagement
    expect(synced[0].properties.hs_call_recording_url).toBe(`${env.PUBLIC_URL}/api/recordings/${row.id}`);
    // The calls logged before the sync were updated in place, not logged again.
    const bodies = hubspot.calls.map((c) => /call=([\w-]+)/.exec(c.properties.hs_call_body)?.[1]);
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it("refreshes the access token when the provider answers 401 for it, and the job keeps working", async () => {
    const before = hubspot.oauth.tokenRequests.filter((r) => r.grant_type === "refresh_token").length;
    hubspot.oauth.expireAccessTokens();
    const row = await placeCall(biz, `+1555${String(Date.now() + 11).slice(-7)}`, ["Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => hubspot.calls.some((c) => c.properties.hs_call_body?.includes(row.id)));
    expect(hubspot.oauth.tokenRequests.filter((r) => r.grant_type === "refresh_token").length).toBe(before + 1);
  });

  it("the refresh job renews tokens that are about to expire", async () => {
    const before = hubspot.oauth.tokenRequests.filter((r) => r.grant_type === "refresh_token").length;
    const result = await refreshExpiringGrants(await getDb(), 24 * 3600_000);
    expect(result.refreshed).toBeGreaterThanOrEqual(1);
    expect(hubspot.oauth.tokenRequests.filter((r) => r.grant_type === "refresh_token").length).toBeGreaterThan(before);
  });

  it("waits as long as a 429's Retry-After says, then delivers", async () => {
    const db = await getDb();
    hubspot.failNext(429, 1, { "retry-after": "600" });
    const row = await placeCall(biz, `+1555${String(Date.now() + 13).slice(-7)}`, ["Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => (await deliveriesOf(biz.account, "hubspot"))[0].attempts >= 1);
    const [first] = await deliveriesOf(biz.account, "hubspot");
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 429 });
    expect(Date.parse(first.nextAttemptAt!) - Date.now()).toBeGreaterThan(590_000);
    expect(hubspot.calls.some((c) => c.properties.hs_call_body.includes(row.id))).toBe(false);
    await processDueDeliveries(db, new Date(Date.now() + 601_000));
    expect(hubspot.calls.some((c) => c.properties.hs_call_body.includes(row.id))).toBe(true);
  });

  it("an outage is retried, shown on the card, and nothing is lost", async () => {
    const db = await getDb();
    hubspot.failNext(503, 2);
    const row = await placeCall(biz, `+1555${String(Date.now() + 17).slice(-7)}`, ["Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => (await deliveriesOf(biz.account, "hubspot"))[0].attempts >= 1);
    const card = await view(biz.account, "hubspot");
    expect(card.connected).toBe(true);
    expect(card.lastDelivery).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 503 });
    expect(card.lastDelivery.lastError).toMatch(/HTTP 503/);
    await processDueDeliveries(db, new Date(Date.now() + 31_000));
    await processDueDeliveries(db, new Date(Date.now() + 3 * 60_000));
    expect(hubspot.calls.filter((c) => c.properties.hs_call_body.includes(row.id))).toHaveLength(1);
    expect((await view(biz.account, "hubspot")).lastDelivery).toMatchObject({ status: "delivered", attempts: 3 });
  });
});

describe("a revoked grant and Disconnect", () => {
  it("a grant revoked at the provider turns the card to Reconnect and alerts the owner in the app", async () => {
    const biz = await business("Revoked Dental");
    await authorize(biz.account, "hubspot");
    hubspot.oauth.revokeAll();
    hubspot.oauth.expireAccessTokens();
    const row = await placeCall(biz, `+1555${String(Date.now() + 19).slice(-7)}`, ["Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => (await deliveriesOf(biz.account, "hubspot"))[0]?.status === "failed");
    const [failed] = await deliveriesOf(biz.account, "hubspot");
    expect(failed.lastError).toMatch(/Reconnect HubSpot/);
    const card = await view(biz.account, "hubspot");
    expect(card).toMatchObject({ connected: false, needsReconnect: true });
    // The owners' notice is a job queued with the mark (lib/platform/outbound/oauth-grants.ts).
    await runJobsUntil([reconnectNoticeJob], async () => (await (await getDb()).select().from(notifications).where(and(eq(notifications.organizationId, biz.account.organizationId), eq(notifications.kind, "integration.reconnect")))).length > 0);
    const alerts = await (await getDb()).select().from(notifications).where(and(eq(notifications.organizationId, biz.account.organizationId), eq(notifications.kind, "integration.reconnect")));
    expect(alerts.length).toBeGreaterThanOrEqual(1);
    expect(alerts[0]).toMatchObject({ title: "Reconnect HubSpot", link: "/integrations" });
    // Reconnecting brings it back.
    await authorize(biz.account, "hubspot");
    expect(await view(biz.account, "hubspot")).toMatchObject({ connected: true, needsReconnect: false });
    expect(row.id).toBeTruthy();
  });

  it("Disconnect revokes the grant at the provider and forgets the tokens", async () => {
    const a = await registerTestUser();
    await authorize(a, "hubspot");
    const [row] = await (await getDb())
      .select()
      .from(integrationConnections)
      .where(and(eq(integrationConnections.organizationId, a.organizationId), eq(integrationConnections.integration, "hubspot")));
    const revokedBefore = hubspot.oauth.revocations.length;
    const res = await post(disconnect, "hubspot", "disconnect", a);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ connected: false, revoked: true });
    expect(hubspot.oauth.revocations.length).toBe(revokedBefore + 1);
    expect(hubspot.oauth.revocations.at(-1)).toMatch(/^rt-/);
    const [after] = await (await getDb()).select().from(integrationConnections).where(eq(integrationConnections.id, row.id));
    expect(after).toMatchObject({ connected: false, secretCiphertext: null });
    expect((await view(a, "hubspot")).needsReconnect).toBe(false);
  });
});

describe("Add to Slack", () => {
  it("connects, lists channels for the picker, and posts the call's notice to the picked channel", async () => {
    const biz = await business("Slack Dental");
    const { authorizeUrl, done } = await authorize(biz.account, "slack");
    expect(authorizeUrl.searchParams.get("scope")).toBe("chat:write,channels:read,groups:read");
    expect(new URL(done.headers.get("location")!).searchParams.get("connected")).toBe("slack");
    expect(await view(biz.account, "slack")).toMatchObject({ connected: true, config: { auth: "oauth", team: "Fake Dental" } });

    const picker = await call(options, "GET", "/api/integrations/slack/options", { sessionId: biz.account.sessionId, params: { slug: "slack" } });
    expect(picker.body).toEqual([
      { id: "C0GENERAL", name: "#general" },
      { id: "C0FRONTDESK", name: "#front-desk" },
    ]);
    const bad = await post(settings, "slack", "settings", biz.account, { channelId: "C0NOPE" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("channelId");
    const saved = await post(settings, "slack", "settings", biz.account, { channelId: "C0FRONTDESK" });
    expect(saved.status).toBe(200);
    expect(saved.body.config).toMatchObject({ channelId: "C0FRONTDESK", channelName: "front-desk" });

    const before = slack.posted.length;
    slack.failNext(429, 1, { "retry-after": "45" });
    const row = await placeCall(biz, `+1555${String(Date.now() + 23).slice(-7)}`, ["What are your opening hours?", "Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => (await deliveriesOf(biz.account, "slack"))[0]?.attempts >= 1);
    const [limited] = await deliveriesOf(biz.account, "slack");
    expect(limited).toMatchObject({ status: "pending", lastStatusCode: 429 });
    expect(Date.parse(limited.nextAttemptAt!) - Date.now()).toBeGreaterThan(40_000);
    await processDueDeliveries(await getDb(), new Date(Date.now() + 46_000));
    const posted = slack.posted.slice(before);
    expect(posted).toHaveLength(1);
    expect(posted[0].channel).toBe("C0FRONTDESK");
    expect(posted[0].text.length).toBeGreaterThan(10);
    expect(row.id).toBeTruthy();

    const off = await post(disconnect, "slack", "disconnect", biz.account);
    expect(off.body).toMatchObject({ connected: false, revoked: true });
    expect(slack.oauth.liveGrants).toBe(0);
  });
});

describe("Notion and Airtable", () => {
  it("Notion: a page per call in the picked database, with caller, summary, action items, outcome and the link back", async () => {
    const biz = await business("Notion Dental");
    await authorize(biz.account, "notion");
    expect(await view(biz.account, "notion")).toMatchObject({ connected: true, config: { workspace: "Fake Dental HQ" } });
    // A call before the database is picked waits (retried), it is not lost.
    const early = await placeCall(biz, `+1555${String(Date.now() + 29).slice(-7)}`, ["Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => (await deliveriesOf(biz.account, "notion"))[0]?.attempts >= 1);
    expect((await deliveriesOf(biz.account, "notion"))[0]).toMatchObject({ status: "pending", lastError: "Pick the database on the Notion card first" });

    const picker = await call(options, "GET", "/api/integrations/notion/options", { sessionId: biz.account.sessionId, params: { slug: "notion" } });
    expect(picker.body).toEqual([{ id: notion.databases[0].id, name: "Calls" }]);
    expect((await post(settings, "notion", "settings", biz.account, { databaseId: "not-shared" })).status).toBe(400);
    expect((await post(settings, "notion", "settings", biz.account, { databaseId: notion.databases[0].id })).status).toBe(200);
    await processDueDeliveries(await getDb(), new Date(Date.now() + 31_000));
    expect(notion.pages.some((p) => JSON.stringify(p.children).includes(early.id))).toBe(true);

    const caller = `+1555${String(Date.now() + 31).slice(-7)}`;
    const row = await placeCall(biz, caller, ["What are your opening hours?", "Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => notion.pages.some((p) => JSON.stringify(p.children).includes(row.id)));
    const page = notion.pages.find((p) => JSON.stringify(p.children).includes(row.id))!;
    expect(page.parent.database_id).toBe(notion.databases[0].id);
    expect(page.properties.Name).toEqual({ title: [{ type: "text", text: { content: caller } }] });
    expect(page.properties.Phone).toEqual({ phone_number: caller });
    expect(page.properties.Summary).toEqual({ rich_text: [{ type: "text", text: { content: row.summary } }] });
    expect(page.properties.Outcome).toEqual({ select: { name: "Answered by the assistant" } });
    expect(page.properties.Link).toEqual({ url: `${env.PUBLIC_URL}/call-history?call=${row.id}` });
    expect(JSON.stringify(page.children)).toContain(row.summary!);
    for (const item of row.actionItems) expect(page.children).toContainEqual({ object: "block", type: "to_do", to_do: { rich_text: [{ type: "text", text: { content: item } }], checked: false } });
    expect((await deliveriesOf(biz.account, "notion"))[0]).toMatchObject({ status: "delivered" });

    const off = await post(disconnect, "notion", "disconnect", biz.account);
    expect(off.body).toMatchObject({ connected: false, revoked: true });
  });

  it("Airtable: a record per call in the picked base and table, with the same fields", async () => {
    const biz = await business("Airtable Dental");
    const { authorizeUrl } = await authorize(biz.account, "airtable");
    expect(authorizeUrl.searchParams.get("scope")).toBe("data.records:write schema.bases:read");
    const picker = await call(options, "GET", "/api/integrations/airtable/options", { sessionId: biz.account.sessionId, params: { slug: "airtable" } });
    expect(picker.body).toEqual([{ id: "appFAKEFRONTDESK/tblCALLS0000001", name: "Front desk › Calls" }]);
    const saved = await post(settings, "airtable", "settings", biz.account, { tableId: "appFAKEFRONTDESK/tblCALLS0000001" });
    expect(saved.status).toBe(200);
    expect(saved.body.config).toMatchObject({ tableId: "appFAKEFRONTDESK/tblCALLS0000001", targetName: "Front desk › Calls" });

    const caller = `+1555${String(Date.now() + 37).slice(-7)}`;
    const row = await placeCall(biz, caller, ["What are your opening hours?", "Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => airtable.records.some((r) => r.fields.Link === `${env.PUBLIC_URL}/call-history?call=${row.id}`));
    const record = airtable.records.find((r) => r.fields.Link === `${env.PUBLIC_URL}/call-history?call=${row.id}`)!;
    expect(record.fields).toMatchObject({
      Caller: caller,
      Phone: caller,
      Summary: row.summary,
      Outcome: "Answered by the assistant",
      Date: row.startedAt.toISOString(),
    });
    if (row.actionItems.length) expect(record.fields["Action items"]).toBe(row.actionItems.join("\n"));
    // The fields the table lacks (Duration, Direction…) are left out rather than refused.
    expect(Object.keys(record.fields).every((k) => ["Caller", "Phone", "Summary", "Action items", "Outcome", "Link", "Date"].includes(k))).toBe(true);
  });
});

describe("Asana", () => {
  it("each receptionist task becomes an Asana task in the picked project, and completing it there completes it here", async () => {
    const biz = await business("Asana Dental");
    await authorize(biz.account, "asana");
    const picker = await call(options, "GET", "/api/integrations/asana/options", { sessionId: biz.account.sessionId, params: { slug: "asana" } });
    expect(picker.body).toEqual([{ id: "1300000000000001", name: "Fake Dental › Front desk" }]);
    expect((await post(settings, "asana", "settings", biz.account, { projectId: "1300000000000001" })).status).toBe(200);

    const db = await getDb();
    const caller = `+1555${String(Date.now() + 41).slice(-7)}`;
    const row = await placeCall(biz, caller, ["Goodbye!"]);
    const sourceKey = `call:${row.id}:callback`;
    expect(await createTask(db, { organizationId: biz.account.organizationId, kind: "callback", title: `Call back ${caller}: they asked for a call back`, detail: "About a quote", contactNumber: caller, callId: row.id, sourceKey })).toBe(true);
    await runJobsUntil([deliverWebhookJob], async () => asana.tasks.some((t) => t.name.includes(caller)));
    const made = asana.tasks.find((t) => t.name.includes(caller))!;
    expect(made).toMatchObject({ name: `Call back ${caller}: they asked for a call back`, projects: ["1300000000000001"], completed: false });
    expect(made.notes).toContain("About a quote");
    expect(made.notes).toContain(`${env.PUBLIC_URL}/call-history?call=${row.id}`);

    // Not completed in Asana: nothing changes here.
    await pollAsanaCompletions(db);
    const [open] = await db.select().from(tasks).where(and(eq(tasks.organizationId, biz.account.organizationId), eq(tasks.sourceKey, sourceKey)));
    expect(open.status).toBe("open");
    asana.complete(made.gid);
    const polled = await pollAsanaCompletions(db);
    expect(polled.completed).toBeGreaterThanOrEqual(1);
    const [done] = await db.select().from(tasks).where(eq(tasks.id, open.id));
    expect(done.status).toBe("done");
    expect(done.doneAt).toBeInstanceOf(Date);

    const off = await post(disconnect, "asana", "disconnect", biz.account);
    expect(off.body).toMatchObject({ connected: false, revoked: true });
  });
});

describe("Gmail", () => {
  it("sends the owner's alert about a call from the owner's Gmail instead of the server's mail", async () => {
    const biz = await business("Gmail Dental");
    const { authorizeUrl } = await authorize(biz.account, "gmail");
    expect(authorizeUrl.searchParams.get("scope")).toBe("https://www.googleapis.com/auth/gmail.send");
    const db = await getDb();
    await db
      .insert(notificationPreferences)
      .values({ userId: biz.account.id, emailNotifications: true, callAlerts: true, systemUpdates: true })
      .onConflictDoUpdate({ target: notificationPreferences.userId, set: { emailNotifications: true, callAlerts: true } });

    const caller = `+1555${String(Date.now() + 43).slice(-7)}`;
    const row = await placeCall(biz, caller, ["What are your opening hours?", "Goodbye!"]);
    await runJobsUntil([deliverWebhookJob], async () => gmail.sent.some((m) => m.headers.to === biz.account.email));
    const message = gmail.sent.find((m) => m.headers.to === biz.account.email)!;
    expect(message.headers.from).toBeUndefined(); // Gmail sends it from the connected account
    expect(message.text).toContain(`/call-history?call=${row.id}`);
    expect(message.html).toContain("Open in Switchboard");
    const [email] = await db.select().from(emails).where(and(eq(emails.organizationId, biz.account.organizationId), eq(emails.toAddress, biz.account.email)));
    expect(email).toMatchObject({ status: "sent", subject: message.headers.subject });
    expect((await deliveriesOf(biz.account, "gmail"))[0]).toMatchObject({ event: "email.send", status: "delivered" });
  });
});

describe("Google Calendar through Connect with Google", () => {
  it("replaces pasted tokens: busy times and events use the OAuth grant, on the calendar the owner picks", async () => {
    const a = await registerTestUser();
    const { authorizeUrl } = await authorize(a, "google-calendar");
    expect(authorizeUrl.searchParams.get("access_type")).toBe("offline");
    expect(authorizeUrl.searchParams.get("scope")).toBe("https://www.googleapis.com/auth/calendar");
    expect(await view(a, "google-calendar")).toMatchObject({ connected: true, config: { calendarId: "primary", auth: "oauth" } });

    const picker = await call(options, "GET", "/api/integrations/google-calendar/options", { sessionId: a.sessionId, params: { slug: "google-calendar" } });
    expect(picker.body.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(["primary", "front-desk@example.com"]));
    expect((await post(settings, "google-calendar", "settings", a, { calendarId: "front-desk@example.com" })).status).toBe(200);

    calendar.seedBusy("front-desk@example.com", "2030-01-07T10:00:00Z", "2030-01-07T11:00:00Z");
    const db = await getDb();
    const connection = (await getCalendarConnection(db, a.organizationId))!;
    expect(connection.calendarId).toBe("front-desk@example.com");
    const busy = await connection.provider.freeBusy(connection.calendarId, new Date("2030-01-07T00:00:00Z"), new Date("2030-01-08T00:00:00Z"));
    expect(busy).toEqual([{ start: new Date("2030-01-07T10:00:00Z"), end: new Date("2030-01-07T11:00:00Z") }]);
    await connection.provider.upsertEvent(connection.calendarId, {
      id: "oauthbooking1",
      summary: "Cleaning — Ada",
      description: "Booked through Switchboard.",
      start: new Date("2030-01-07T12:00:00Z"),
      end: new Date("2030-01-07T12:30:00Z"),
      timeZone: "UTC",
      transparent: false,
    });
    expect(calendar.calendars.get("front-desk@example.com")!.get("oauthbooking1")).toMatchObject({ summary: "Cleaning — Ada", status: "confirmed" });

    const off = await post(disconnect, "google-calendar", "disconnect", a);
    expect(off.body).toMatchObject({ connected: false, revoked: true });
    expect(await getCalendarConnection(db, a.organizationId)).toBeNull();
  });
});

afterEach(async () => {
  // Deliveries left pending by a test must not be picked up by the next one's job runs.
  const db = await getDb();
  await db.update(webhookDeliveries).set({ status: "failed", lastError: "test cleanup" }).where(eq(webhookDeliveries.status, "pending"));
});
