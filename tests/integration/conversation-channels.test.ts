/**
 * One engine turn for every channel (lib/agents/conversation/turn.ts), tried as a caller would: opt-out in
 * any words and "are you a robot?" by text and through A2A, a message taken on the phone that the
 * call's record and text-back describe truthfully (the caller's name as given, never "Phone panel"),
 * an opt-out on a call with its one confirmation text, and a robocall that costs nothing.
 */
import { and, eq } from "drizzle-orm";
import { POST as statusHook } from "@/app/api/telephony/status/route";
import { PUT as putPolicy } from "@/app/api/call-policy/route";
import { assistantActions, callFollowUps, messages, messageThreads, smsOptOuts, tasks } from "@/db/schema";
import { askQuestionSkill } from "@/lib/agents/a2a/agent/skills";
import { getCreditBalance } from "@/lib/workspace/billing/ledger";
import { closeDb, getDb } from "@/lib/platform/database";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { memoryFor } from "@/lib/phone/callers/memory";
import { SMS_TEXTS } from "@/lib/channels/phone-line/sms";
import { finishCallJob } from "@/lib/channels/phone-line/voice/post-call";
import { carrierPost } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, callParams, callRow, say, startCall, textFrom, type Business } from "../helpers/phone";

jest.setTimeout(120_000);
afterAll(() => closeDb());

const text = textFrom;

async function optOutActions(organizationId: string) {
  const db = await getDb();
  return db.select().from(assistantActions).where(and(eq(assistantActions.organizationId, organizationId), eq(assistantActions.type, "opted_out")));
}

async function outboundTo(organizationId: string, to: string) {
  const db = await getDb();
  return db.select().from(messages).where(and(eq(messages.organizationId, organizationId), eq(messages.toNumber, to), eq(messages.direction, "outbound")));
}

const arrive = (biz: Business, from: string, extra: Record<string, string> = {}) => startCall(biz, undefined, { From: from, ...extra });

async function endCall(biz: Business, callSid: string, from: string) {
  await carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { From: from, CallStatus: "completed", CallDuration: "45" }), biz.authToken);
  await runDueJobs({ definitions: [finishCallJob as never], schedules: false });
}

describe("texts through the engine", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Engine Texts Dental");
  });

  it("opts a texter out in their own words, once, with the words kept, and charges nothing", async () => {
    const db = await getDb();
    const from = "+15555550161";
    const before = await getCreditBalance(db, biz.account.organizationId);
    const res = await text(biz, from, "Please stop texting me");
    expect(res.verbs.map((v) => v.name)).toEqual(["Message"]);
    expect(res.verbs[0].text).toBe(SMS_TEXTS.stopped);
    expect(await db.select().from(smsOptOuts).where(and(eq(smsOptOuts.organizationId, biz.account.organizationId), eq(smsOptOuts.phone, from)))).toHaveLength(1);
    const [thread] = await db.select().from(messageThreads).where(and(eq(messageThreads.organizationId, biz.account.organizationId), eq(messageThreads.contactNumber, from)));
    expect(thread.optedOut).toBe(true);
    const actions = (await optOutActions(biz.account.organizationId)).filter((a) => a.detail.contact === from);
    expect(actions).toHaveLength(1);
    expect(actions[0].detail).toMatchObject({ words: "Please stop texting me", channel: "sms" });
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);
    // Nothing more is sent to them.
    const after = await text(biz, from, "What are your hours?");
    expect(after.verbs.filter((v) => v.name === "Message")).toHaveLength(0);
    expect(await outboundTo(biz.account.organizationId, from)).toHaveLength(1);
  });

  it("answers 'are you a robot?' truthfully, free of charge", async () => {
    const db = await getDb();
    const before = await getCreditBalance(db, biz.account.organizationId);
    const res = await text(biz, "+15555550162", "Wait, are you a robot?");
    expect(res.verbs[0].text).toMatch(/an AI assistant for Engine Texts Dental, not a person/);
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);
  });
});

describe("A2A through the engine", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Engine Agent Salon");
  });
  const run = (text: string, data: Record<string, unknown> | null = null) =>
    getDb().then((db) => askQuestionSkill.run({ db, organizationId: biz.account.organizationId, text, data, sender: { name: "Concierge bot" } as never, history: [] }));

  it("opts the customer's number out in any words, with one confirmation text, and records the words", async () => {
    const db = await getDb();
    const phone = "+15555550171";
    const before = await getCreditBalance(db, biz.account.organizationId);
    const answer = await run("My client says: take me off your list", { customerPhone: phone });
    expect(answer.text).toMatch(/taken your number off Engine Agent Salon's list/);
    expect(answer.intent).toBe("opt_out");
    expect(await db.select().from(smsOptOuts).where(and(eq(smsOptOuts.organizationId, biz.account.organizationId), eq(smsOptOuts.phone, phone)))).toHaveLength(1);
    const actions = (await optOutActions(biz.account.organizationId)).filter((a) => a.detail.contact === phone);
    expect(actions[0].detail).toMatchObject({ words: "My client says: take me off your list", channel: "a2a" });
    const sent = await outboundTo(biz.account.organizationId, phone);
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatch(/opted out/);
    // Asked again: still opted out, no second confirmation.
    await run("Don't call me again", { customerPhone: phone });
    expect(await outboundTo(biz.account.organizationId, phone)).toHaveLength(1);
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);
  });

  it("without a number, asks whose number instead of claiming an opt-out", async () => {
    const answer = await run("Stop texting me");
    expect(answer.text).toMatch(/which phone number/);
  });

  it("answers 'are you a robot?' truthfully, free of charge", async () => {
    const db = await getDb();
    const before = await getCreditBalance(db, biz.account.organizationId);
    const answer = await run("Are you a robot or a real person?");
    expect(answer.text).toMatch(/an AI assistant for Engine Agent Salon, not a person/);
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);
  });
});

