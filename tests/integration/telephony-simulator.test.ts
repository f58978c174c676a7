/**
 * The simulated carrier's client (lib/phone/telephony/simulator/carrier-client.ts) — what the phone panel,
 * `simulate:call` and the benchmark run — against the real webhooks in this process: a whole call
 * (greeting → question → reply → goodbye), a transfer nobody answers, a voicemail, and a text.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { GET as byCallSid } from "@/app/api/telephony/calls/[sid]/route";
import { createFilesystemBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { closeDb } from "@/lib/platform/database";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { SimulatedCall, sendSimulatedSms } from "@/lib/phone/telephony/simulator/carrier-client";
import { finishCallJob, processVoicemailJob } from "@/lib/channels/phone-line/voice/post-call";
import { call as callRoute } from "../helpers/http";
import { carrierAccountFrom, inProcessTransport } from "../helpers/in-process-carrier";
import { scriptedHost } from "../helpers/simulated-call";
import { business } from "../helpers/phone";

// The first test opens and migrates the database of the run: slow on a busy machine.
jest.setTimeout(90_000);

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-simulator-"));
beforeAll(() => setBlobStore(createFilesystemBlobStore(blobDir)));
afterAll(async () => {
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});

describe("a simulated call end to end", () => {
  it("greets, answers, says goodbye, reports the duration, and the call lands in history with its summary", async () => {
    const biz = await business("Sim Dental");
    const { host, events, played } = scriptedHost(["What are your opening hours?", "Thanks, that's all. Goodbye!"]);
    const call = new SimulatedCall(carrierAccountFrom(biz), inProcessTransport, host, { from: "+15555550100", to: biz.phoneNumber });
    await call.start();
    expect(events.filter((e) => e.type === "caller").map((e) => (e as { text: string }).text)).toEqual(["What are your opening hours?", "Thanks, that's all. Goodbye!"]);
    expect(played.length).toBe(3); // greeting, reply, goodbye
    expect(events.at(-1)).toMatchObject({ type: "ended", reason: "hangup" });
    const requests = events.filter((e) => e.type === "request");
    expect(requests.map((e) => (e as { path: string }).path)).toEqual([
      "/api/telephony/voice",
      "/api/telephony/voice/gather?step=1",
      "/api/telephony/voice/gather?step=2",
    ]);
    expect((requests[1] as { serverMs: number | null }).serverMs).toEqual(expect.any(Number));

    await runDueJobs({ definitions: [finishCallJob as never], schedules: false });
    const detail = await callRoute(byCallSid, "GET", `/api/telephony/calls/${call.callSid}`, { sessionId: biz.account.sessionId, params: { sid: call.callSid } });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ status: "completed", outcome: "answered_by_assistant", intent: "hours" });
    expect(detail.body.summary).toMatch(/asked about opening hours/);
    expect(detail.body.transcript.map((t: { speaker: string }) => t.speaker)).toEqual(["assistant", "caller", "assistant", "caller", "assistant"]);
  });

  it("follows <Dial>, comes back for a message, and leaves a voicemail through <Record>", async () => {
    const biz = await business("Sim Vets", { forwardTo: "+15035550111" });
    const { host, events } = scriptedHost(["I need to talk to a person", "It's Alex, please call me at 555 0100", "Can I leave a voicemail?"], {
      async record() {
        return { text: "Hi, it's Alex again. Please call me back this afternoon." };
      },
    });
    const call = new SimulatedCall(carrierAccountFrom(biz), inProcessTransport, host, { from: "+15555550101", to: biz.phoneNumber });
    await call.start();
    expect(events.some((e) => e.type === "dial" && e.number === "+15035550111")).toBe(true);
    expect(events.some((e) => e.type === "record")).toBe(true);
    await runDueJobs({ definitions: [processVoicemailJob as never, finishCallJob as never], schedules: false });
    const detail = await callRoute(byCallSid, "GET", `/api/telephony/calls/${call.callSid}`, { sessionId: biz.account.sessionId, params: { sid: call.callSid } });
    expect(detail.body).toMatchObject({ status: "voicemail", outcome: "voicemail" });
    expect(detail.body.recordingUrl).toMatch(/^\/api\/audio\//);
    // After the call, the caller gets the number's text-back (lib/receptionist/text-back.ts).
    expect(detail.body.actions.map((a: { type: string }) => a.type)).toEqual(["transfer_unanswered", "took_message", "voicemail_recorded", "texted_back"]);
  });

  it("hangs up from the caller's side at any moment and still reports the call", async () => {
    const biz = await business("Sim Hangup");
    let call: SimulatedCall | null = null;
    const { host, events } = scriptedHost([], {
      async listen() {
        call!.hangUp();
        return "";
      },
    });
    call = new SimulatedCall(carrierAccountFrom(biz), inProcessTransport, host, { from: "+15555550102", to: biz.phoneNumber });
    await call.start();
    expect(events.at(-1)).toMatchObject({ type: "ended", reason: "caller" });
    const detail = await callRoute(byCallSid, "GET", `/api/telephony/calls/${call.callSid}`, { sessionId: biz.account.sessionId, params: { sid: call.callSid } });
    expect(detail.body.status).toBe("completed");
  });
});

describe("a simulated text", () => {
  it("gets the assistant's reply", async () => {
    const biz = await business("Sim Texts");
    const result = await sendSimulatedSms(carrierAccountFrom(biz), inProcessTransport, { from: "+15555550103", to: biz.phoneNumber, body: "Where are you located?" });
    expect(result.messageSid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(result.replies).toHaveLength(1);
    expect(result.replies[0]).toContain("1 Main Street");
  });
});
