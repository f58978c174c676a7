/**
 * The disclosure and recording notice on the simulated carrier (docs/compliance.md): signed
 * webhooks in, TwiML out. The notice plays as a <Say> before the first <Gather> (so speech cannot cut
 * it short), in its strict form for a party in an all-party-consent state; the consent record says
 * what played and whether the caller stayed on; without consent nothing said is kept.
 */
import { GET as getCall } from "@/app/api/calls/[id]/route";
import { GET as getSettings, PUT as putSettings } from "@/app/api/settings/compliance/route";
import { POST as smsHook } from "@/app/api/telephony/sms/route";
import { POST as statusHook } from "@/app/api/telephony/status/route";
import { closeDb } from "@/lib/platform/database";
import { CONSENT_SENTENCE, DEFAULT_NOTICE, DEFAULT_TEXT_NOTICE, DEFAULT_TEXT_NOTICE_ES } from "@/lib/compliance/notice";
import { isAllPartyState, stateFromNumber } from "@/lib/compliance/states";
import { carrierPost, fakeSid, find, type Verb } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, callParams, callRow, say, type Business } from "../helpers/phone";
import { POST as voiceHook } from "@/app/api/telephony/voice/route";

/** The first thing the caller hears (in Washington and Connecticut the recording starts just before it). */
const said = (res: { verbs: Verb[] }) => res.verbs.find((v) => v.name === "Say" || v.name === "Play") ?? res.verbs[0];

jest.setTimeout(90_000);
afterAll(() => closeDb());

async function arrive(biz: Business, extra: Record<string, string> = {}) {
  const callSid = fakeSid("CA");
  const res = await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, callSid, extra), biz.authToken);
  expect(res.status).toBe(200);
  return { callSid, res };
}

async function detail(biz: Business, callSid: string) {
  const row = await callRow(callSid);
  const res = await callRoute(getCall, "GET", `/api/calls/${row.id}`, { sessionId: biz.account.sessionId, params: { id: row.id } });
  expect(res.status).toBe(200);
  return res.body;
}

function settings(biz: Business, body: unknown) {
  return callRoute(putSettings, "PUT", "/api/settings/compliance", { sessionId: biz.account.sessionId, body });
}

describe("the notice on a call", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Notice Dental", { notice: true });
    // A business in New York (one-party consent): the notice's default form, unless the caller's state asks more.
    expect((await settings(biz, { businessState: "NY" })).status).toBe(200);
  });

  it("plays by default as a Say before the first Gather, and the consent record says so", async () => {
    const { callSid, res } = await arrive(biz);
    // The notice, then the whole-call recording (on by default, simulated carrier too), then the greeting.
    expect(res.verbs.map((v) => v.name)).toEqual(["Say", "Start", "Gather"]);
    expect(said(res).text).toBe(`${DEFAULT_NOTICE}.`);
    // The greeting is inside the Gather (interruptible); the notice is not.
    expect(find(find(res.verbs, "Gather")!.children, "Say")?.text ?? "").not.toContain(DEFAULT_NOTICE);
    const before = await detail(biz, callSid);
    expect(before.consent).toMatchObject({ noticeText: `${DEFAULT_NOTICE}.`, required: false, strict: false, stayedOn: false, holds: false });
    expect(Date.parse(before.consent.playedAt)).not.toBeNaN();

    const turn = await say(biz, callSid, find(res.verbs, "Gather")!.attrs.action, "What are your opening hours?");
    expect(turn.status).toBe(200);
    const after = await detail(biz, callSid);
    expect(after.consent).toMatchObject({ stayedOn: true, holds: true });
    expect(after.transcript.some((t: { speaker: string }) => t.speaker === "caller")).toBe(true);
  });

  it("takes the strict form for a caller the carrier places in an all-party state (FromState)", async () => {
    const { callSid, res } = await arrive(biz, { FromState: "CA" });
    expect(said(res)).toMatchObject({ name: "Say", text: `${DEFAULT_NOTICE}. ${CONSENT_SENTENCE}` });
    expect((await detail(biz, callSid)).consent).toMatchObject({ required: true, strict: true, callerState: "CA", reasons: ["CA: all-party consent to record"] });
  });

  it("places the caller by area code when the carrier sends no state", async () => {
    const { callSid, res } = await arrive(biz, { From: "+12065550188" });
    expect(said(res).text).toContain(CONSENT_SENTENCE);
    expect((await detail(biz, callSid)).consent).toMatchObject({ callerState: "WA", strict: true });
  });

  it("keeps nothing said when the caller hangs up during the notice", async () => {
    const { callSid } = await arrive(biz);
    const ended = await carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { CallStatus: "completed", CallDuration: "3" }), biz.authToken);
    expect(ended.status).toBe(200);
    const call = await detail(biz, callSid);
    expect(call.consent).toMatchObject({ stayedOn: false, holds: false });
    expect(call.transcript).toEqual([]);
    expect(call.status).toBe("completed");
  });
});

