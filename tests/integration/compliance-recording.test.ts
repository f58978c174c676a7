/**
 * Whole-call recordings where consent holds (docs/compliance.md#recordings): a Twilio number's first
 * answer starts `<Start><Recording>` after the notice; the recording callback (signed) is stored by a
 * job only when the caller stayed on past the notice; played and downloaded from the call (logged);
 * erased with the caller.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { GET as getAccessLog } from "@/app/api/compliance/access-log/route";
import { GET as getCall } from "@/app/api/calls/[id]/route";
import { GET as getRecording } from "@/app/api/calls/[id]/recording/route";
import { POST as eraseRoute } from "@/app/api/contacts/[id]/erasure/route";
import { PUT as putSettings } from "@/app/api/settings/compliance/route";
import { PUT as putRetention } from "@/app/api/settings/retention/route";
import { POST as statusHook } from "@/app/api/telephony/status/route";
import { POST as recordingHook } from "@/app/api/telephony/voice/call-recording/route";
import { POST as voiceHook } from "@/app/api/telephony/voice/route";
import { audioClips, callRecordings, contacts, jobs, phoneNumbers } from "@/db/schema";
import { createFilesystemBlobStore, getBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { storeCallRecording, storeRecordingJob } from "@/lib/compliance/recordings";
import { deleteCarrierRecording, deleteCarrierRecordingJob, type CarrierRecordingDeletion } from "@/lib/compliance/recording-deletion";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { createTwilioProvider } from "@/lib/platform/providers/telephony/twilio";
import { fakeTwilioHttpClient, startFakeTwilio } from "../fakes/twilio-server";
import { closeDb, getDb } from "@/lib/platform/database";
import { getJobQueue } from "@/lib/platform/jobs/queue";
import { applyRetention } from "@/lib/compliance/retention/service";
import type { TelephonyProvider } from "@/lib/platform/providers/telephony/interface";
import { carrierPost, fakeSid, find } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, callParams, callRow, saveTwilioKeys, say, type Business } from "../helpers/phone";

jest.setTimeout(120_000);

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-recording-"));
beforeAll(() => setBlobStore(createFilesystemBlobStore(blobDir)));
afterAll(async () => {
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});

const ACCOUNT = `AC${"e".repeat(32)}`;
const TOKEN = "tw-token-rec1";
const AUDIO = Buffer.from("RIFF....WAVEfmt whole-call-recording");
const carrier = { fetchRecording: async () => ({ audio: AUDIO, contentType: "audio/wav" }) } as unknown as TelephonyProvider;

/** A business whose number is on Twilio (its webhooks signed with the Twilio auth token). */
async function twilioBusiness(name: string): Promise<Business> {
  const biz = await business(name, { notice: true });
  const db = await getDb();
  await db.update(phoneNumbers).set({ provider: "twilio" }).where(eq(phoneNumbers.id, biz.numberId));
  await saveTwilioKeys(biz, ACCOUNT, TOKEN);
  await callRoute(putSettings, "PUT", "/api/settings/compliance", { sessionId: biz.account.sessionId, body: { businessState: "NY" } });
  return { ...biz, accountSid: ACCOUNT, authToken: TOKEN };
}

function recordingCallback(biz: Business, callSid: string, recordingSid: string) {
  return carrierPost(
    recordingHook,
    "/api/telephony/voice/call-recording",
    { AccountSid: ACCOUNT, CallSid: callSid, RecordingSid: recordingSid, RecordingStatus: "completed", RecordingDuration: "42", RecordingUrl: `https://api.twilio.com/2010-04-01/Accounts/${ACCOUNT}/Recordings/${recordingSid}` },
    biz.authToken,
  );
}