describe("calls through the engine, and the records after them", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Engine Calls Dental");
  });

  it("takes a message from the browser phone: the task, the summary and the text-back say what happened, under the name the caller gave", async () => {
    const db = await getDb();
    const from = "+15555550181";
    const { callSid, res } = await arrive(biz, from, { CallerName: "Phone panel" });
    const t1 = await say(biz, callSid, res.verbs[0].attrs.action, "Can I leave a message for Dr. Lee?", { From: from, CallerName: "Phone panel" });
    expect(JSON.stringify(t1.verbs)).toMatch(/Gather/);
    const t2 = await say(biz, callSid, t1.verbs[0].attrs.action, "This is Tom Baker. Please ask her to call me about my crown.", { From: from, CallerName: "Phone panel" });
    await say(biz, callSid, t2.verbs[0].attrs.action, "That's all, bye", { From: from, CallerName: "Phone panel" });
    const row = await callRow(callSid);
    const written = await db.select().from(tasks).where(and(eq(tasks.organizationId, biz.account.organizationId), eq(tasks.callId, row.id)));
    expect(written).toHaveLength(1);
    expect(written[0].detail).toMatch(/call me about my crown/);
    expect(written[0].contactName).toBe("Tom Baker");

    await endCall(biz, callSid, from);
    const after = await callRow(callSid);
    expect(after.callerName).toBe("Tom Baker");
    expect(after.summary).toMatch(/^Took a message for the team/);
    expect(after.summary).not.toMatch(/Phone panel/);
    const texts = await outboundTo(biz.account.organizationId, from);
    expect(texts).toHaveLength(1);
    expect(texts[0].body).toMatch(/We passed your message on to the team: ".*crown/);
    expect(texts[0].body).not.toMatch(/follow up soon/);
  });

  it("sends no text after a call that needed nothing", async () => {
    const db = await getDb();
    const from = "+15555550182";
    const { callSid, res } = await arrive(biz, from);
    const t1 = await say(biz, callSid, res.verbs[0].attrs.action, "What are your opening hours?", { From: from });
    await say(biz, callSid, t1.verbs[0].attrs.action, "Great, thanks, bye", { From: from });
    await endCall(biz, callSid, from);
    const row = await callRow(callSid);
    expect(await outboundTo(biz.account.organizationId, from)).toHaveLength(0);
    const [follow] = await db.select().from(callFollowUps).where(eq(callFollowUps.callId, row.id));
    expect(follow.textBack).toBe("not_needed");
  });

  it("opts a caller out in their own words with one confirmation text, and sends no text-back after", async () => {
    const from = "+15555550183";
    const { callSid, res } = await arrive(biz, from);
    const t1 = await say(biz, callSid, res.verbs[0].attrs.action, "Don't call me again and stop texting me", { From: from });
    expect(t1.text).toMatch(/Gather/);
    const actions = (await optOutActions(biz.account.organizationId)).filter((a) => a.detail.contact === from);
    expect(actions).toHaveLength(1);
    expect(actions[0].detail).toMatchObject({ words: "Don't call me again and stop texting me", channel: "call" });
    await say(biz, callSid, t1.verbs[0].attrs.action, "Bye", { From: from });
    await endCall(biz, callSid, from);
    const texts = await outboundTo(biz.account.organizationId, from);
    expect(texts).toHaveLength(1);
    expect(texts[0].body).toMatch(/opted out/);
    expect(texts[0]).toMatchObject({ sentBy: "system", intent: "opt_out", threadId: expect.any(String) });
  });

  it("a caller the spam score flags is not saved as a contact, gets no text-back and costs no credit", async () => {
    const db = await getDb();
    const policy = await callRoute(putPolicy, "PUT", "/api/call-policy", { sessionId: biz.account.sessionId, body: { spamThreshold: 50, spamAction: "voicemail" } });
    expect(policy.status).toBe(200);
    const from = "+12025557700";
    const before = await getCreditBalance(db, biz.account.organizationId);
    const { callSid, res } = await arrive(biz, from, { StirVerstat: "TN-Validation-Failed-C" });
    expect(res.verbs.map((v) => v.name)).toContain("Record");
    await endCall(biz, callSid, from);
    const row = await callRow(callSid);
    expect(row.isSpam).toBe(true);
    expect(await memoryFor(db, biz.account.organizationId, from)).toBeNull();
    expect(await outboundTo(biz.account.organizationId, from)).toHaveLength(0);
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);
    await callRoute(putPolicy, "PUT", "/api/call-policy", { sessionId: biz.account.sessionId, body: { spamThreshold: 70 } });
  });

  it("a robocall pitch mid-call is declined before any credit is spent, and leaves no contact", async () => {
    const db = await getDb();
    const from = "+12025557711";
    const before = await getCreditBalance(db, biz.account.organizationId);
    const { callSid, res } = await arrive(biz, from);
    const t1 = await say(biz, callSid, res.verbs[0].attrs.action, "Hi, we can lower your merchant processing rates and save your business money today", { From: from });
    expect(t1.verbs.map((v) => v.name)).toContain("Hangup");
    await endCall(biz, callSid, from);
    const row = await callRow(callSid);
    expect(row.isSpam).toBe(true);
    expect(await memoryFor(db, biz.account.organizationId, from)).toBeNull();
    expect(await outboundTo(biz.account.organizationId, from)).toHaveLength(0);
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);
  });
});
