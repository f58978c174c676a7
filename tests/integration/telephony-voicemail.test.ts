/**
 * Voicemail after the <Record>: the recording is fetched from the carrier (the simulated carrier's
 * store, or Twilio's REST API through the local fake), kept in the blob store, transcribed (Deepgram
 * through its local fake; or whatever selectStt offers — PocketSphinx when it is wired in, else the
 * "not installed" note), then analysed and announced.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { GET as getAudio } from "@/app/api/audio/[id]/route";
import { GET as getCall } from "@/app/api/calls/[id]/route";
import { POST as uploadRecording } from "@/app/api/telephony/simulator/recordings/route";
import { GET as downloadRecording } from "@/app/api/telephony/simulator/recordings/[sid]/route";
import { POST as recordHook } from "@/app/api/telephony/voice/record/route";
import { POST as recordingHook } from "@/app/api/telephony/voice/recording/route";
import { calls, creditLedger } from "@/db/schema";
import { getCreditBalance } from "@/lib/workspace/billing/ledger";
import { createFilesystemBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { closeDb, getDb } from "@/lib/platform/database";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { createDeepgramStt } from "@/lib/platform/providers/stt/deepgram";
import { createTwilioProvider } from "@/lib/platform/providers/telephony/twilio";
import { selectStt } from "@/lib/workspace/provider-selection/stt";
import { finishCallJob, processVoicemail, processVoicemailJob, TRANSCRIPTION_NOT_INSTALLED } from "@/lib/channels/phone-line/voice/post-call";
import { startFakeDeepgram, type FakeDeepgram } from "../fakes/deepgram-server";
import { startFakeTwilio, type FakeTwilio } from "../fakes/twilio-server";
import { carrierPost, fakeSid, pathOf } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, callParams, callRow, say, startCall, type Business } from "../helpers/phone";

// The first test opens and migrates the database of the run: slow on a busy machine.
jest.setTimeout(90_000);

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-voicemail-"));
beforeAll(() => setBlobStore(createFilesystemBlobStore(blobDir)));
afterAll(async () => {
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});

const basic = (biz: Business) => `Basic ${Buffer.from(`${biz.accountSid}:${biz.authToken}`).toString("base64")}`;

/** A call that reaches the <Record>, and the Record action's URL. */
async function toRecord(biz: Business) {
  const { callSid, res } = await startCall(biz);
  const ask = await say(biz, callSid, res.verbs[0].attrs.action, "I'd like to leave a voicemail please");
  const record = ask.verbs.find((v) => v.name === "Record")!;
  return { callSid, recordAction: record.attrs.action, recordingCallback: record.attrs.recordingStatusCallback };
}

async function finishRecording(biz: Business, callSid: string, recordAction: string, recordingSid: string, duration: number) {
  const params = callParams(biz, callSid, { RecordingSid: recordingSid, RecordingDuration: String(duration), RecordingUrl: `https://example.test/${recordingSid}` });
  const done = await carrierPost(recordHook, pathOf(recordAction), params, biz.authToken);
  expect(done.verbs.map((v) => v.name)).toEqual(["Play", "Hangup"]);
  const status = await carrierPost(
    recordingHook,
    "/api/telephony/voice/recording",
    callParams(biz, callSid, { RecordingSid: recordingSid, RecordingStatus: "completed", RecordingDuration: String(duration) }),
    biz.authToken,
  );
  expect(status.status).toBe(200);
}