describe("whole-call recordings", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await twilioBusiness("Recorded Dental");
  });

  it("start after the notice, are stored when the caller stayed on, play and download from the call, and are logged", async () => {
    const callSid = fakeSid("CA");
    const res = await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, callSid), biz.authToken);
    expect(res.status).toBe(200);
    expect(res.verbs.map((v) => v.name)).toEqual(["Say", "Start", "Gather"]);
    expect(res.verbs[1].children[0]).toMatchObject({ name: "Recording", attrs: { recordingStatusCallback: "http://localhost:3000/api/telephony/voice/call-recording", recordingStatusCallbackEvent: "completed" } });
    await say(biz, callSid, find(res.verbs, "Gather")!.attrs.action, "What are your opening hours?");
    await carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { CallStatus: "completed", CallDuration: "42" }), biz.authToken);

    const recordingSid = fakeSid("RE");
    expect((await recordingCallback(biz, callSid, recordingSid)).status).toBe(200);
    expect((await recordingCallback(biz, callSid, recordingSid)).status).toBe(200); // a retry: one row, one job
    expect((await carrierPost(recordingHook, "/api/telephony/voice/call-recording", { AccountSid: ACCOUNT, CallSid: callSid, RecordingSid: recordingSid }, "wrong")).status).toBe(403);
    const call = await callRow(callSid);
    const jobs = (await (await getJobQueue()).pending(storeRecordingJob.name)).filter((j) => (j.data as { callId: string }).callId === call.id);
    expect(jobs).toHaveLength(1);
    expect(await storeCallRecording(await getDb(), { callId: call.id, organizationId: biz.account.organizationId }, { provider: carrier })).toBe("stored");

    const detail = await callRoute(getCall, "GET", `/api/calls/${call.id}`, { sessionId: biz.account.sessionId, params: { id: call.id } });
    expect(detail.body.callRecording).toEqual({ status: "stored", durationSeconds: 42, url: `/api/calls/${call.id}/recording`, downloadUrl: `/api/calls/${call.id}/recording?download=1` });
    const play = await callRoute(getRecording, "GET", `/api/calls/${call.id}/recording`, { sessionId: biz.account.sessionId, params: { id: call.id } });
    expect(play.status).toBe(200);
    expect(play.headers.get("content-type")).toBe("audio/wav");
    expect(play.text).toContain("whole-call-recording");
    const file = await callRoute(getRecording, "GET", `/api/calls/${call.id}/recording?download=1`, { sessionId: biz.account.sessionId, params: { id: call.id } });
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="call-${call.id}.wav"`);
    const log = await callRoute(getAccessLog, "GET", "/api/compliance/access-log", { sessionId: biz.account.sessionId });
    expect(log.body.entries.filter((e: { resource: string; callId: string }) => e.resource === "recording" && e.callId === call.id)).toHaveLength(2);
    // Another organization cannot play it.
    const other = await business("Other Clinic");
    expect((await callRoute(getRecording, "GET", `/api/calls/${call.id}/recording`, { sessionId: other.account.sessionId, params: { id: call.id } })).status).toBe(404);

    // Erased with the caller.
    const db = await getDb();
    const [contact] = await db
      .insert(contacts)
      .values({ id: crypto.randomUUID(), organizationId: biz.account.organizationId, phone: "+15555550123" })
      .onConflictDoUpdate({ target: [contacts.organizationId, contacts.phone], set: { name: null } })
      .returning();
    const erased = await callRoute(eraseRoute, "POST", `/api/contacts/${contact.id}/erasure`, { sessionId: biz.account.sessionId, params: { id: contact.id }, body: { confirm: true } });
    expect(erased.body.erased.recordings).toBe(1);
    expect((await callRoute(getRecording, "GET", `/api/calls/${call.id}/recording`, { sessionId: biz.account.sessionId, params: { id: call.id } })).status).toBe(404);
    expect(await db.select().from(audioClips).where(and(eq(audioClips.organizationId, biz.account.organizationId), eq(audioClips.source, "recording")))).toEqual([]);
  });

  it("past the organization's retention are deleted here and, by the job, at Twilio too", async () => {
    const callSid = fakeSid("CA");
    const from = "+15555550145";
    const res = await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, callSid, { From: from }), biz.authToken);
    await say(biz, callSid, find(res.verbs, "Gather")!.attrs.action, "What are your opening hours?", { From: from });
    await carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { From: from, CallStatus: "completed", CallDuration: "30" }), biz.authToken);
    const recordingSid = fakeSid("RE");
    await recordingCallback(biz, callSid, recordingSid);
    const call = await callRow(callSid);
    const db = await getDb();
    expect(await storeCallRecording(db, { callId: call.id, organizationId: biz.account.organizationId }, { provider: carrier })).toBe("stored");

    expect((await callRoute(putRetention, "PUT", "/api/settings/retention", { sessionId: biz.account.sessionId, body: { recordingsDays: 1, transcriptsDays: null, textsDays: null } })).status).toBe(200);
    const run = await applyRetention(db, getBlobStore(), biz.account.organizationId, new Date(Date.now() + 2 * 86_400_000));
    expect(run.recordings).toBeGreaterThanOrEqual(1);
    const [row] = await db.select().from(callRecordings).where(eq(callRecordings.callId, call.id));
    expect(row).toMatchObject({ status: "discarded", clipId: null });
    const queued = (await (await getJobQueue()).pending(deleteCarrierRecordingJob.name)).filter((j) => (j.data as CarrierRecordingDeletion).callId === call.id);
    expect(queued.map((j) => j.data)).toEqual([{ organizationId: biz.account.organizationId, callId: call.id, recordingSid, provider: "twilio", reason: "retention" }]);
    await callRoute(putRetention, "PUT", "/api/settings/retention", { sessionId: biz.account.sessionId, body: { recordingsDays: null, transcriptsDays: null, textsDays: null } });
  });

  it("are discarded when the caller hung up during the notice, and deleted at Twilio by a retried job, logged", async () => {
    const callSid = fakeSid("CA");
    await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, callSid, { From: "+15555550144" }), biz.authToken);
    await carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { From: "+15555550144", CallStatus: "completed", CallDuration: "4" }), biz.authToken);
    const recordingSid = fakeSid("RE");
    expect((await recordingCallback(biz, callSid, recordingSid)).status).toBe(200);
    const call = await callRow(callSid);
    const db = await getDb();
    expect(await storeCallRecording(db, { callId: call.id, organizationId: biz.account.organizationId }, { provider: carrier })).toBe("discarded");
    const [row] = await db.select().from(callRecordings).where(eq(callRecordings.callId, call.id));
    expect(row).toMatchObject({ status: "discarded", clipId: null });

    // Twilio still holds it: the deletion job (queued once) removes it there with the real SDK.
    const fake = await startFakeTwilio({ accountSid: ACCOUNT, authToken: TOKEN, recordings: { [recordingSid]: AUDIO } });
    try {
      const twilioCarrier = createTwilioProvider({ accountSid: ACCOUNT, authToken: TOKEN, httpClient: fakeTwilioHttpClient(fake.url) });
      // The job as the runner runs it, its carrier aimed at the fake.
      const job = { ...deleteCarrierRecordingJob, handler: (data: CarrierRecordingDeletion, ctx: { db: typeof db }) => deleteCarrierRecording(ctx.db, data, { provider: twilioCarrier }) };
      const queued = async () => (await (await getJobQueue()).pending(deleteCarrierRecordingJob.name)).filter((j) => (j.data as CarrierRecordingDeletion).callId === call.id);
      expect((await queued()).map((j) => j.data)).toEqual([{ organizationId: biz.account.organizationId, callId: call.id, recordingSid, provider: "twilio", reason: "no_consent" }]);

      // Twilio is down on the first attempt: nothing is lost, the job waits for its retry.
      fake.failNext(`/Recordings/${recordingSid}.json`, 503, 20503, "Service unavailable");
      await runDueJobs({ definitions: [job as never], schedules: false });
      expect(fake.recordings[recordingSid]).toBeDefined();
      const [retry] = await queued();
      expect(retry.startAfter.getTime()).toBeGreaterThan(Date.now());
      // The retry made due now, in whichever queue holds it (pg-boss on PostgreSQL, the job table on PGlite).
      if (process.env.DATABASE_URL) await db.execute(sql`update pgboss.job set start_after = now() - interval '1 second' where id = ${retry.id}::uuid`);
      else await db.update(jobs).set({ startAfter: new Date(Date.now() - 1000) }).where(eq(jobs.id, retry.id));

      await runDueJobs({ definitions: [job as never], schedules: false });
      expect(fake.recordings[recordingSid]).toBeUndefined();
      expect(fake.requests.filter((r) => r.method === "DELETE" && r.path.includes(recordingSid)).map((r) => r.path)).toEqual([
        `/2010-04-01/Accounts/${ACCOUNT}/Recordings/${recordingSid}.json`,
        `/2010-04-01/Accounts/${ACCOUNT}/Recordings/${recordingSid}.json`,
      ]);
      expect(await queued()).toEqual([]);
      const log = await callRoute(getAccessLog, "GET", "/api/compliance/access-log", { sessionId: biz.account.sessionId });
      expect(log.body.entries.filter((e: { callId: string; action: string }) => e.callId === call.id && e.action === "deleted")).toEqual([
        expect.objectContaining({ resource: "recording", userId: null, detail: `Deleted at Twilio (${recordingSid}): no consent (the caller did not stay on past the recording notice)` }),
      ]);
    } finally {
      await fake.close();
    }
  });

  it("are not started when the owner switched recording off", async () => {
    await callRoute(putSettings, "PUT", "/api/settings/compliance", { sessionId: biz.account.sessionId, body: { recordCalls: false } });
    const res = await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, fakeSid("CA")), biz.authToken);
    expect(res.verbs.map((v) => v.name)).toEqual(["Say", "Gather"]);
  });
});
