/**
 * Texts through the SMS webhook (signed with the real `twilio` package, TwiML parsed as XML):
 * assistant replies with thread context, STOP/START/HELP with the opt-out stored, retries, and the
 * owner's reply from Call History through the carrier (the simulated one, and Twilio's REST API
 * through its local fake).
 */
import { eq } from "drizzle-orm";
import { GET as getMessage } from "@/app/api/messages/[id]/route";
import { POST as replyRoute } from "@/app/api/messages/[id]/reply/route";
import { POST as smsHook } from "@/app/api/telephony/sms/route";
import { assistantActions, messages, messageThreads, phoneNumbers } from "@/db/schema";
import { getCreditBalance } from "@/lib/workspace/billing/ledger";
import { SPAM } from "@/lib/platform/text/routing";
import { closeDb, getDb } from "@/lib/platform/database";
import { createTwilioProvider } from "@/lib/platform/providers/telephony/twilio";
import { getTelephonyProviderFor } from "@/lib/workspace/provider-selection/telephony";
import { fakeTwilioHttpClient, startFakeTwilio } from "../fakes/twilio-server";
import { registerTestUser } from "../helpers/accounts";
import { carrierPost, fakeSid } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, saveTwilioKeys, type Business } from "../helpers/phone";

// The first test opens and migrates the database of the run: slow on a busy machine.
jest.setTimeout(90_000);

jest.mock("@/lib/workspace/provider-selection/telephony", () => {
  const actual = jest.requireActual("@/lib/workspace/provider-selection/telephony");
  return { ...actual, getTelephonyProviderFor: jest.fn(actual.getTelephonyProviderFor) };
});

afterAll(() => closeDb());

const CONTACT = "+15555550142";

function text(biz: Business, body: string, extra: Record<string, string> = {}) {
  const params = {
    MessageSid: fakeSid("SM"),
    AccountSid: biz.accountSid,
    From: CONTACT,
    To: biz.phoneNumber,
    Body: body,
    NumMedia: "0",
    ApiVersion: "2010-04-01",
    ...extra,
  };
  return { params, send: (token = biz.authToken) => carrierPost(smsHook, "/api/telephony/sms", params, token) };
}

async function inbound(messageSid: string) {
  const db = await getDb();
  const [row] = await db.select().from(messages).where(eq(messages.providerMessageSid, messageSid));
  return row;
}

