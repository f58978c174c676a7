/**
 * The phone loop through its webhooks, as Twilio drives it: form-encoded POSTs signed with the real
 * `twilio` package, TwiML answers parsed as XML. Offline providers (local responder + offline
 * speech), the simulated carrier's account per organization, the real database of the run.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { GET as getAudio } from "@/app/api/audio/[id]/route";
import { GET as getCall } from "@/app/api/calls/[id]/route";
import { PATCH as patchNumber } from "@/app/api/phone-numbers/[id]/route";
import { GET as getAccount } from "@/app/api/telephony/account/route";
import { POST as statusHook } from "@/app/api/telephony/status/route";
import { POST as dialHook } from "@/app/api/telephony/voice/dial/route";
import { POST as gatherHook } from "@/app/api/telephony/voice/gather/route";
import { POST as recordHook } from "@/app/api/telephony/voice/record/route";
import { POST as recordingHook } from "@/app/api/telephony/voice/recording/route";
import { POST as voiceHook } from "@/app/api/telephony/voice/route";
import { assistantActions, assistantReplies, calls, creditLedger, tasks, voiceAssistants } from "@/db/schema";
import { getCreditBalance } from "@/lib/workspace/billing/ledger";
import { chargeTurn } from "@/lib/agents/conversation/credits";
import { createFilesystemBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { closeDb, getDb } from "@/lib/platform/database";
import { getJobQueue } from "@/lib/platform/jobs/queue";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import type { LlmProvider } from "@/lib/platform/providers/llm/interface";
import { selectLlm } from "@/lib/workspace/provider-selection/llm";
import { finishCallJob } from "@/lib/channels/phone-line/voice/post-call";
import { forgetCallContexts } from "@/lib/channels/phone-line/voice/runtime";
import { registerTestUser } from "../helpers/accounts";
import { carrierPost, fakeSid, find, pathOf } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, callParams, callRow, say, startCall, type Business } from "../helpers/phone";

// The first test opens and migrates the database of the run: slow on a busy machine.
jest.setTimeout(90_000);

jest.mock("@/lib/workspace/provider-selection/llm", () => {
  const actual = jest.requireActual("@/lib/workspace/provider-selection/llm");
  return { ...actual, selectLlm: jest.fn(actual.selectLlm) };
});

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-phone-"));
beforeAll(() => setBlobStore(createFilesystemBlobStore(blobDir)));
afterAll(async () => {
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});

describe("GET /api/telephony/account", () => {
  it("gives each organization its own simulated-carrier account and the webhook URLs", async () => {
    const a = await business("Acme Dental");
    const b = await business("Bolt Bikes");
    expect(a.accountSid).toMatch(/^AC[0-9a-f]{32}$/);
    expect(a.authToken).toMatch(/^[0-9a-f]{32}$/);
    expect(b.accountSid).not.toBe(a.accountSid);
    expect(b.authToken).not.toBe(a.authToken);
    const res = await callRoute(getAccount, "GET", "/api/telephony/account", { sessionId: a.account.sessionId });
    expect(res.body).toMatchObject({
      provider: "simulated",
      accountSid: a.accountSid,
      authToken: a.authToken,
      voiceUrl: "http://localhost:3000/api/telephony/voice",
      statusCallbackUrl: "http://localhost:3000/api/telephony/status",
      smsUrl: "http://localhost:3000/api/telephony/sms",
    });
    expect((await callRoute(getAccount, "GET", "/api/telephony/account")).status).toBe(401);
  });
});

describe("voice webhook: signatures and unknown numbers", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Signed Dental");
  });

  it("refuses a missing, forged or wrong-account signature with 403 and writes nothing", async () => {
    const other = await business("Other Org");
    const sid = fakeSid("CA");
    const params = callParams(biz, sid);
    const missing = await carrierPost(voiceHook, "/api/telephony/voice", params, biz.authToken, { signature: null });
    expect(missing.status).toBe(403);
    const forged = await carrierPost(voiceHook, "/api/telephony/voice", params, biz.authToken, { signature: "bm90IGEgc2lnbmF0dXJl" });
    expect(forged.status).toBe(403);
    // Signed with another organization's token (and its account sid).
    const wrongKey = await carrierPost(voiceHook, "/api/telephony/voice", params, other.authToken);
    expect(wrongKey.status).toBe(403);
    const wrongAccount = await carrierPost(voiceHook, "/api/telephony/voice", { ...params, AccountSid: other.accountSid }, biz.authToken);
    expect(wrongAccount.status).toBe(403);
    // Signed for another URL (a replay against a different endpoint).
    const wrongUrl = await carrierPost(voiceHook, "/api/telephony/voice", params, biz.authToken, { url: "http://localhost:3000/api/telephony/sms" });
    expect(wrongUrl.status).toBe(403);
    // A tampered parameter after signing.
    const tampered = await carrierPost(voiceHook, "/api/telephony/voice", { ...params, From: "+15555550999" }, biz.authToken, {
      signature: (await import("twilio")).default.getExpectedTwilioSignature(biz.authToken, "http://localhost:3000/api/telephony/voice", params),
    });
    expect(tampered.status).toBe(403);
    expect(await callRow(sid)).toBeUndefined();
  });

  it("answers an unknown number with a polite Say and Hangup, touching nothing", async () => {
    const sid = fakeSid("CA");
    const res = await carrierPost(voiceHook, "/api/telephony/voice", { ...callParams(biz, sid), To: "+14155550999" }, biz.authToken);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/xml");
    expect(res.root).toBe("Response");
    expect(res.verbs.map((v) => v.name)).toEqual(["Say", "Hangup"]);
    expect(res.verbs[0].text).toMatch(/not in service/i);
    expect(await callRow(sid)).toBeUndefined();
  });

  it("answers an inactive number the same way, after checking the signature", async () => {
    const inactive = await business("Closed Shop");
    await callRoute(patchNumber, "PATCH", `/api/phone-numbers/${inactive.numberId}`, {
      sessionId: inactive.account.sessionId,
      params: { id: inactive.numberId },
      body: { isActive: false },
    });
    const sid = fakeSid("CA");
    expect((await carrierPost(voiceHook, "/api/telephony/voice", callParams(inactive, sid), "wrong-token")).status).toBe(403);
    const res = await carrierPost(voiceHook, "/api/telephony/voice", callParams(inactive, sid), inactive.authToken);
    expect(res.verbs.map((v) => v.name)).toEqual(["Say", "Hangup"]);
    expect(await callRow(sid)).toBeUndefined();
  });
});

describe("the turn loop", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Acme Dental");
  });

  it("greets with the assistant's greeting played from a signed URL inside a speech Gather", async () => {
    const { callSid, res } = await startCall(biz);
    expect(res.root).toBe("Response");
    expect(res.verbs).toHaveLength(1);
    const [gather] = res.verbs;
    expect(gather.name).toBe("Gather");
    expect(gather.attrs).toMatchObject({ input: "speech dtmf", finishOnKey: "#", method: "POST", actionOnEmptyResult: "true", speechTimeout: "auto" });
    expect(gather.attrs.action).toBe("http://localhost:3000/api/telephony/voice/gather?step=1");
    expect(gather.children.map((c) => c.name)).toEqual(["Play"]);
    const audioUrl = new URL(gather.children[0].text);
    expect(audioUrl.origin).toBe("http://localhost:3000");
    expect(audioUrl.pathname).toMatch(/^\/api\/audio\/[0-9a-f-]{36}$/);
    // The carrier fetches it with no session.
    const audio = await getAudio(new Request(audioUrl), { params: Promise.resolve({ id: audioUrl.pathname.split("/").pop()! }) });
    expect(audio.status).toBe(200);
    expect(audio.headers.get("content-type")).toMatch(/^audio\//);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const row = await callRow(callSid);
    expect(row).toMatchObject({
      organizationId: biz.account.organizationId,
      phoneNumberId: biz.numberId,
      assistantId: biz.assistantId,
      status: "in_progress",
      direction: "inbound",
      fromNumber: "+15555550123",
      callerName: "Pat Caller",
      provider: "simulated",
      transport: "gather",
    });
    expect(row.transcript).toEqual([expect.objectContaining({ speaker: "assistant", text: "Thanks for calling Acme Dental, this is Riley. How can I help?" })]);
  });

  it("answers a retried call webhook with the same TwiML and no second record", async () => {
    const { callSid, res } = await startCall(biz);
    const again = await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, callSid), biz.authToken);
    expect(again.text).toBe(res.text);
    const db = await getDb();
    expect(await db.select().from(calls).where(eq(calls.providerCallSid, callSid))).toHaveLength(1);
  });

  it("turns what the caller said into the assistant's spoken reply, with latency, credits and a reply row", async () => {
    const db = await getDb();
    const before = await getCreditBalance(db, biz.account.organizationId);
    const { callSid, res } = await startCall(biz);
    const turn = await say(biz, callSid, res.verbs[0].attrs.action, "What are your opening hours?");
    expect(turn.status).toBe(200);
    expect(turn.headers.get("server-timing")).toMatch(/llm;dur=[\d.]+, tts;dur=[\d.]+, nlu;dur=[\d.]+, total;dur=[\d.]+/);
    expect(turn.verbs.map((v) => v.name)).toEqual(["Gather"]);
    expect(turn.verbs[0].attrs.action).toBe("http://localhost:3000/api/telephony/voice/gather?step=2");
    expect(turn.verbs[0].children[0].name).toBe("Play");

    const row = await callRow(callSid);
    expect(row.transcript).toHaveLength(3);
    expect(row.transcript[1]).toMatchObject({ speaker: "caller", text: "What are your opening hours?" });
    expect(row.transcript[2].speaker).toBe("assistant");
    expect(row.transcript[2].text).toContain("Mon–Fri 9 AM–5 PM");
    expect(row.transcript[2].latencyMs).toEqual(expect.any(Number));
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 1);
    const replies = await db.select().from(assistantReplies).where(eq(assistantReplies.callId, row.id));
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ source: "call", intent: "hours", llmProvider: "local", organizationId: biz.account.organizationId });

    // The carrier retries the same step: same answer, nothing recorded twice.
    const retry = await say(biz, callSid, res.verbs[0].attrs.action, "What are your opening hours?");
    expect(retry.text).toBe(turn.text);
    expect((await callRow(callSid)).transcript).toHaveLength(3);
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 1);

    // The context carries: a time after "what day and time?" continues the booking.
    const booking = await say(biz, callSid, turn.verbs[0].attrs.action, "I'd like to book a cleaning");
    const time = await say(biz, callSid, booking.verbs[0].attrs.action, "Tuesday at 3pm");
    expect(time.verbs[0].name).toBe("Gather");
    const after = await callRow(callSid);
    expect(after.transcript[after.transcript.length - 1].text).toMatch(/Tuesday at 3pm/i);
    const actions = await db.select().from(assistantActions).where(eq(assistantActions.callId, after.id));
    expect(actions.map((a) => a.type)).toContain("booking_requested");
  });

  it("resumes a step whose claim was taken by a process that died: the caller's words kept, one charge, no 'lost track'", async () => {
    const db = await getDb();
    const { callSid, res } = await startCall(biz);
    const before = await getCreditBalance(db, biz.account.organizationId);
    // A process claimed step 1, wrote the caller's words and spent the turn's credit, then was killed (kill -9).
    const row = await callRow(callSid);
    const words = "What are your opening hours?";
    await db
      .update(calls)
      .set({
        step: 2,
        stepClaimedAt: new Date(Date.now() - 60_000),
        transcript: [...row.transcript, { speaker: "caller", text: words, at: new Date().toISOString(), step: 1 }],
      })
      .where(eq(calls.id, row.id));
    await chargeTurn(db, { channel: "call", organizationId: biz.account.organizationId, reference: `call-turn:${row.id}:1` });
    // The carrier retries the step after the restart: the call goes on.
    const retry = await say(biz, callSid, res.verbs[0].attrs.action, words);
    expect(retry.verbs.map((v) => v.name)).toEqual(["Gather"]);
    expect(retry.text).not.toMatch(/lost track/);
    expect(retry.verbs[0].attrs.action).toBe("http://localhost:3000/api/telephony/voice/gather?step=2");
    const after = await callRow(callSid);
    expect(after.transcript.filter((t) => t.speaker === "caller")).toHaveLength(1);
    expect(after.transcript.at(-1)).toMatchObject({ speaker: "assistant" });
    expect(after.transcript.at(-1)?.text).toContain("Mon–Fri 9 AM–5 PM");
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 1);
    // A live claim (fresh) is not taken over: a second request for the step replays the answer.
    const again = await say(biz, callSid, res.verbs[0].attrs.action, words);
    expect(again.text).toBe(retry.text);
  });

  it("writes the caller's words before the reply is computed", async () => {
    const { callSid, res } = await startCall(biz);
    const seen: string[][] = [];
    const spying: LlmProvider = {
      name: "local",
      generateReply: async () => {
        seen.push((await callRow(callSid)).transcript.map((t) => t.text));
        return { text: "We're open Mon–Fri 9 AM–5 PM.", intent: "hours" };
      },
      streamReply: async function* () {
        throw new Error("unused");
      },
      analyzeConversation: async () => {
        throw new Error("unused");
      },
    };
    forgetCallContexts();
    (selectLlm as jest.Mock).mockResolvedValueOnce(spying);
    await say(biz, callSid, res.verbs[0].attrs.action, "Are you open on Fridays?");
    expect(seen[0]).toContain("Are you open on Fridays?");
    expect((await callRow(callSid)).transcript.filter((t) => t.text === "Are you open on Fridays?")).toHaveLength(1);
  });

  it("asks again after one silence and says goodbye after the second", async () => {
    const { callSid, res } = await startCall(biz);
    const first = await say(biz, callSid, res.verbs[0].attrs.action, "");
    expect(first.verbs.map((v) => v.name)).toEqual(["Gather"]);
    expect((await callRow(callSid)).transcript.at(-1)?.text).toBe("Are you still there? How can I help you?");
    const second = await say(biz, callSid, first.verbs[0].attrs.action, "");
    expect(second.verbs.map((v) => v.name)).toEqual(["Play", "Hangup"]);
    const row = await callRow(callSid);
    expect(row).toMatchObject({ status: "completed", mode: "ended", outcome: "answered_by_assistant", silentPrompts: 2 });
    expect(row.endedAt).not.toBeNull();
    const pending = await (await getJobQueue()).pending("call.finish");
    expect(pending.map((j) => (j.data as { callId: string }).callId)).toContain(row.id);
  });

  it("hangs up with a closing line when the caller says goodbye", async () => {
    const { callSid, res } = await startCall(biz);
    const bye = await say(biz, callSid, res.verbs[0].attrs.action, "No, that's all, thanks. Bye!");
    expect(bye.verbs.map((v) => v.name)).toEqual(["Play", "Hangup"]);
    const row = await callRow(callSid);
    expect(row.transcript.at(-1)?.text).toBe("Thanks for calling Acme Dental. Have a great day. Goodbye!");
    expect(row.status).toBe("completed");
  });

  it("offers voicemail when the reply fails, records the failure class and refunds the turn", async () => {
    const failing: LlmProvider = {
      name: "anthropic",
      generateReply: async () => {
        throw Object.assign(new Error("Anthropic failed (401): the API key was refused"), { status: 401 });
      },
      streamReply: async function* () {
        throw Object.assign(new Error("Anthropic failed (401): the API key was refused"), { status: 401 });
      },
      analyzeConversation: async () => {
        throw new Error("unused");
      },
    };
    const db = await getDb();
    const { callSid, res } = await startCall(biz);
    const before = await getCreditBalance(db, biz.account.organizationId);
    forgetCallContexts(); // the greeting just cached this business's providers
    (selectLlm as jest.Mock).mockResolvedValueOnce(failing);
    const turn = await say(biz, callSid, res.verbs[0].attrs.action, "Do you take walk-ins?");
    expect(turn.verbs.map((v) => v.name)).toEqual(["Say", "Record", "Say", "Hangup"]);
    expect(turn.verbs[0].text).toMatch(/trouble answering/);
    expect(turn.verbs[1].attrs).toMatchObject({
      action: "http://localhost:3000/api/telephony/voice/record?step=2",
      recordingStatusCallback: "http://localhost:3000/api/telephony/voice/recording",
      recordingStatusCallbackEvent: "completed",
      maxLength: "120",
      playBeep: "true",
    });
    const row = await callRow(callSid);
    expect(row).toMatchObject({ failureClass: "authentication", mode: "voicemail" });
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before);
    const refunds = await db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, biz.account.organizationId), eq(creditLedger.kind, "refund")));
    expect(refunds.some((r) => r.reference === `call-turn:${row.id}:1`)).toBe(true);
  });
});

describe("transfer to a person", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Harbor Dental", { forwardTo: "+15035550100" });
  });

  it("dials the forward-to number and ends the call when the transfer is answered", async () => {
    const { callSid, res } = await startCall(biz);
    const turn = await say(biz, callSid, res.verbs[0].attrs.action, "Can I speak to a real person please?");
    expect(turn.verbs.map((v) => v.name)).toEqual(["Play", "Dial"]);
    const dial = turn.verbs[1];
    expect(find(dial.children, "Number")?.text).toBe("+15035550100");
    // The person answering sees the caller's own number, and hears a briefing first (the Number's url).
    expect(dial.attrs).toMatchObject({
      action: "http://localhost:3000/api/telephony/voice/dial?step=2&to=%2B15035550100",
      timeout: "20",
      callerId: "+15555550123",
    });
    expect(find(dial.children, "Number")?.attrs.url).toMatch(/^http:\/\/localhost:3000\/api\/telephony\/voice\/whisper\?callId=/);
    const done = await carrierPost(dialHook, pathOf(dial.attrs.action), callParams(biz, callSid, { DialCallStatus: "completed", DialCallDuration: "42" }), biz.authToken);
    expect(done.verbs.map((v) => v.name)).toEqual(["Hangup"]);
    const row = await callRow(callSid);
    expect(row).toMatchObject({ outcome: "transferred", status: "completed" });
    const db = await getDb();
    const [action] = await db.select().from(assistantActions).where(and(eq(assistantActions.callId, row.id), eq(assistantActions.type, "transferred")));
    expect(action.detail).toMatchObject({ to: "+15035550100", durationSeconds: 42 });
  });

  it("comes back to the assistant, which takes a message, when nobody answers", async () => {
    const { callSid, res } = await startCall(biz);
    const turn = await say(biz, callSid, res.verbs[0].attrs.action, "Let me talk to someone");
    const dial = find(turn.verbs, "Dial")!;
    const noAnswer = await carrierPost(dialHook, pathOf(dial.attrs.action), callParams(biz, callSid, { DialCallStatus: "no-answer" }), biz.authToken);
    expect(noAnswer.verbs.map((v) => v.name)).toEqual(["Gather"]);
    expect((await callRow(callSid)).transcript.at(-1)?.text).toMatch(/nobody at Harbor Dental could pick up/);
    const message = await say(biz, callSid, noAnswer.verbs[0].attrs.action, "This is Sam, my crown fell out, call me on 555 0123");
    expect(message.verbs.map((v) => v.name)).toEqual(["Gather"]);
    const row = await callRow(callSid);
    expect(row.transcript.find((t) => t.kind === "message")?.text).toBe("This is Sam, my crown fell out, call me on 555 0123");
    expect(row.mode).toBe("conversation");
    const db = await getDb();
    const types = (await db.select().from(assistantActions).where(eq(assistantActions.callId, row.id))).map((a) => a.type);
    expect(types).toEqual(expect.arrayContaining(["transfer_unanswered", "took_message"]));
    // The task is for whoever they asked to be put through to: the ask is part of the message.
    const [task] = await db.select().from(tasks).where(eq(tasks.callId, row.id));
    expect(task.detail).toBe("Let me talk to someone — This is Sam, my crown fell out, call me on 555 0123");
  });
});

describe("status callbacks", () => {
  it("move a call forward only, keep CallDuration, and never make a second record", async () => {
    const biz = await business("Status Spa");
    const { callSid } = await startCall(biz);
    const post = (status: string, extra: Record<string, string> = {}) =>
      carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { CallStatus: status, ...extra }), biz.authToken);
    expect((await post("completed", { CallDuration: "37" })).status).toBe(200);
    let row = await callRow(callSid);
    expect(row).toMatchObject({ status: "completed", durationSeconds: 37, carrierStatus: "completed" });
    expect(row.endedAt).not.toBeNull();
    await post("ringing");
    await post("in-progress");
    row = await callRow(callSid);
    expect(row).toMatchObject({ status: "completed", durationSeconds: 37 });
    expect((await post("completed", { CallDuration: "37" })).status).toBe(200);
    const db = await getDb();
    expect(await db.select().from(calls).where(eq(calls.providerCallSid, callSid))).toHaveLength(1);
    expect((await carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { CallStatus: "completed" }), "bad")).status).toBe(403);
  });

  it("records a call the carrier reports before the voice webhook, and marks busy / no-answer as missed", async () => {
    const biz = await business("Early Bird");
    const callSid = fakeSid("CA");
    const res = await carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { CallStatus: "no-answer" }), biz.authToken);
    expect(res.status).toBe(200);
    expect(await callRow(callSid)).toMatchObject({ status: "missed", outcome: "missed", organizationId: biz.account.organizationId });
  });
});

describe("after the call", () => {
  it("summarises the call in a job, and GET /api/calls/{id} shows every turn with its latency", async () => {
    const biz = await business("Summary Dental");
    const { callSid, res } = await startCall(biz);
    const t1 = await say(biz, callSid, res.verbs[0].attrs.action, "What are your opening hours?");
    const t2 = await say(biz, callSid, t1.verbs[0].attrs.action, "Great, I'd like to book a cleaning on Tuesday at 3pm");
    await say(biz, callSid, t2.verbs[0].attrs.action, "Thanks, that's all. Bye!");
    const row = await callRow(callSid);
    expect(row.summary).toBeNull();
    await carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { CallStatus: "completed", CallDuration: "64" }), biz.authToken);

    await runDueJobs({ definitions: [finishCallJob as never], schedules: false });
    const detail = await callRoute(getCall, "GET", `/api/calls/${row.id}`, { sessionId: biz.account.sessionId, params: { id: row.id } });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: row.id,
      status: "completed",
      outcome: "answered_by_assistant",
      failureClass: null,
      durationSeconds: 64,
      intent: "appointment",
      sentiment: "positive",
      provider: "simulated",
      transport: "gather",
    });
    expect(detail.body.sentimentScore).toBeGreaterThanOrEqual(4);
    expect(detail.body.summary).toMatch(/Pat Caller \(\+15555550123\) called Summary Dental/);
    expect(detail.body.summary).toMatch(/Tuesday at 3pm/);
    expect(detail.body.actionItems).toEqual(expect.arrayContaining([expect.stringMatching(/Confirm the appointment .*Tuesday at 3pm/)]));
    const speakers = detail.body.transcript.map((t: { speaker: string }) => t.speaker);
    expect(speakers).toEqual(["assistant", "caller", "assistant", "caller", "assistant", "caller", "assistant"]);
    for (const t of detail.body.transcript.filter((x: { speaker: string }, i: number) => x.speaker === "assistant" && i > 0 && i < 6)) {
      expect(t.latencyMs).toEqual(expect.any(Number));
      expect(new Date(t.at).toString()).not.toBe("Invalid Date");
    }
    expect(detail.body.actions.map((a: { type: string }) => a.type)).toContain("booking_requested");

    // Another organization cannot read it.
    const stranger = await registerTestUser();
    expect((await callRoute(getCall, "GET", `/api/calls/${row.id}`, { sessionId: stranger.sessionId, params: { id: row.id } })).status).toBe(404);
  });
});

describe("tenancy", () => {
  it("a call to one organization's number never touches another's data", async () => {
    const a = await business("Alpha Clinic");
    const b = await business("Beta Clinic");
    const { callSid } = await startCall(a);
    const aCall = await callRow(callSid);
    // B's account tries to drive A's call: refused.
    const hijack = await carrierPost(gatherHook, "/api/telephony/voice/gather?step=1", { ...callParams(b, callSid), SpeechResult: "hello" }, b.authToken);
    expect(hijack.status).toBe(403);
    // The same CallSid arriving on B's number (signed by B) does not reuse or change A's call.
    const reuse = await carrierPost(voiceHook, "/api/telephony/voice", callParams(b, callSid), b.authToken);
    expect(reuse.status).toBe(403);
    expect(await callRow(callSid)).toMatchObject({ id: aCall.id, organizationId: a.account.organizationId, step: 1 });
    const db = await getDb();
    expect(await db.select().from(calls).where(eq(calls.organizationId, b.account.organizationId))).toHaveLength(0);
  });
});

describe("voicemail", () => {
  it("records, hangs up, and queues the recording for processing once per RecordingSid", async () => {
    const biz = await business("Voicemail Vets");
    const { callSid, res } = await startCall(biz);
    const ask = await say(biz, callSid, res.verbs[0].attrs.action, "Can I leave a voicemail?");
    expect(ask.verbs.map((v) => v.name)).toEqual(["Play", "Record", "Say", "Hangup"]);
    const record = ask.verbs[1];
    const recordingSid = fakeSid("RE");
    const done = await carrierPost(
      recordHook,
      pathOf(record.attrs.action),
      callParams(biz, callSid, { RecordingSid: recordingSid, RecordingUrl: `https://api.twilio.com/x/Recordings/${recordingSid}`, RecordingDuration: "7", Digits: "hangup" }),
      biz.authToken,
    );
    expect(done.verbs.map((v) => v.name)).toEqual(["Play", "Hangup"]);
    const row = await callRow(callSid);
    expect(row).toMatchObject({ status: "voicemail", outcome: "voicemail", recordingSid, transcriptionStatus: "pending" });

    const params = callParams(biz, callSid, { RecordingSid: recordingSid, RecordingStatus: "completed", RecordingDuration: "7", RecordingChannels: "1", RecordingSource: "RecordVerb" });
    expect((await carrierPost(recordingHook, "/api/telephony/voice/recording", params, biz.authToken)).status).toBe(200);
    expect((await carrierPost(recordingHook, "/api/telephony/voice/recording", params, biz.authToken)).status).toBe(200);
    const pending = (await (await getJobQueue()).pending("voicemail.process")).filter((j) => (j.data as { recordingSid: string }).recordingSid === recordingSid);
    expect(pending).toHaveLength(1);
    expect((await carrierPost(recordingHook, "/api/telephony/voice/recording", params, "bad")).status).toBe(403);
  });

  it("with no active assistant, every call goes straight to voicemail", async () => {
    const biz = await business("Empty Desk");
    const db = await getDb();
    await db.update(voiceAssistants).set({ isActive: false }).where(eq(voiceAssistants.organizationId, biz.account.organizationId));
    const { res, callSid } = await startCall(biz);
    expect(res.verbs.map((v) => v.name)).toEqual(["Play", "Record", "Say", "Hangup"]);
    expect((await callRow(callSid)).mode).toBe("voicemail");
  });
});