describe("simulated carrier: recording upload, fetch, store and transcription", () => {
  it("stores a spoken recording, and the voicemail job keeps it, transcribes it (or says how to install transcription) and summarises it", async () => {
    const biz = await business("Maple Vets");
    const { callSid, recordAction } = await toRecord(biz);

    // The panel answers <Record>: the simulated carrier turns the caller's words into a recording.
    const noAuth = await callRoute(uploadRecording, "POST", "/api/telephony/simulator/recordings", { body: { callSid, text: "Hi" } });
    expect(noAuth.status).toBe(401);
    const uploaded = await callRoute(uploadRecording, "POST", "/api/telephony/simulator/recordings", {
      headers: { authorization: basic(biz) },
      body: { callSid, text: "Hello, this is Jordan. My dog needs a check up next week. Please call me back. Thank you." },
    });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.sid).toMatch(/^RE[0-9a-f]{32}$/);
    expect(uploaded.body.durationSeconds).toBeGreaterThan(1);
    const downloaded = await downloadRecording(new Request(uploaded.body.url, { headers: { authorization: basic(biz) } }), {
      params: Promise.resolve({ sid: uploaded.body.sid }),
    });
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get("content-type")).toMatch(/^audio\//);

    await finishRecording(biz, callSid, recordAction, uploaded.body.sid, uploaded.body.durationSeconds);
    // On PostgreSQL the run's test files share one queue: other files' jobs may run (and fail) here too,
    // so this checks the call, not the run's totals.
    await runDueJobs({ definitions: [processVoicemailJob as never, finishCallJob as never], schedules: false });

    const row = await callRow(callSid);
    expect(row.status).toBe("voicemail");
    expect(row.recordingUrl).toMatch(/^\/api\/audio\/[0-9a-f-]{36}$/);
    const audioId = row.recordingUrl!.split("/").pop()!;
    const audio = await getAudio(new Request(`http://localhost:3000${row.recordingUrl}`, { headers: { authorization: `Bearer ${biz.account.sessionId}` } }), {
      params: Promise.resolve({ id: audioId }),
    });
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    const stt = await selectStt(await getDb(), biz.account.organizationId);
    if (stt) {
      // A transcriber is installed (PocketSphinx or a Deepgram key): the words are in the transcript.
      expect(row.transcriptionStatus).toBe("done");
      expect(row.voicemailTranscript?.length).toBeGreaterThan(0);
    } else {
      expect(row.transcriptionStatus).toBe("unavailable");
      expect(row.transcriptionNote).toBe(TRANSCRIPTION_NOT_INSTALLED);
      expect(row.transcriptionNote).toContain("apt-get install -y libpocketsphinx3 pocketsphinx-en-us");
      expect(row.voicemailTranscript).toBeNull();
    }
    expect(row.summary).toMatch(/left a voicemail for Maple Vets/);
    expect(row.analyzedAt).not.toBeNull();
    expect(row.notifiedAt).not.toBeNull();

    const detail = await callRoute(getCall, "GET", `/api/calls/${row.id}`, { sessionId: biz.account.sessionId, params: { id: row.id } });
    expect(detail.body).toMatchObject({ kind: "voicemail", outcome: "voicemail", recordingUrl: row.recordingUrl });
    expect(detail.body.voicemail).toMatchObject({ transcriptionStatus: row.transcriptionStatus });
    expect(detail.body.actions.map((a: { type: string }) => a.type)).toContain("voicemail_recorded");
  });

  it("refuses another organization's account and calls it does not own", async () => {
    const a = await business("Owner A");
    const b = await business("Owner B");
    const { callSid } = await startCall(a);
    const res = await callRoute(uploadRecording, "POST", "/api/telephony/simulator/recordings", {
      headers: { authorization: basic(b) },
      body: { callSid, text: "Not your call" },
    });
    expect(res.status).toBe(404);
    const wrongToken = await callRoute(uploadRecording, "POST", "/api/telephony/simulator/recordings", {
      headers: { authorization: `Basic ${Buffer.from(`${a.accountSid}:${b.authToken}`).toString("base64")}` },
      body: { callSid, text: "Hi" },
    });
    expect(wrongToken.status).toBe(401);
    const bad = await callRoute(uploadRecording, "POST", "/api/telephony/simulator/recordings", { headers: { authorization: basic(a) }, body: { callSid } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.text).toBe("Send one of text, audioBase64 or segments");
  });
});