describe("the SMS webhook", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Acme Dental");
  });

  it("answers with the assistant's reply in TwiML <Message>, stores both texts in one thread and charges one credit", async () => {
    const db = await getDb();
    const before = await getCreditBalance(db, biz.account.organizationId);
    const t = text(biz, "What are your opening hours?");
    const res = await t.send();
    expect(res.status).toBe(200);
    expect(res.root).toBe("Response");
    expect(res.verbs.map((v) => v.name)).toEqual(["Message"]);
    expect(res.verbs[0].text).toContain("Mon–Fri 9 AM–5 PM");
    const row = await inbound(t.params.MessageSid);
    expect(row).toMatchObject({ direction: "inbound", status: "received", body: "What are your opening hours?", intent: "hours", organizationId: biz.account.organizationId });
    const thread = await db.select().from(messages).where(eq(messages.threadId, row.threadId!));
    expect(thread.map((m) => [m.direction, m.sentBy])).toEqual(expect.arrayContaining([["inbound", null], ["outbound", "assistant"]]));
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 1);

    // A retry of the same MessageSid: the same reply, nothing stored or charged twice.
    const again = await t.send();
    expect(again.text).toBe(res.text);
    expect(await db.select().from(messages).where(eq(messages.threadId, row.threadId!))).toHaveLength(2);
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 1);
  });

  it("keeps the thread's context: a time after 'what day and time?' continues the booking", async () => {
    await text(biz, "I'd like to book a cleaning").send();
    const res = await text(biz, "Tuesday at 3pm").send();
    expect(res.verbs[0].text).toMatch(/Tuesday at 3pm/i);
  });

  it("scores texts from signals: a shortened link counts; over the threshold no reply and no credit, with the reasons", async () => {
    const db = await getDb();
    const org = biz.account.organizationId;
    const from = (n: number) => `+1415555${String(1000 + n).slice(-4)}`;
    const plain = text(biz, "Do you open on Saturdays?", { From: from(1) });
    await plain.send();
    expect(await inbound(plain.params.MessageSid)).toMatchObject({ isSpam: false, spamScore: null, spamReasons: [] });

    const linked = text(biz, "Your package is waiting, track it at bit.ly/3xYzAb", { From: from(2) });
    const answered = await linked.send();
    expect(answered.verbs.map((v) => v.name)).toEqual(["Message"]); // 35 points: under the default threshold of 70
    expect(await inbound(linked.params.MessageSid)).toMatchObject({ spamScore: 35, spamReasons: [SPAM.shortLink] });

    // Neighbouring numbers texting within 10 minutes (sequential spoofing) push the next one over 70.
    await text(biz, "Hello", { From: from(3) }).send();
    const before = await getCreditBalance(db, org);
    const spam = text(biz, "Final notice: claim at tinyurl.com/win-now", { From: from(4) });
    const res = await spam.send();
    expect(res.verbs).toEqual([]);
    const row = await inbound(spam.params.MessageSid);
    expect(row.isSpam).toBe(true);
    expect(row.spamScore).toBe(80); // 3 neighbouring numbers × 15 + a shortened link 35
    expect(row.spamReasons).toEqual([SPAM.neighbourTexts(3), SPAM.shortLink]);
    expect(await getCreditBalance(db, org)).toBe(before);
    expect(await db.select().from(messages).where(eq(messages.threadId, row.threadId!))).toHaveLength(1);
  });

  it("refuses unsigned or forged texts with 403 and stores nothing", async () => {
    const t = text(biz, "hello");
    expect((await carrierPost(smsHook, "/api/telephony/sms", t.params, biz.authToken, { signature: null })).status).toBe(403);
    expect((await t.send("not-the-token")).status).toBe(403);
    expect(await inbound(t.params.MessageSid)).toBeUndefined();
  });

  it("STOP opts the contact out (stored, confirmed once), nothing more is sent, START opts back in, HELP always answers", async () => {
    const db = await getDb();
    const stopText = text(biz, "stop");
    const stop = await stopText.send();
    expect(stop.verbs.map((v) => v.name)).toEqual(["Message"]);
    expect(stop.verbs[0].text).toMatch(/unsubscribed/);
    const stopRow = await inbound(stopText.params.MessageSid);
    const [thread] = await db.select().from(messageThreads).where(eq(messageThreads.id, stopRow.threadId!));
    expect(thread.optedOut).toBe(true);
    expect(thread.optedOutAt).not.toBeNull();

    const before = await getCreditBalance(db, biz.account.organizationId);
    const ignored = await text(biz, "Are you open on Saturday?").send();
    expect(ignored.verbs).toEqual([]);
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);

    const help = await text(biz, "HELP").send();
    expect(help.verbs[0].text).toMatch(/^Acme Dental: .*Reply STOP to unsubscribe\.$/);

    // The owner cannot text an opted-out contact.
    const refused = await callRoute(replyRoute, "POST", `/api/messages/${stopRow.id}/reply`, {
      sessionId: biz.account.sessionId,
      params: { id: stopRow.id },
      body: { body: "Sorry to see you go" },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/replied STOP/);

    const start = await text(biz, "START").send();
    expect(start.verbs[0].text).toMatch(/re-subscribed/);
    expect((await db.select().from(messageThreads).where(eq(messageThreads.id, thread.id)))[0].optedOut).toBe(false);
    const back = await text(biz, "Are you open on Saturday?").send();
    expect(back.verbs.map((v) => v.name)).toEqual(["Message"]);
    const types = (await db.select().from(assistantActions).where(eq(assistantActions.organizationId, biz.account.organizationId))).map((a) => a.type);
    expect(types).toEqual(expect.arrayContaining(["opted_out", "opted_in", "texted_back"]));
  });

  it("stores a text to an unknown number nowhere, and never crosses organizations", async () => {
    const other = await business("Other Place");
    const t = text(biz, "hi there", { To: "+14155550987" });
    const res = await t.send();
    expect(res.status).toBe(200);
    expect(res.verbs).toEqual([]);
    expect(await inbound(t.params.MessageSid)).toBeUndefined();
    // Signed by another organization's account for this organization's number: refused.
    const cross = text(biz, "hi", { AccountSid: other.accountSid });
    expect((await cross.send(other.authToken)).status).toBe(403);
  });
});

