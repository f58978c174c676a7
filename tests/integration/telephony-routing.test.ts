/**
 * Routing, spam and predictable credits through the signed webhooks, as Twilio drives them: ring
 * first (answered, and not answered → the assistant takes a message), transfers that come back,
 * the whisper briefing, after hours, VIP, the block list, spam above and below the threshold with
 * its reasons, "Not spam", credit-back for short and spam calls, and the monthly cap.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, like } from "drizzle-orm";
import { DELETE as deleteBlock, GET as listBlock, POST as addBlock } from "@/app/api/blocklist/route";
import { GET as getPolicy, PUT as putPolicy } from "@/app/api/call-policy/route";
import { POST as notSpam } from "@/app/api/calls/[id]/not-spam/route";
import { GET as getCall } from "@/app/api/calls/[id]/route";
import { GET as getHistory } from "@/app/api/call-history/route";
import { PATCH as patchNumber } from "@/app/api/phone-numbers/[id]/route";
import { POST as statusHook } from "@/app/api/telephony/status/route";
import { POST as dialHook } from "@/app/api/telephony/voice/dial/route";
import { POST as voiceHook } from "@/app/api/telephony/voice/route";
import { POST as whisperHook } from "@/app/api/telephony/voice/whisper/route";
import { POST as smsHook } from "@/app/api/telephony/sms/route";
import { assistantActions, callPolicies, creditLedger, messages, organizations, textBackSettings } from "@/db/schema";
import { getCreditBalance } from "@/lib/workspace/billing/ledger";
import { createFilesystemBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { closeDb, getDb } from "@/lib/platform/database";
import { WEEKDAYS } from "@/lib/knowledge/business-profile/schema";
import { finishCall } from "@/lib/channels/phone-line/voice/post-call";
import { CALL_LINES } from "@/lib/channels/phone-line/voice/lines";
import { forgetCallContexts } from "@/lib/channels/phone-line/voice/runtime";
import { DEFAULT_TEXT_BACK_TEMPLATE } from "@/lib/platform/text/receptionist";
import { SPAM } from "@/lib/platform/text/routing";
import { carrierPost, fakeSid, find, pathOf } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, callParams, callRow, say, type Business } from "../helpers/phone";

jest.setTimeout(90_000);

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-routing-"));
beforeAll(() => setBlobStore(createFilesystemBlobStore(blobDir)));
afterAll(async () => {
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});
beforeEach(() => forgetCallContexts());

async function setRouting(biz: Business, body: Record<string, unknown>) {
  const res = await callRoute(patchNumber, "PATCH", `/api/phone-numbers/${biz.numberId}`, { sessionId: biz.account.sessionId, params: { id: biz.numberId }, body });
  expect(res.status).toBe(200);
  forgetCallContexts();
  return res.body;
}

async function setPolicy(biz: Business, body: Record<string, unknown>) {
  const res = await callRoute(putPolicy, "PUT", "/api/call-policy", { sessionId: biz.account.sessionId, body });
  expect(res.status).toBe(200);
  return res.body;
}

async function arrive(biz: Business, from: string, extra: Record<string, string> = {}) {
  const callSid = fakeSid("CA");
  const res = await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, callSid, { From: from, ...extra }), biz.authToken);
  expect(res.status).toBe(200);
  return { callSid, res };
}

async function end(biz: Business, callSid: string, from: string, seconds: number) {
  await carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { From: from, CallStatus: "completed", CallDuration: String(seconds) }), biz.authToken);
  const row = await callRow(callSid);
  await finishCall(await getDb(), { callId: row.id, organizationId: row.organizationId });
  return callRow(callSid);
}

async function detail(biz: Business, id: string) {
  const res = await callRoute(getCall, "GET", `/api/calls/${id}`, { sessionId: biz.account.sessionId, params: { id } });
  expect(res.status).toBe(200);
  return res.body;
}

describe("ring first", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Ring Plumbing", { forwardTo: "+15035550100" });
    await setRouting(biz, { routing: { mode: "ring_first", ringTimeoutSeconds: 12, rules: [] } });
  });

  it("rings the business's phone first with the caller's own number, whispers who and why, and ends as transferred when answered", async () => {
    const { callSid, res } = await arrive(biz, "+12025550111");
    const dial = find(res.verbs, "Dial")!;
    expect(dial.attrs).toMatchObject({ timeout: "12", callerId: "+12025550111", action: "http://localhost:3000/api/telephony/voice/dial?step=1&to=%2B15035550100" });
    const number = find(dial.children, "Number")!;
    expect(number.text).toBe("+15035550100");
    const row = await callRow(callSid);
    expect(row.routedBecause).toBe("Ring first: rang +15035550100 for 12 s before the assistant");

    // The whisper: Twilio asks the Number's url on the answered leg (its own CallSid), signed with the account's token.
    const whisper = await carrierPost(whisperHook, pathOf(number.attrs.url), { CallSid: fakeSid("CA"), AccountSid: biz.accountSid, From: "+12025550111", To: "+15035550100" }, biz.authToken);
    expect(whisper.status).toBe(200);
    expect(find(whisper.verbs, "Say")!.text).toBe("Call for Ring Plumbing from Pat Caller at +12025550111: a call to the business line.");
    const forged = await carrierPost(whisperHook, pathOf(number.attrs.url), { CallSid: fakeSid("CA") }, "0".repeat(32));
    expect(forged.status).toBe(403);

    const done = await carrierPost(dialHook, pathOf(dial.attrs.action), callParams(biz, callSid, { From: "+12025550111", DialCallStatus: "completed", DialCallDuration: "30" }), biz.authToken);
    expect(done.verbs.map((v) => v.name)).toEqual(["Hangup"]);
    expect(await callRow(callSid)).toMatchObject({ outcome: "transferred", status: "completed" });
  });

  it("not answered → the assistant comes on and takes a message (never a dead line)", async () => {
    const { callSid, res } = await arrive(biz, "+12025550122");
    const dial = find(res.verbs, "Dial")!;
    const noAnswer = await carrierPost(dialHook, pathOf(dial.attrs.action), callParams(biz, callSid, { From: "+12025550122", DialCallStatus: "no-answer" }), biz.authToken);
    expect(noAnswer.verbs.map((v) => v.name)).toEqual(["Gather"]);
    let row = await callRow(callSid);
    expect(row.transcript.at(-1)?.text).toMatch(/nobody at Ring Plumbing could pick up right now\. This is Riley, their assistant\. I can take a message/);
    expect(row.routedBecause).toBe("Ring first: +15035550100 did not answer, so the assistant took the call");
    const message = await say(biz, callSid, noAnswer.verbs[0].attrs.action, "This is Dana, the kitchen sink is leaking, please call me back", { From: "+12025550122" });
    expect(message.verbs.map((v) => v.name)).toEqual(["Gather"]);
    row = await callRow(callSid);
    expect(row.transcript.find((t) => t.kind === "message")?.text).toBe("This is Dana, the kitchen sink is leaking, please call me back");
    const db = await getDb();
    const types = (await db.select().from(assistantActions).where(eq(assistantActions.callId, row.id))).map((a) => a.type);
    expect(types).toEqual(expect.arrayContaining(["transfer_unanswered", "took_message"]));
  });

  it("refuses ring first without a forward-to number, naming the field", async () => {
    const other = await business("No Forward Co");
    const res = await callRoute(patchNumber, "PATCH", `/api/phone-numbers/${other.numberId}`, {
      sessionId: other.account.sessionId,
      params: { id: other.numberId },
      body: { routing: { mode: "ring_first", rules: [] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty(["routing.mode"]);
    const bad = await callRoute(patchNumber, "PATCH", `/api/phone-numbers/${other.numberId}`, {
      sessionId: other.account.sessionId,
      params: { id: other.numberId },
      body: { routing: { rules: [{ condition: "vip", action: "forward" }] } },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(["routing.rules.0.to", "routing.rules.0.numbers"]));
  });
});

describe("assistant first: a transfer", () => {
  it("dials with the caller's number and a briefing of what they asked; not answered → back to the assistant", async () => {
    const biz = await business("Transfer Dental", { forwardTo: "+15035550101" });
    const from = "+12025550133";
    const { callSid, res } = await arrive(biz, from);
    expect((await callRow(callSid)).routedBecause).toBe("Assistant first: no rule matched");
    const turn = await say(biz, callSid, res.verbs[0].attrs.action, "Can I speak to a real person please?", { From: from });
    const dial = find(turn.verbs, "Dial")!;
    expect(dial.attrs.callerId).toBe(from);
    const whisper = await carrierPost(whisperHook, pathOf(find(dial.children, "Number")!.attrs.url), { CallSid: fakeSid("CA"), AccountSid: biz.accountSid }, biz.authToken);
    expect(find(whisper.verbs, "Say")!.text).toBe(`Call for Transfer Dental from Pat Caller at ${from}: they said "Can I speak to a real person please?".`);
    const noAnswer = await carrierPost(dialHook, pathOf(dial.attrs.action), callParams(biz, callSid, { From: from, DialCallStatus: "busy" }), biz.authToken);
    expect(noAnswer.verbs.map((v) => v.name)).toEqual(["Gather"]);
    expect((await callRow(callSid)).transcript.at(-1)?.text).toMatch(/nobody at Transfer Dental could pick up.*take a message/);
  });
});

describe("rules", () => {
  it("after hours (the business profile's hours in its time zone) → voicemail, with the reason on the call", async () => {
    const biz = await business("Night Owl Dental");
    const db = await getDb();
    // Open only tomorrow (UTC): closed now whatever the time of the run.
    const tomorrow = WEEKDAYS[(new Date().getUTCDay() + 7) % 7];
    await db
      .update(organizations)
      .set({ businessProfile: { timezone: "UTC", weeklyHours: { [tomorrow]: [{ open: "09:00", close: "17:00" }] } } })
      .where(eq(organizations.id, biz.account.organizationId));
    await setRouting(biz, { routing: { rules: [{ condition: "after_hours", action: "voicemail" }] } });
    const { callSid, res } = await arrive(biz, "+12025550144");
    expect(res.verbs.map((v) => v.name)).toContain("Record");
    const row = await callRow(callSid);
    expect(row.routedBecause).toMatch(/^After hours \(Closed now; opens tomorrow at 9 AM\), rule 1: voicemail$/);
    expect((await detail(biz, row.id)).routedBecause).toBe(row.routedBecause);
  });

  it("a holiday in the organization's time zone matches its rule", async () => {
    const biz = await business("Holiday Bakery", { forwardTo: "+15035550102" });
    const db = await getDb();
    const today = new Date().toLocaleDateString("en-CA", { timeZone: "Pacific/Auckland" });
    await db
      .update(organizations)
      .set({ businessProfile: { timezone: "Pacific/Auckland", holidays: [{ date: today, name: "Anniversary Day" }] } })
      .where(eq(organizations.id, biz.account.organizationId));
    await setRouting(biz, { routing: { rules: [{ condition: "holiday", action: "voicemail" }] } });
    const { callSid, res } = await arrive(biz, "+12025550155");
    expect(res.verbs.map((v) => v.name)).toContain("Record");
    expect((await callRow(callSid)).routedBecause).toBe("Holiday (Anniversary Day), rule 1: voicemail");
  });

  it("VIP callers go straight through to their number; other callers get the assistant", async () => {
    const biz = await business("VIP Law", { forwardTo: "+15035550103" });
    await setRouting(biz, { routing: { rules: [{ condition: "vip", numbers: ["+12025550166"], action: "forward", to: "+15035550199" }] } });
    const vip = await arrive(biz, "+12025550166");
    const dial = find(vip.res.verbs, "Dial")!;
    expect(find(dial.children, "Number")!.text).toBe("+15035550199");
    expect(dial.attrs.callerId).toBe("+12025550166");
    expect((await callRow(vip.callSid)).routedBecause).toBe("VIP caller (rule 1): forwarded to +15035550199");
    const other = await arrive(biz, "+12025550277");
    expect(other.res.verbs.map((v) => v.name)).toEqual(["Gather"]);
  });

  it("intent rules send billing questions to the billing line once the caller says what they want", async () => {
    const biz = await business("Intent Clinic", { forwardTo: "+15035550104" });
    await setRouting(biz, { routing: { rules: [{ condition: "intent", intent: "billing", action: "forward", to: "+15035550188" }] } });
    const from = "+12025550188";
    const { callSid, res } = await arrive(biz, from);
    const turn = await say(biz, callSid, res.verbs[0].attrs.action, "I have a question about a charge on my invoice", { From: from });
    const dial = find(turn.verbs, "Dial")!;
    expect(find(dial.children, "Number")!.text).toBe("+15035550188");
    expect((await callRow(callSid)).routedBecause).toBe("The caller asked about billing (rule 1): forwarded to +15035550188");
  });
});

describe("block list and spam", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Spam Guard Dental");
  });

  it("GET/POST/DELETE /api/blocklist; a blocked caller is rejected, marked spam with the reason, and costs nothing", async () => {
    const add = await callRoute(addBlock, "POST", "/api/blocklist", { sessionId: biz.account.sessionId, body: { phoneNumber: "+12025550666", note: "Robocaller" } });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ phoneNumber: "+12025550666", list: "block", note: "Robocaller" });
    const bad = await callRoute(addBlock, "POST", "/api/blocklist", { sessionId: biz.account.sessionId, body: { phoneNumber: "555" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("phoneNumber");
    const list = await callRoute(listBlock, "GET", "/api/blocklist", { sessionId: biz.account.sessionId });
    expect(list.body.entries.map((e: { phoneNumber: string }) => e.phoneNumber)).toEqual(["+12025550666"]);
    const other = await business("Another Org");
    expect((await callRoute(listBlock, "GET", "/api/blocklist", { sessionId: other.account.sessionId })).body.entries).toEqual([]);

    const balance = await getCreditBalance(await getDb(), biz.account.organizationId);
    const { callSid, res } = await arrive(biz, "+12025550666");
    expect(res.verbs.map((v) => v.name)).toEqual(["Reject"]);
    const row = await callRow(callSid);
    expect(row).toMatchObject({ outcome: "blocked", isSpam: true, spamScore: 100, spamReasons: [SPAM.blockList], routedBecause: "Blocked: the caller is on your block list" });
    const settled = await end(biz, callSid, "+12025550666", 0);
    expect(settled).toMatchObject({ costCredits: 0, creditedBack: 0 });
    expect(await getCreditBalance(await getDb(), biz.account.organizationId)).toBe(balance);

    const removed = await callRoute(deleteBlock, "DELETE", "/api/blocklist?phoneNumber=%2B12025550666", { sessionId: biz.account.sessionId });
    expect(removed.status).toBe(200);
    expect((await arrive(biz, "+12025550666")).res.verbs.map((v) => v.name)).toEqual(["Gather"]);
    expect((await callRoute(deleteBlock, "DELETE", "/api/blocklist?phoneNumber=%2B12025550666", { sessionId: biz.account.sessionId })).status).toBe(404);
  });

  it("scores from the carrier's attestation: below the threshold the assistant answers, above it the call goes to voicemail or is blocked per setting", async () => {
    await setPolicy(biz, { spamThreshold: 50, spamAction: "voicemail" });
    const below = await arrive(biz, "+12025551100", { StirVerstat: "TN-Validation-Passed-C" });
    expect(below.res.verbs.map((v) => v.name)).toEqual(["Gather"]);
    expect(await callRow(below.callSid)).toMatchObject({ isSpam: false, spamScore: 25, spamReasons: [SPAM.attestationC] });

    const above = await arrive(biz, "+12025551200", { StirVerstat: "TN-Validation-Failed-C" });
    expect(above.res.verbs.map((v) => v.name)).toContain("Record");
    const row = await callRow(above.callSid);
    expect(row).toMatchObject({ isSpam: true, spamScore: 50, spamReasons: [SPAM.attestationFailed], routedBecause: "Spam score 50 is at or above your threshold of 50: sent to voicemail" });

    await setPolicy(biz, { spamAction: "block" });
    const blocked = await arrive(biz, "+12025551300", { StirVerstat: "TN-Validation-Failed-A" });
    expect(blocked.res.verbs.map((v) => v.name)).toEqual(["Reject"]);

    // Call History shows the reasons; "Not spam" restores the call and allow-lists the caller.
    const history = await callRoute(getHistory, "GET", "/api/call-history?spam=true&type=call", { sessionId: biz.account.sessionId });
    const item = history.body.items.find((i: { id: string }) => i.id === row.id);
    expect(item).toMatchObject({ isSpam: true, spamScore: 50, spamReasons: [SPAM.attestationFailed] });
    const restored = await callRoute(notSpam, "POST", `/api/calls/${row.id}/not-spam`, { sessionId: biz.account.sessionId, params: { id: row.id } });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ isSpam: false, allowListed: { phoneNumber: "+12025551200", list: "allow", source: "not_spam" } });
    expect((await detail(biz, row.id)).spamReasons).toEqual([SPAM.attestationFailed, SPAM.markedNotSpam]);
    const again = await arrive(biz, "+12025551200", { StirVerstat: "TN-Validation-Failed-C" });
    expect(again.res.verbs.map((v) => v.name)).toEqual(["Gather"]);
    expect(await callRow(again.callSid)).toMatchObject({ isSpam: false, spamScore: 0, spamReasons: [SPAM.allowList] });
    const other = await business("Stranger Org");
    expect((await callRoute(notSpam, "POST", `/api/calls/${row.id}/not-spam`, { sessionId: other.account.sessionId, params: { id: row.id } })).status).toBe(404);
  });

  it("counts many short calls and neighbouring numbers, and reports other businesses shared (hashed)", async () => {
    const org = await business("Pattern Dental");
    await setPolicy(org, { spamThreshold: 90 });
    for (let i = 0; i < 2; i++) {
      const { callSid } = await arrive(org, "+12025552200");
      await end(org, callSid, "+12025552200", 3);
    }
    const third = await arrive(org, "+12025552200");
    expect((await callRow(third.callSid)).spamReasons).toEqual([SPAM.shortCalls(2)]);

    await arrive(org, "+12025553301");
    await arrive(org, "+12025553302");
    const seq = await arrive(org, "+12025553303");
    expect(await callRow(seq.callSid)).toMatchObject({ spamScore: 30, spamReasons: [SPAM.neighbours(2)] });

    // Another business that shares its reports blocks a number; this one then sees one report (never the other's name or list).
    const sharer = await business("Sharing Clinic");
    await setPolicy(sharer, { shareSpamReports: true });
    await callRoute(addBlock, "POST", "/api/blocklist", { sessionId: sharer.account.sessionId, body: { phoneNumber: "+12025554400" } });
    const reported = await arrive(org, "+12025554400");
    expect(await callRow(reported.callSid)).toMatchObject({ spamScore: 25, spamReasons: [SPAM.reported(1)] });
  });
});

describe("money the customer can predict", () => {
  // These businesses send no text-back after a call, so the balance shows only what the calls cost
  // (a text-back is billed as a text of its own: tests/integration/receptionist.test.ts).
  async function withoutTextBack(biz: Business): Promise<Business> {
    const db = await getDb();
    await db.insert(textBackSettings).values({ phoneNumberId: biz.numberId, organizationId: biz.account.organizationId, enabled: false, template: DEFAULT_TEXT_BACK_TEMPLATE });
    return biz;
  }

  it("a call under 15 s is credited back through the ledger; a longer one is billed", async () => {
    const biz = await withoutTextBack(await business("Ledger Dental"));
    const db = await getDb();
    const before = await getCreditBalance(db, biz.account.organizationId);
    const short = await arrive(biz, "+12025555501");
    await say(biz, short.callSid, short.res.verbs[0].attrs.action, "What are your opening hours?", { From: "+12025555501" });
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 1);
    const shortRow = await end(biz, short.callSid, "+12025555501", 9);
    expect(shortRow).toMatchObject({ costCredits: 1, creditedBack: 1 });
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);
    const [refund] = await db.select().from(creditLedger).where(and(eq(creditLedger.organizationId, biz.account.organizationId), like(creditLedger.reference, `call-credit-back:${shortRow.id}:%`)));
    expect(refund).toMatchObject({ kind: "refund", amount: 1, reason: "Credit back: call shorter than 15 s" });
    // Settling again gives nothing more back.
    await finishCall(db, { callId: shortRow.id, organizationId: shortRow.organizationId });
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);

    const long = await arrive(biz, "+12025555602");
    await say(biz, long.callSid, long.res.verbs[0].attrs.action, "What are your opening hours?", { From: "+12025555602" });
    const longRow = await end(biz, long.callSid, "+12025555602", 75);
    expect(longRow).toMatchObject({ costCredits: 1, creditedBack: 0 });
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 1);
    const history = await callRoute(getHistory, "GET", "/api/call-history?type=call", { sessionId: biz.account.sessionId });
    expect(history.body.items.find((i: { id: string }) => i.id === longRow.id)).toMatchObject({ costCredits: 1, creditedBack: 0 });
  });

  it("a spam call (a recorded pitch) costs nothing: it is declined before any credit is spent", async () => {
    const biz = await business("Pitch Target");
    const db = await getDb();
    const before = await getCreditBalance(db, biz.account.organizationId);
    const { callSid, res } = await arrive(biz, "+12025556601");
    const turn = await say(biz, callSid, res.verbs[0].attrs.action, "Congratulations, you have won a free cruise, press 1 to claim your prize", { From: "+12025556601" });
    expect(turn.verbs.map((v) => v.name)).toContain("Hangup");
    const row = await end(biz, callSid, "+12025556601", 40);
    // Spam before cost (issue 27): understanding reads the pitch, the engine declines it with a fixed line, nothing is charged.
    expect(row).toMatchObject({ isSpam: true, spamScore: 70, spamReasons: [SPAM.recorded], costCredits: 0, creditedBack: 0 });
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);
  });

  it("the monthly cap: an alert at 75%, then voicemail only — or keep answering and bill, as chosen", async () => {
    const biz = await withoutTextBack(await business("Capped Dental"));
    const db = await getDb();
    for (const from of ["+12025557701", "+12025557802", "+12025557903"]) {
      const { callSid, res } = await arrive(biz, from);
      await say(biz, callSid, res.verbs[0].attrs.action, "What are your opening hours?", { From: from });
      await end(biz, callSid, from, 60);
    }
    const policy = await setPolicy(biz, { monthlyCapCredits: 4, atCap: "voicemail_only" });
    expect(policy.usage).toMatchObject({ cap: 4, used: 3, percent: 75, alert: true, reached: false });
    expect(policy.usage.message).toBe("You've used 75% of this month's cap (3 of 4 credits). At the cap, calls follow your setting: voicemail only, or keep answering and bill.");

    const fourth = await arrive(biz, "+12025557004");
    expect(fourth.res.verbs.map((v) => v.name)).toEqual(["Gather"]);
    await say(biz, fourth.callSid, fourth.res.verbs[0].attrs.action, "What are your opening hours?", { From: "+12025557004" });
    await end(biz, fourth.callSid, "+12025557004", 60);
    const [row] = await db.select().from(callPolicies).where(eq(callPolicies.organizationId, biz.account.organizationId));
    expect(row.capAlertMonth).toBe(new Date().toISOString().slice(0, 7));

    const capped = await arrive(biz, "+12025557105");
    expect(capped.res.verbs.map((v) => v.name)).toContain("Record");
    expect((await callRow(capped.callSid)).routedBecause).toBe("The monthly cap of 4 credits is reached: voicemail only");

    await setPolicy(biz, { atCap: "keep_answering" });
    const billed = await arrive(biz, "+12025557206");
    expect(billed.res.verbs.map((v) => v.name)).toEqual(["Gather"]);
    expect((await callRow(billed.callSid)).routedBecause).toBe("Assistant first: no rule matched. The monthly cap of 4 credits is reached: answered and billed, as set");
    const view = await callRoute(getPolicy, "GET", "/api/call-policy", { sessionId: biz.account.sessionId });
    expect(view.body).toMatchObject({ monthlyCapCredits: 4, atCap: "keep_answering", usage: { used: 4, percent: 100, reached: true } });
    const bad = await callRoute(putPolicy, "PUT", "/api/call-policy", { sessionId: biz.account.sessionId, body: { atCap: "panic" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("atCap");
  });

  it("the cap is checked at every turn: reached mid-call (voicemail only), the assistant stops spending, takes a message, then says goodbye", async () => {
    const biz = await withoutTextBack(await business("Midcall Dental"));
    const db = await getDb();
    await setPolicy(biz, { monthlyCapCredits: 2, atCap: "voicemail_only" });
    const from = "+12025558801";
    const before = await getCreditBalance(db, biz.account.organizationId);
    const { callSid, res } = await arrive(biz, from);
    expect(res.verbs.map((v) => v.name)).toEqual(["Gather"]);
    let turn = await say(biz, callSid, res.verbs[0].attrs.action, "What are your opening hours?", { From: from });
    turn = await say(biz, callSid, turn.verbs[0].attrs.action, "And do you take new patients?", { From: from });
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 2); // the cap: two turns
    const stopped = await say(biz, callSid, turn.verbs[0].attrs.action, "How much is a cleaning?", { From: from });
    expect(stopped.verbs.map((v) => v.name)).toEqual(["Gather"]);
    let row = await callRow(callSid);
    expect(row.transcript.at(-1)).toMatchObject({ speaker: "assistant", text: CALL_LINES.capReached("Midcall Dental") });
    expect(row.mode).toBe("message");
    expect(row.routedBecause).toBe("Assistant first: no rule matched. The monthly cap of 2 credits was reached during the call: the assistant took a message instead");
    const message = await say(biz, callSid, stopped.verbs[0].attrs.action, "Please have Dr. Lee call me back about a cleaning quote", { From: from });
    // The message is a task before the reply says so, and the reply reads the number back.
    expect((await callRow(callSid)).transcript.at(-1)!.text).toMatch(/^Thank you, Pat Caller\. I've written your message down for the team at Midcall Dental, and they'll call you back at 2 0 2, 5 5 5, 8 8 0 1\./);
    const last = await say(biz, callSid, message.verbs[0].attrs.action, "Also, are you open on Saturdays?", { From: from });
    expect(last.verbs.map((v) => v.name)).toContain("Hangup");
    row = await callRow(callSid);
    expect(row.transcript.at(-1)!.text).toBe(CALL_LINES.capGoodbye("Midcall Dental"));
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 2); // nothing charged after the cap
    const actions = await db.select().from(assistantActions).where(and(eq(assistantActions.organizationId, biz.account.organizationId), eq(assistantActions.callId, row.id)));
    expect(actions.map((a) => a.type).sort()).toEqual(["cap_reached", "took_message"]);

    // keep_answering: the same turn is answered and billed.
    await setPolicy(biz, { atCap: "keep_answering" });
    const billed = await arrive(biz, "+12025558902");
    const answered = await say(biz, billed.callSid, billed.res.verbs[0].attrs.action, "How much is a cleaning?", { From: "+12025558902" });
    expect((await callRow(billed.callSid)).transcript.at(-1)!.text).not.toBe(CALL_LINES.capReached("Midcall Dental"));
    expect(answered.verbs.map((v) => v.name)).toEqual(["Gather"]);
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 3);
  });
});

describe("texts", () => {
  it("show their cost; a spam text is credited back; a blocked sender gets no reply", async () => {
    const biz = await business("Text Dental");
    const db = await getDb();
    const before = await getCreditBalance(db, biz.account.organizationId);
    const text = async (from: string, body: string) => {
      const sid = fakeSid("SM");
      const res = await carrierPost(smsHook, "/api/telephony/sms", { MessageSid: sid, AccountSid: biz.accountSid, From: from, To: biz.phoneNumber, Body: body, NumMedia: "0" }, biz.authToken);
      expect(res.status).toBe(200);
      const [row] = await db.select().from(messages).where(eq(messages.providerMessageSid, sid));
      return { res, row };
    };
    const ok = await text("+12025558801", "What are your opening hours?");
    expect(ok.row).toMatchObject({ costCredits: 1, creditedBack: 0, isSpam: false });
    const pitch = await text("+12025558902", "Congratulations, you have won a free cruise, claim your prize now");
    // Spam before cost (issue 27): understanding reads the pitch before the turn is charged, so nothing is spent or credited back.
    expect(pitch.row).toMatchObject({ costCredits: 0, creditedBack: 0, isSpam: true, spamReasons: [SPAM.pitchText] });
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 1);
    await callRoute(addBlock, "POST", "/api/blocklist", { sessionId: biz.account.sessionId, body: { phoneNumber: "+12025558903" } });
    const blocked = await text("+12025558903", "Hello?");
    expect(find(blocked.res.verbs, "Message")).toBeUndefined();
    expect(blocked.row).toMatchObject({ isSpam: true, spamScore: 100, spamReasons: [SPAM.blockList], costCredits: 0 });
  });
});