describe("the owner's notice settings", () => {
  it("shows the defaults (the state from the number's area code), takes new words, and plays them", async () => {
    const biz = await business("Reworded Dental", { notice: true });
    const got = await callRoute(getSettings, "GET", "/api/settings/compliance", { sessionId: biz.account.sessionId });
    expect(got.body).toMatchObject({ noticeEnabled: true, noticeText: null, hipaaMode: true, businessStateSource: "number" });
    // The simulated carrier's first numbers are in San Francisco (415), where California requires the notice.
    const state = stateFromNumber(biz.phoneNumber);
    expect(got.body.businessState).toBe(state);
    expect(got.body.noticeRequired).toBe(isAllPartyState(state));
    expect((await settings(biz, { noticeEnabled: false })).status).toBe(isAllPartyState(state) ? 400 : 200);
    expect((await settings(biz, { noticeEnabled: true })).status).toBe(200);
    const saved = await settings(biz, { noticeText: "Hi, you've reached our AI receptionist. We record calls to serve you better" });
    expect(saved.status).toBe(200);
    const { res } = await arrive(biz);
    const own = "Hi, you've reached our AI receptionist. We record calls to serve you better.";
    expect(said(res).text).toBe(isAllPartyState(state) ? `${own} ${CONSENT_SENTENCE}` : own);
  });

  it("refuses words that drop the AI or the recording, naming the field", async () => {
    const biz = await business("Wordy Dental", { notice: true });
    const res = await settings(biz, { noticeText: "Welcome! Calls may be recorded." });
    expect(res.status).toBe(400);
    expect(res.body.errors.noticeText).toMatch(/AI/);
  });

  it("refuses to switch it off where the business's state requires it, and allows it elsewhere", async () => {
    const biz = await business("Golden Dental", { notice: true });
    const refused = await settings(biz, { businessState: "CA", noticeEnabled: false });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ noticeEnabled: expect.stringMatching(/required by law in CA/) });
    const ny = await settings(biz, { businessState: "NY", noticeEnabled: false });
    expect(ny.status).toBe(200);
    expect(ny.body).toMatchObject({ businessState: "NY", businessStateSource: "settings", noticeEnabled: false, noticeRequired: false });
    const quiet = await arrive(biz);
    expect(quiet.res.verbs.map((v) => v.name)).toEqual(["Start", "Gather"]);
    // Off, but a caller in an all-party state still hears it.
    const fromFlorida = await arrive(biz, { FromState: "FL" });
    expect(fromFlorida.res.verbs.map((v) => v.name)).toEqual(["Say", "Start", "Gather"]);
    expect(said(fromFlorida.res).text).toContain(CONSENT_SENTENCE);
  });

  it("needs a session and checks the values", async () => {
    expect((await callRoute(getSettings, "GET", "/api/settings/compliance")).status).toBe(401);
    const biz = await business("Checked Dental", { notice: true });
    const bad = await settings(biz, { businessState: "Narnia" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.businessState).toBeDefined();
  });
});

describe("the notice on texts", () => {
  it("leads the first reply of a conversation, not the next ones", async () => {
    const biz = await business("Texting Dental", { notice: true });
    const send = (body: string) =>
      carrierPost(
        smsHook,
        "/api/telephony/sms",
        { MessageSid: fakeSid("SM"), AccountSid: biz.accountSid, From: "+15555550177", To: biz.phoneNumber, Body: body, NumMedia: "0", ApiVersion: "2010-04-01" },
        biz.authToken,
      );
    const first = await send("What are your opening hours?");
    expect(first.status).toBe(200);
    expect(find(first.verbs, "Message")?.text).toMatch(new RegExp(`^${DEFAULT_TEXT_NOTICE}\\. \\S`));
    const second = await send("And do you take walk-ins?");
    expect(find(second.verbs, "Message")?.text).not.toContain(DEFAULT_TEXT_NOTICE);
  });

  it("is given in Spanish to a texter who writes in Spanish", async () => {
    const biz = await business("Clínica Dental Sol", { notice: true });
    const first = await carrierPost(
      smsHook,
      "/api/telephony/sms",
      { MessageSid: fakeSid("SM"), AccountSid: biz.accountSid, From: "+15555550178", To: biz.phoneNumber, Body: "Hola, ¿a qué hora abren mañana?", NumMedia: "0", ApiVersion: "2010-04-01" },
      biz.authToken,
    );
    expect(first.status).toBe(200);
    const text = find(first.verbs, "Message")?.text ?? "";
    expect(text).toMatch(new RegExp(`^${DEFAULT_TEXT_NOTICE_ES}\\. \\S`));
    expect(text).not.toContain(DEFAULT_TEXT_NOTICE);
  });
});