describe("the owner's reply from Call History", () => {
  it("shows the thread and sends the owner's text through the simulated carrier", async () => {
    const biz = await business("Reply Dental");
    const t = text(biz, "Can someone call me back about my bill?");
    await t.send();
    const row = await inbound(t.params.MessageSid);
    const detail = await callRoute(getMessage, "GET", `/api/messages/${row.id}`, { sessionId: biz.account.sessionId, params: { id: row.id } });
    expect(detail.status).toBe(200);
    expect(detail.body.thread).toMatchObject({ contact: CONTACT, optedOut: false });
    expect(detail.body.thread.messages.map((m: { direction: string }) => m.direction)).toEqual(["inbound", "outbound"]);

    const empty = await callRoute(replyRoute, "POST", `/api/messages/${row.id}/reply`, { sessionId: biz.account.sessionId, params: { id: row.id }, body: { body: "  " } });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.body).toBe("Write a reply");
    const sent = await callRoute(replyRoute, "POST", `/api/messages/${row.id}/reply`, {
      sessionId: biz.account.sessionId,
      params: { id: row.id },
      body: { body: "Hi, this is Dana from Reply Dental, I'll call you at 4." },
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ direction: "outbound", sentBy: "owner", status: "delivered", body: "Hi, this is Dana from Reply Dental, I'll call you at 4." });
    const after = await callRoute(getMessage, "GET", `/api/messages/${row.id}`, { sessionId: biz.account.sessionId, params: { id: row.id } });
    expect(after.body.thread.messages.at(-1)).toMatchObject({ sentBy: "owner" });

    const stranger = await registerTestUser();
    expect((await callRoute(replyRoute, "POST", `/api/messages/${row.id}/reply`, { sessionId: stranger.sessionId, params: { id: row.id }, body: { body: "hi" } })).status).toBe(404);
    expect((await callRoute(replyRoute, "POST", `/api/messages/${row.id}/reply`, { params: { id: row.id }, body: { body: "hi" } })).status).toBe(401);
  });

  it("sends through Twilio's Messages API for a Twilio number (real SDK, local fake)", async () => {
    const ACCOUNT = `AC${"cd".repeat(16)}`;
    const fake = await startFakeTwilio({ accountSid: ACCOUNT, authToken: "tw-token-1234" });
    (getTelephonyProviderFor as jest.Mock).mockImplementation(async () =>
      createTwilioProvider({ accountSid: ACCOUNT, authToken: "tw-token-1234", httpClient: fakeTwilioHttpClient(fake.url) }),
    );
    try {
      const biz = await business("Twilio Dental");
      const db = await getDb();
      await saveTwilioKeys(biz, ACCOUNT, "tw-token-1234");
      await db.update(phoneNumbers).set({ provider: "twilio" }).where(eq(phoneNumbers.id, biz.numberId));
      // The number is on the Twilio account (Twilio refuses to send from a number it does not hold).
      fake.incoming.push({ sid: fakeSid("PN"), phone_number: biz.phoneNumber, friendly_name: "Twilio Dental", voice_url: null, sms_url: null } as never);
      // Twilio now signs this number's webhooks with the Twilio account's token.
      const t = text({ ...biz, accountSid: ACCOUNT, authToken: "tw-token-1234" }, "Hello?");
      expect((await t.send()).status).toBe(200);
      const row = await inbound(t.params.MessageSid);
      const sent = await callRoute(replyRoute, "POST", `/api/messages/${row.id}/reply`, { sessionId: biz.account.sessionId, params: { id: row.id }, body: { body: "Hi from the team" } });
      expect(sent.status).toBe(201);
      expect(sent.body.status).toBe("sent");
      expect(fake.messages).toEqual([expect.objectContaining({ from: biz.phoneNumber, to: CONTACT, body: "Hi from the team" })]);
      // STOP on a Twilio number: stored, but the confirmation is Twilio's own (an empty response here).
      const stop = await text({ ...biz, accountSid: ACCOUNT, authToken: "tw-token-1234" }, "STOP").send();
      expect(stop.verbs).toEqual([]);
    } finally {
      (getTelephonyProviderFor as jest.Mock).mockReset();
      (getTelephonyProviderFor as jest.Mock).mockImplementation(jest.requireActual("@/lib/workspace/provider-selection/telephony").getTelephonyProviderFor);
      await fake.close();
    }
  });
});