describe("Twilio recording + Deepgram transcription (real SDKs against local fakes)", () => {
  let twilioFake: FakeTwilio;
  let deepgram: FakeDeepgram;
  const ACCOUNT = `AC${"ab".repeat(16)}`;
  const TOKEN = "twilio-fake-token";

  beforeAll(async () => {
    deepgram = await startFakeDeepgram({ apiKey: "dg-test-key-1234", transcript: "hi this is morgan please call me back about my crown", durationSeconds: 5.1 });
  });
  afterAll(async () => {
    await deepgram.close();
    await twilioFake?.close();
  });

  it("downloads the recording with the account's credentials, transcribes it once and charges one credit per started minute", async () => {
    const biz = await business("Crown Dental");
    const { callSid, recordAction } = await toRecord(biz);
    const recordingSid = fakeSid("RE");
    const fakeAudio = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4000, 1)]);
    twilioFake = await startFakeTwilio({ accountSid: ACCOUNT, authToken: TOKEN, recordings: { [recordingSid]: fakeAudio } });
    await finishRecording(biz, callSid, recordAction, recordingSid, 65);
    const row = await callRow(callSid);
    const db = await getDb();
    const before = await getCreditBalance(db, biz.account.organizationId);

    const deps = {
      provider: createTwilioProvider({ accountSid: ACCOUNT, authToken: TOKEN, apiBaseUrl: twilioFake.url }),
      stt: createDeepgramStt({ apiKey: "dg-test-key-1234", baseUrl: deepgram.url, maxRetries: 0 }),
    };
    const job = { callId: row.id, organizationId: biz.account.organizationId, recordingSid, durationSeconds: 65 };
    await processVoicemail(db, job, deps);
    await processVoicemail(db, job, deps); // a job run twice: nothing fetched, transcribed or charged again

    const recordingRequests = twilioFake.requests.filter((r) => r.path.endsWith(`/Recordings/${recordingSid}.wav`));
    expect(recordingRequests).toHaveLength(1);
    expect(recordingRequests[0].headers.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString("base64")}`);
    expect(deepgram.requests).toHaveLength(1);
    expect(deepgram.requests[0].bytes).toBe(fakeAudio.length);

    const after = await callRow(callSid);
    expect(after).toMatchObject({ transcriptionStatus: "done", voicemailTranscript: "hi this is morgan please call me back about my crown", transcriptionNote: null });
    expect(after.summary).toMatch(/please call me back about my crown/);
    expect(after.actionItems).toEqual(expect.arrayContaining([expect.stringMatching(/Listen to the voicemail and call/)]));
    // Two credits for the transcription, and one per text-back the caller got (lib/receptionist/text-back.ts).
    const textBacks = await db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, biz.account.organizationId), eq(creditLedger.reference, `text-back:${row.id}`)));
    expect(textBacks.length).toBeLessThanOrEqual(1);
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 2 - textBacks.reduce((sum, e) => sum - e.amount, 0));
    const charges = await db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, biz.account.organizationId), eq(creditLedger.reference, `transcription:${row.id}`)));
    expect(charges).toHaveLength(1);
    const [stored] = await db.select().from(calls).where(eq(calls.id, row.id));
    expect(stored.recordingSid).toBe(recordingSid);
  });

  it("gives up on a recording the carrier does not have, and still summarises the call", async () => {
    const biz = await business("Lost Recording");
    const { callSid, recordAction } = await toRecord(biz);
    const recordingSid = fakeSid("RE");
    await finishRecording(biz, callSid, recordAction, recordingSid, 3);
    const row = await callRow(callSid);
    await processVoicemail(await getDb(), { callId: row.id, organizationId: biz.account.organizationId, recordingSid, durationSeconds: 3 }, { stt: null });
    const after = await callRow(callSid);
    expect(after.transcriptionStatus).toBe("failed");
    expect(after.transcriptionNote).toMatch(/^The recording could not be fetched: The simulated carrier has no recording RE/);
    expect(after.recordingUrl).toBeNull();
    expect(after.summary).toMatch(/left a voicemail for Lost Recording/);
  });

  it("keeps the audio and says how to install transcription when there is no transcriber", async () => {
    const biz = await business("Quiet Clinic");
    const { callSid, recordAction } = await toRecord(biz);
    const recordingSid = fakeSid("RE");
    twilioFake.recordings[recordingSid] = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(2000, 2)]);
    await finishRecording(biz, callSid, recordAction, recordingSid, 4);
    const row = await callRow(callSid);
    await processVoicemail(await getDb(), { callId: row.id, organizationId: biz.account.organizationId, recordingSid, durationSeconds: 4 }, {
      provider: createTwilioProvider({ accountSid: ACCOUNT, authToken: TOKEN, apiBaseUrl: twilioFake.url }),
      stt: null,
    });
    const after = await callRow(callSid);
    expect(after).toMatchObject({ transcriptionStatus: "unavailable", transcriptionNote: TRANSCRIPTION_NOT_INSTALLED, voicemailTranscript: null });
    expect(after.recordingUrl).toMatch(/^\/api\/audio\//);
    expect(after.summary).toMatch(/left a voicemail for Quiet Clinic/);
  });
});
