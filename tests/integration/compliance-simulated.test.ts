/**
 * The compliance rules end to end on the simulated carrier (lib/phone/telephony/simulator/carrier-client.ts,
 * the client the phone panel, simulate:call and eval:calls run) against the real webhooks:
 * whole-call recordings where consent holds (<Start><Recording> after the notice), played and
 * downloaded from the call, removed by retention and erasure, not kept without consent; and the
 * notice on a call the business's own phone rang first; opt-out in any words on a call (texts and
 * outbound calls, one confirmation text); the AI disclosure on a text thread's first reply.
 */
import fs from "node:fs";
import { parse } from "csv-parse/sync";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { GET as getCall } from "@/app/api/calls/[id]/route";
import { GET as getAccessLog } from "@/app/api/compliance/access-log/route";
import { GET as listCertificates } from "@/app/api/compliance/erasures/route";
import { GET as getRecording } from "@/app/api/calls/[id]/recording/route";
import { POST as eraseRoute } from "@/app/api/contacts/[id]/erasure/route";
import { POST as forwardingTest } from "@/app/api/phone-numbers/[id]/forwarding-test/route";
import { PATCH as patchNumber } from "@/app/api/phone-numbers/[id]/route";
import { PUT as putSettings } from "@/app/api/settings/compliance/route";
import { PUT as putRetention } from "@/app/api/settings/retention/route";
import { assistantActions, audioClips, callRecordings, calls, contacts, messages, messageThreads, smsOptOuts } from "@/db/schema";
import { createFilesystemBlobStore, getBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { storeRecordingJob } from "@/lib/compliance/recordings";
import { deleteCarrierRecordingJob } from "@/lib/compliance/recording-deletion";
import { closeDb, getDb } from "@/lib/platform/database";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { assertMayCall, optOutOf } from "@/lib/phone/messages/opt-out";
import { sendText } from "@/lib/phone/messages/send-text";
import { applyRetention } from "@/lib/compliance/retention/service";
import { SimulatedCall, sendSimulatedSms } from "@/lib/phone/telephony/simulator/carrier-client";
import { parseWav } from "@/lib/phone/voice/audio";
import { call as callRoute } from "../helpers/http";
import { carrierAccountFrom, inProcessTransport } from "../helpers/in-process-carrier";
import { placeSimulatedCall, scriptedHost } from "../helpers/simulated-call";
import { business, type Business } from "../helpers/phone";

jest.setTimeout(120_000);

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-sim-compliance-"));
beforeAll(() => setBlobStore(createFilesystemBlobStore(blobDir)));
afterAll(async () => {
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});

const NOTICE = /answered by an AI assistant and may be recorded and transcribed/;

const place = placeSimulatedCall;

const detailOf = (biz: Business, id: string) => callRoute(getCall, "GET", `/api/calls/${id}`, { sessionId: biz.account.sessionId, params: { id } });
const recordingOf = (biz: Business, id: string, query = "") => callRoute(getRecording, "GET", `/api/calls/${id}/recording${query}`, { sessionId: biz.account.sessionId, params: { id } });

async function recordingClips(organizationId: string) {
  const db = await getDb();
  return db.select().from(audioClips).where(and(eq(audioClips.organizationId, organizationId), eq(audioClips.source, "recording")));
}

describe("whole-call recordings on the simulated carrier", () => {
  let biz: Business;
  beforeAll(async () => {
    // The defaults: notice on, calls recorded; the simulated number is in California (all-party consent).
    biz = await business("Sim Recorded Dental", { notice: true });
  });

  it("record the call after the notice, play and download it from the call detail, and retention removes it", async () => {
    const { events, row } = await place(biz, "+15555550161", ["What are your opening hours?", "Thanks, that's all. Goodbye!"]);
    const kinds = events.map((e) => e.type);
    // The notice is heard before the recording starts and before anything the caller says.
    const noticeAt = events.findIndex((e) => e.type === "say" && NOTICE.test(e.text));
    expect(noticeAt).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf("recording-started")).toBeGreaterThan(noticeAt);
    expect(kinds.indexOf("listening")).toBeGreaterThan(kinds.indexOf("recording-started"));
    expect(events.some((e) => e.type === "unsupported" || e.type === "recording-failed")).toBe(false);

    await runDueJobs({ definitions: [storeRecordingJob as never], schedules: false });
    const detail = await detailOf(biz, row.id);
    expect(detail.body.consent).toMatchObject({ holds: true, strict: true, stayedOn: true });
    expect(detail.body.callRecording).toMatchObject({ status: "stored", url: `/api/calls/${row.id}/recording`, downloadUrl: `/api/calls/${row.id}/recording?download=1` });
    expect(detail.body.callRecording.durationSeconds).toBeGreaterThan(0);

    const play = await recordingOf(biz, row.id);
    expect(play.status).toBe(200);
    expect(play.headers.get("content-disposition")).toBe("inline");
    const file = await recordingOf(biz, row.id, "?download=1");
    expect(file.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="call-${row.id}\\.(wav|mp3)"$`));
    // One copy only: the carrier's clip is the call's recording, a real audio file with the greeting,
    // the caller's two lines and the replies in it (seconds long).
    const clips = await recordingClips(biz.account.organizationId);
    const [stored] = await (await getDb()).select().from(callRecordings).where(eq(callRecordings.callId, row.id));
    expect(clips.map((c) => c.id)).toEqual([stored.clipId]);
    const bytes = await getBlobStore().get(clips[0].storageKey);
    expect(bytes!.length).toBe(Number(file.headers.get("content-length")));
    if (clips[0].contentType === "audio/wav") expect(parseWav(bytes!).durationMs).toBeGreaterThan(2000);

    // Retention: recordings kept 1 day are gone two days later, and the call says so.
    const saved = await callRoute(putRetention, "PUT", "/api/settings/retention", { sessionId: biz.account.sessionId, body: { recordingsDays: 1, transcriptsDays: null, textsDays: null } });
    expect(saved.status).toBe(200);
    const run = await applyRetention(await getDb(), getBlobStore(), biz.account.organizationId, new Date(Date.now() + 2 * 86_400_000));
    expect(run.recordings).toBeGreaterThanOrEqual(1);
    expect((await detailOf(biz, row.id)).body.callRecording).toMatchObject({ status: "discarded", url: null });
    expect((await recordingOf(biz, row.id)).status).toBe(404);
    expect(await recordingClips(biz.account.organizationId)).toEqual([]);
    await callRoute(putRetention, "PUT", "/api/settings/retention", { sessionId: biz.account.sessionId, body: { recordingsDays: null, transcriptsDays: null, textsDays: null } });
  });

  it("are erased with the caller", async () => {
    const caller = "+15555550162";
    const { row } = await place(biz, caller, ["Do you do fillings?", "Goodbye!"]);
    await runDueJobs({ definitions: [storeRecordingJob as never], schedules: false });
    expect((await detailOf(biz, row.id)).body.callRecording.status).toBe("stored");
    const db = await getDb();
    const [contact] = await db
      .insert(contacts)
      .values({ id: crypto.randomUUID(), organizationId: biz.account.organizationId, phone: caller })
      .onConflictDoUpdate({ target: [contacts.organizationId, contacts.phone], set: { name: null } })
      .returning();
    const erased = await callRoute(eraseRoute, "POST", `/api/contacts/${contact.id}/erasure`, { sessionId: biz.account.sessionId, params: { id: contact.id }, body: { confirm: true } });
    expect(erased.status).toBe(201);
    expect(erased.body.erased.recordings).toBe(1);
    expect((await recordingOf(biz, row.id)).status).toBe(404);
    expect(await recordingClips(biz.account.organizationId)).toEqual([]);
    // The carrier's copy is deleted by a job (here it was the same clip, already gone), and logged.
    await runDueJobs({ definitions: [deleteCarrierRecordingJob as never], schedules: false });

    // The certificate and the access log open in a spreadsheet: read back with an RFC 4180 parser.
    const certificates = await callRoute(listCertificates, "GET", "/api/compliance/erasures?format=csv", { sessionId: biz.account.sessionId });
    expect(certificates.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // (Response.text() drops the byte-order mark; lib/compliance/csv.test.ts checks it is there.)
    const certRows: Record<string, string>[] = parse(certificates.text, { bom: true, columns: true });
    const recordingsLine = certRows.find((r) => r.certificate === erased.body.id && r.what === "recordings");
    expect(recordingsLine).toMatchObject({ subject: "•••• 0162", requested_via: "owner", rows_erased: "1", subject_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(Date.parse(recordingsLine!.erased_at)).not.toBeNaN();
    const log = await callRoute(getAccessLog, "GET", "/api/compliance/access-log?format=csv", { sessionId: biz.account.sessionId });
    const logRows: Record<string, string>[] = parse(log.text, { bom: true, columns: true });
    const opened = logRows.filter((r) => r.action === "opened");
    expect(opened.filter((r) => r.resource === "recording").length).toBeGreaterThanOrEqual(2); // played and downloaded in the first test
    expect(opened.every((r) => r.user_email === biz.account.email)).toBe(true);
    expect(logRows.filter((r) => r.action === "deleted" && r.call_id === row.id)).toEqual([
      expect.objectContaining({ resource: "recording", user_email: "", detail: expect.stringMatching(/ the simulated carrier \(RE[0-9a-f]{32}\): the caller's erasure$/) }),
    ]);
  });

  it("are not kept when the caller hangs up before staying on past the notice (the call is answered, not kept)", async () => {
    let placed: SimulatedCall | null = null;
    // Hangs up while the greeting plays: the recording had started, but the caller never stayed on.
    const { host, events } = scriptedHost([], {
      async play() {
        placed!.hangUp();
      },
    });
    placed = new SimulatedCall(carrierAccountFrom(biz), inProcessTransport, host, { from: "+15555550163", to: biz.phoneNumber });
    await placed.start();
    expect(events.map((e) => e.type)).toContain("recording-started");
    const db = await getDb();
    const [row] = await db.select().from(calls).where(eq(calls.providerCallSid, placed.callSid));
    await runDueJobs({ definitions: [storeRecordingJob as never], schedules: false });
    const detail = await detailOf(biz, row.id);
    expect(detail.body.consent).toMatchObject({ holds: false, stayedOn: false });
    expect(detail.body.callRecording).toMatchObject({ status: "discarded", url: null });
    // The carrier still has it until the deletion job runs: then it is deleted there, and logged.
    const [dropped] = await db.select().from(callRecordings).where(eq(callRecordings.callId, row.id));
    expect((await recordingClips(biz.account.organizationId)).map((c) => c.id)).toEqual([dropped.recordingSid]);
    await runDueJobs({ definitions: [deleteCarrierRecordingJob as never], schedules: false });
    expect(await recordingClips(biz.account.organizationId)).toEqual([]);
    const log = await callRoute(getAccessLog, "GET", "/api/compliance/access-log", { sessionId: biz.account.sessionId });
    expect(log.body.entries.filter((e: { action: string; callId: string }) => e.action === "deleted" && e.callId === row.id)).toEqual([
      expect.objectContaining({ resource: "recording", userId: null, detail: `Deleted at the simulated carrier (${dropped.recordingSid}): no consent (the caller did not stay on past the recording notice)` }),
    ]);
  });

  it("in Connecticut start before the notice, so the notice is part of the recording (Conn. Gen. Stat. § 52-570d(a)(2))", async () => {
    const { events, row } = await place(biz, "+18605550166", ["What are your hours?", "Bye!"]);
    const kinds = events.map((e) => e.type);
    const noticeAt = events.findIndex((e) => e.type === "say" && NOTICE.test(e.text));
    expect(kinds.indexOf("recording-started")).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf("recording-started")).toBeLessThan(noticeAt);
    await runDueJobs({ definitions: [storeRecordingJob as never], schedules: false });
    const detail = await detailOf(biz, row.id);
    expect(detail.body.consent).toMatchObject({ callerState: "CT", holds: true });
    expect(detail.body.callRecording.status).toBe("stored");
  });

  it("in Washington start before the notice too, since an announcement counts as consent only when it is recorded (RCW 9.73.030(3))", async () => {
    const { events, row } = await place(biz, "+12065550167", ["What are your hours?", "Bye!"]);
    const kinds = events.map((e) => e.type);
    const noticeAt = events.findIndex((e) => e.type === "say" && NOTICE.test(e.text));
    expect(noticeAt).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf("recording-started")).toBeGreaterThanOrEqual(0);
    expect(kinds.indexOf("recording-started")).toBeLessThan(noticeAt);
    const detail = await detailOf(biz, row.id);
    expect(detail.body.consent).toMatchObject({ callerState: "WA", holds: true });
  });

  it("are not started when the caller hangs up during the notice, nor when the owner switched recording off", async () => {
    const clipsBefore = (await recordingClips(biz.account.organizationId)).map((c) => c.id);
    let placed: SimulatedCall | null = null;
    const { host, events } = scriptedHost([], {
      async say(text) {
        if (NOTICE.test(text)) placed!.hangUp();
      },
    });
    placed = new SimulatedCall(carrierAccountFrom(biz), inProcessTransport, host, { from: "+15555550164", to: biz.phoneNumber });
    await placed.start();
    expect(events.map((e) => e.type)).not.toContain("recording-started");

    expect((await callRoute(putSettings, "PUT", "/api/settings/compliance", { sessionId: biz.account.sessionId, body: { recordCalls: false } })).status).toBe(200);
    const { events: unrecorded, row } = await place(biz, "+15555550165", ["What are your hours?", "Bye!"]);
    expect(unrecorded.some((e) => e.type === "say" && NOTICE.test(e.text))).toBe(true);
    expect(unrecorded.map((e) => e.type)).not.toContain("recording-started");
    expect((await detailOf(biz, row.id)).body.callRecording).toBeNull();
    expect((await recordingClips(biz.account.organizationId)).map((c) => c.id)).toEqual(clipsBefore);
    await callRoute(putSettings, "PUT", "/api/settings/compliance", { sessionId: biz.account.sessionId, body: { recordCalls: true } });
  });
});

describe("a call the business's own phone rang first", () => {
  it("hears the notice before the assistant's first words and before anything is recorded or transcribed", async () => {
    const biz = await business("Sim Ring First Dental", { notice: true, forwardTo: "+15035550177" });
    const routed = await callRoute(patchNumber, "PATCH", `/api/phone-numbers/${biz.numberId}`, {
      sessionId: biz.account.sessionId,
      params: { id: biz.numberId },
      body: { routing: { mode: "ring_first", ringTimeoutSeconds: 12, rules: [] } },
    });
    expect(routed.status).toBe(200);
    const { events, row } = await place(biz, "+15555550171", ["It's Sam, please call me back about my crown", "Goodbye"]);
    const kinds = events.map((e) => e.type);
    const dialAt = kinds.indexOf("dial");
    const noticeAt = events.findIndex((e) => e.type === "say" && NOTICE.test(e.text));
    expect(dialAt).toBeGreaterThanOrEqual(0);
    expect(noticeAt).toBeGreaterThan(dialAt);
    // Nothing the assistant played, nothing recorded, nothing heard before the notice.
    expect(kinds.slice(0, noticeAt)).not.toContain("play");
    expect(kinds.slice(0, noticeAt)).not.toContain("listening");
    expect(kinds.indexOf("recording-started")).toBeGreaterThan(noticeAt);
    const detail = await detailOf(biz, row.id);
    expect(detail.body.consent).toMatchObject({ holds: true, required: true, stayedOn: true });
    expect(detail.body.consent.noticeText).toMatch(NOTICE);
    expect(detail.body.routedBecause).toMatch(/did not answer/);
  });

  it("the owner can reword the notice but not switch it off where the law requires it, and each refusal names the field", async () => {
    const biz = await business("Sim Reworded Dental", { notice: true });
    const off = await callRoute(putSettings, "PUT", "/api/settings/compliance", { sessionId: biz.account.sessionId, body: { noticeEnabled: false } });
    expect(off.status).toBe(400);
    expect(off.body.errors.noticeEnabled).toMatch(/required by law in CA/);
    const gutted = await callRoute(putSettings, "PUT", "/api/settings/compliance", { sessionId: biz.account.sessionId, body: { noticeText: "Hello and welcome!" } });
    expect(gutted.status).toBe(400);
    expect(Object.keys(gutted.body.errors)).toEqual(["noticeText"]);
    const reworded = await callRoute(putSettings, "PUT", "/api/settings/compliance", {
      sessionId: biz.account.sessionId,
      body: { noticeText: "Hi! You're talking to our AI assistant, and this call may be recorded." },
    });
    expect(reworded.status).toBe(200);
    const { events } = await place(biz, "+15555550172", ["Bye"]);
    expect(events.find((e) => e.type === "say")).toMatchObject({ text: expect.stringMatching(/^Hi! You're talking to our AI assistant, and this call may be recorded\./) });
  });
});

describe("opt-out in any words on a call", () => {
  it("opts the number out of texts and outbound calls, with one confirmation text and the words kept", async () => {
    const biz = await business("Sim Opt Out Dental");
    const caller = "+15555550181";
    const { row } = await place(biz, caller, ["Please don't call me again", "Goodbye"]);
    const db = await getDb();
    expect(await optOutOf(db, biz.account.organizationId, caller)).not.toBeNull();
    const actions = await db.select().from(assistantActions).where(and(eq(assistantActions.callId, row.id), eq(assistantActions.type, "opted_out")));
    expect(actions).toHaveLength(1);
    expect(actions[0].detail).toMatchObject({ words: "Please don't call me again", channel: "call" });
    const confirmations = async () => db.select().from(messages).where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.toNumber, caller), eq(messages.direction, "outbound")));
    const sent = await confirmations();
    expect(sent).toHaveLength(1);
    expect(sent[0].body).toMatch(/^Sim Opt Out Dental: you're opted out and will get no more texts or calls from us\. Reply START/);
    // The system's text, tagged opt_out, from the number the caller called, in the contact's (opted-out) thread.
    expect(sent[0]).toMatchObject({ sentBy: "system", intent: "opt_out", phoneNumberId: biz.numberId, fromNumber: biz.phoneNumber, status: "sent" });
    const [thread] = await db.select().from(messageThreads).where(and(eq(messageThreads.organizationId, biz.account.organizationId), eq(messageThreads.contactNumber, caller)));
    expect(thread).toMatchObject({ id: sent[0].threadId, phoneNumberId: biz.numberId, optedOut: true });

    // Another opt-out in other words: still opted out, no second confirmation text.
    await place(biz, caller, ["Stop texting me", "Goodbye"]);
    expect(await confirmations()).toHaveLength(1);

    // Every outbound text and call asks the same function.
    await expect(sendText(db, biz.account.organizationId, { to: caller, body: "Your appointment is tomorrow" })).rejects.toMatchObject({ status: 409 });
    await expect(assertMayCall(db, biz.account.organizationId, caller)).rejects.toMatchObject({ status: 409, errors: { to: expect.stringMatching(/opted out of calls and texts/) } });
    await expect(assertMayCall(db, biz.account.organizationId, "+15555550189")).resolves.toBeUndefined();
    // "Test forwarding" dials the business's own number: an opted-out number is not called either.
    await db.insert(smsOptOuts).values({ id: crypto.randomUUID(), organizationId: biz.account.organizationId, phone: biz.phoneNumber });
    const test = await callRoute(forwardingTest, "POST", `/api/phone-numbers/${biz.numberId}/forwarding-test`, { sessionId: biz.account.sessionId, params: { id: biz.numberId } });
    expect(test.status).toBe(409);
    expect(test.body.errors).toHaveProperty("to");
  });
});

describe("texts on the simulated carrier", () => {
  it("carry the AI disclosure on the assistant's first reply of a thread only", async () => {
    const biz = await business("Sim Texting Dental", { notice: true });
    const from = "+15555550191";
    const first = await sendSimulatedSms(carrierAccountFrom(biz), inProcessTransport, { from, to: biz.phoneNumber, body: "Where are you located?" });
    expect(first.replies[0]).toMatch(/^Texts to this number are answered by an AI assistant/);
    const second = await sendSimulatedSms(carrierAccountFrom(biz), inProcessTransport, { from, to: biz.phoneNumber, body: "And what are your hours?" });
    expect(second.replies[0]).not.toMatch(/AI assistant/);
  });
});
