/**
 * The ConversationRelay gateway: a number set to streaming answers with <Connect><ConversationRelay>;
 * the gateway verifies the upgrade's X-Twilio-Signature, takes setup / prompt / interrupt / dtmf,
 * streams the model's tokens as {type: "text", token, last} (the real Anthropic SDK against the local
 * fake), stops at once on an interrupt and records what the caller heard, and hands the call back
 * with `end` → the Connect action.
 */
import twilio from "twilio";
import WebSocket from "ws";
import { PATCH as patchNumber } from "@/app/api/phone-numbers/[id]/route";
import { and, eq } from "drizzle-orm";
import { PUT as putPolicy } from "@/app/api/call-policy/route";
import { PUT as putAssistant } from "@/app/api/voice-assistants/[id]/route";
import { POST as connectHook } from "@/app/api/telephony/voice/connect/route";
import { assistantActions, tasks } from "@/db/schema";
import { getCreditBalance } from "@/lib/workspace/billing/ledger";
import { closeDb, getDb } from "@/lib/platform/database";
import { createAnthropicLlm } from "@/lib/platform/providers/llm/anthropic";
import { memoryFor, rememberCaller } from "@/lib/phone/callers/memory";
import { FORGET_ME } from "@/lib/platform/text/receptionist";
import { FINISH_READ_BACK, startRelayGateway, type RelayGateway } from "@/lib/channels/phone-line/relay/gateway";
import { RECONNECT_LINE } from "@/lib/phone/telephony/relay/reconnect";
import { setGatewayListeningPort } from "@/lib/phone/telephony/relay/urls";
import { CALL_LINES } from "@/lib/channels/phone-line/voice/lines";
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from "../fakes/anthropic-server";
import { carrierPost, find, pathOf } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, callParams, callRow, startCall, type Business } from "../helpers/phone";

// The first test opens and migrates the database of the run: slow on a busy machine.
jest.setTimeout(90_000);

let gateway: RelayGateway;
let fake: FakeAnthropic;
let replyFor: (text: string) => FakeReply = () => "[intent:hours]\nWe're open Monday to Friday, nine to five. Anything else?";

beforeAll(async () => {
  fake = await startFakeAnthropic({
    apiKey: "sk-relay-test",
    firstTokenDelayMs: 40,
    perSentenceDelayMs: 150,
    reply: (req) => replyFor(String(req.body.messages?.at(-1)?.content ?? "")),
  });
  gateway = await startRelayGateway({
    port: 0,
    host: "127.0.0.1",
    getDb,
    deps: { llm: createAnthropicLlm({ apiKey: "sk-relay-test", baseURL: fake.url, maxRetries: 0 }), speechMsPerChar: 0, backchannelWaitMs: 300, log: () => undefined },
  });
});
afterAll(async () => {
  await gateway.close();
  await fake.close();
  await closeDb();
});

async function streamingBusiness(name: string, forwardTo?: string): Promise<Business> {
  const biz = await business(name, forwardTo ? { forwardTo } : {});
  const res = await callRoute(patchNumber, "PATCH", `/api/phone-numbers/${biz.numberId}`, {
    sessionId: biz.account.sessionId,
    params: { id: biz.numberId },
    body: { streaming: true },
  });
  expect(res.body.streaming).toBe(true);
  return biz;
}

type Frame = { type: string; token?: string; last?: boolean; handoffData?: string };

/** Opens the call's socket the way Twilio does (signed upgrade), on the loopback address. */
function connect(signedUrl: string, signature: string | null): Promise<{ ws: WebSocket; frames: Frame[]; next: (pred: (f: Frame) => boolean, ms?: number) => Promise<Frame> }> {
  const local = signedUrl.replace("//localhost:", "//127.0.0.1:");
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(local, { headers: signature ? { "x-twilio-signature": signature } : {} });
    const frames: Frame[] = [];
    const waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      frames.push(frame);
      for (const w of [...waiters]) {
        if (w.pred(frame)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(frame);
        }
      }
    });
    ws.on("open", () =>
      resolve({
        ws,
        frames,
        next: (pred, ms = 15_000) =>
          new Promise((res, rej) => {
            const found = frames.find(pred);
            if (found) return res(found);
            const timer = setTimeout(() => rej(new Error(`no frame in ${ms} ms; got ${JSON.stringify(frames)}`)), ms);
            waiters.push({ pred, resolve: (f) => (clearTimeout(timer), res(f)) });
          }),
      }),
    );
    ws.on("unexpected-response", (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on("error", reject);
  });
}

async function relayCall(biz: Business) {
  const { callSid, res } = await startCall(biz);
  const connectVerb = res.verbs[0];
  expect(connectVerb.name).toBe("Connect");
  const relay = connectVerb.children[0];
  expect(relay.name).toBe("ConversationRelay");
  const url = relay.attrs.url;
  const signature = twilio.getExpectedTwilioSignature(biz.authToken, url, {});
  const socket = await connect(url, signature);
  socket.ws.send(JSON.stringify({ type: "setup", sessionId: "VX" + "0".repeat(32), callSid, from: "+15555550123", to: biz.phoneNumber, direction: "inbound", customParameters: { callId: relay.children[0]?.attrs.value } }));
  return { callSid, socket, connectVerb, relay, url };
}

describe("the streaming answer", () => {
  it("answers a streaming number with <Connect><ConversationRelay> pointing at the gateway", async () => {
    const biz = await streamingBusiness("Relay Dental");
    const { callSid, res } = await startCall(biz);
    expect(res.verbs.map((v) => v.name)).toEqual(["Connect"]);
    const [connect] = res.verbs;
    expect(connect.attrs.action).toBe("http://localhost:3000/api/telephony/voice/connect?step=1");
    const relay = connect.children[0];
    expect(relay.name).toBe("ConversationRelay");
    expect(relay.attrs.url).toMatch(new RegExp(`^ws://localhost:${gateway.port}/relay\\?callId=[0-9a-f-]{36}$`));
    // The assistant's defaults: the caller's speech interrupts, backchannels do not.
    expect(relay.attrs).toMatchObject({
      welcomeGreeting: "Thanks for calling Relay Dental, this is Riley. How can I help?",
      interruptible: "speech",
      welcomeGreetingInterruptible: "speech",
      preemptible: "false",
      ignorebackchannel: "true",
      dtmfDetection: "true",
    });
    expect(relay.children).toEqual([expect.objectContaining({ name: "Parameter", attrs: { name: "callId", value: (await callRow(callSid)).id } })]);
    expect((await callRow(callSid)).transport).toBe("relay");
  });
});

describe("the assistant's interruption settings", () => {
  it("renders what the owner set on the assistant into <ConversationRelay>", async () => {
    const biz = await streamingBusiness("Relay Keypad Only");
    const put = await callRoute(putAssistant, "PUT", `/api/voice-assistants/${biz.assistantId}`, {
      sessionId: biz.account.sessionId,
      params: { id: biz.assistantId },
      body: { interruptions: "dtmf", ignoreBackchannels: false },
    });
    expect(put.status).toBe(200);
    const { res } = await startCall(biz);
    const relay = res.verbs[0].children[0];
    expect(relay.attrs).toMatchObject({ interruptible: "dtmf", welcomeGreetingInterruptible: "dtmf", reportInputDuringAgentSpeech: "true" });
    expect(relay.attrs.ignorebackchannel).toBeUndefined();
  });
});

describe("the gateway", () => {
  it("refuses an upgrade without a valid signature", async () => {
    const biz = await streamingBusiness("Relay Refuse");
    const { res } = await startCall(biz);
    const url = res.verbs[0].children[0].attrs.url;
    await expect(connect(url, null)).rejects.toThrow("HTTP 403");
    await expect(connect(url, twilio.getExpectedTwilioSignature("wrong-token", url, {}))).rejects.toThrow("HTTP 403");
    await expect(connect(url.replace(/callId=[^&]+/, "callId=nope"), twilio.getExpectedTwilioSignature(biz.authToken, url, {}))).rejects.toThrow("HTTP 403");
  });

  it("streams the model's tokens as they arrive and records the turn with its first-token latency", async () => {
    replyFor = () => "[intent:hours]\nWe're open Monday to Friday, nine to five. Anything else?";
    const biz = await streamingBusiness("Relay Hours");
    const { callSid, socket } = await relayCall(biz);
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "What are your opening hours?", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true);
    const texts = socket.frames.filter((f) => f.type === "text");
    expect(texts.length).toBeGreaterThanOrEqual(3);
    expect(texts.slice(0, -1).every((f) => f.last === false)).toBe(true);
    expect(texts.map((f) => f.token).join("").trim()).toBe("We're open Monday to Friday, nine to five. Anything else?");
    socket.ws.close();
    await new Promise((r) => setTimeout(r, 100));
    const row = await callRow(callSid);
    const [greeting, caller, assistant] = row.transcript;
    expect(greeting.speaker).toBe("assistant");
    expect(caller).toMatchObject({ speaker: "caller", text: "What are your opening hours?" });
    expect(assistant).toMatchObject({ speaker: "assistant", text: "We're open Monday to Friday, nine to five. Anything else?", intent: "hours" });
    expect(assistant.latencyMs).toBeGreaterThanOrEqual(40);
    expect(fake.requests.at(-1)?.body.stream).toBe(true);
  });

  it("stops the reply at once on an interrupt and records what the caller heard", async () => {
    replyFor = () => "[intent:appointment]\nI'd be glad to help you book. We have openings on Tuesday. We also have Thursday mornings. Which suits you?";
    const biz = await streamingBusiness("Relay Interrupt");
    const { callSid, socket } = await relayCall(biz);
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "I'd like to book a cleaning", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text");
    socket.ws.send(JSON.stringify({ type: "interrupt", utteranceUntilInterrupt: "I'd be glad to help", durationUntilInterruptMs: "900" }));
    const countAtInterrupt = socket.frames.filter((f) => f.type === "text").length;
    await new Promise((r) => setTimeout(r, 700)); // the fake would have sent three more sentences by now
    const texts = socket.frames.filter((f) => f.type === "text");
    expect(texts.length).toBeLessThanOrEqual(countAtInterrupt + 1);
    expect(texts.some((f) => f.last === true)).toBe(false);
    const row = await callRow(callSid);
    const assistant = row.transcript.at(-1)!;
    expect(assistant).toMatchObject({ speaker: "assistant", interrupted: true, heard: "I'd be glad to help" });
    expect(assistant.text).not.toContain("Which suits you?");

    // The caller's next words get a fresh answer with the interrupted turn as context.
    replyFor = () => "[intent:appointment]\nTuesday at ten works. Shall I pass that on?";
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "Tuesday at 10am please", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true && socket.frames.filter((x) => x.last === true).length >= 1);
    const lastRequest = fake.requests.at(-1)!;
    expect(JSON.stringify(lastRequest.body.messages)).toContain("I'd be glad to help");
    socket.ws.close();
  });

  it("lets a backchannel heard while the assistant speaks neither cut the reply nor start a turn", async () => {
    const said = "I'd be glad to help you book. We have openings on Tuesday. We also have Thursday mornings. Which suits you?";
    replyFor = () => `[intent:appointment]\n${said}`;
    const biz = await streamingBusiness("Relay Uh-huh");
    const { callSid, socket } = await relayCall(biz);
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "I'd like to book a cleaning", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text");
    const requests = fake.requests.length;
    // Heard as a prompt (Twilio did not stop the speech): the reply streams on to its end.
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "Uh-huh.", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true);
    expect(socket.frames.filter((f) => f.type === "text").map((f) => f.token).join("").trim()).toBe(said);

    // Twilio stopped the speech (an interrupt), and the words were only "mm-hmm": the rest is said.
    socket.frames.length = 0;
    socket.ws.send(JSON.stringify({ type: "interrupt", utteranceUntilInterrupt: "I'd be glad to help you book. We have openings", durationUntilInterruptMs: "2100" }));
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "mm-hmm", lang: "en-US", last: true }));
    const rest = await socket.next((f) => f.type === "text" && f.last === true);
    expect(rest.token).toBe("on Tuesday. We also have Thursday mornings. Which suits you?");
    await new Promise((r) => setTimeout(r, 400)); // longer than the gateway waits before it counts a cut
    expect(fake.requests.length).toBe(requests); // no turn: the model was not asked
    const row = await callRow(callSid);
    expect(row.transcript.filter((t) => t.speaker === "caller").map((t) => t.text)).toEqual(["I'd like to book a cleaning"]);
    expect(row.transcript.at(-1)).toMatchObject({ speaker: "assistant", text: said });
    expect(row.transcript.at(-1)!.interrupted).toBeUndefined();

    // Once the assistant has finished, "okay" is the caller's turn like any other.
    socket.frames.length = 0;
    replyFor = () => "[intent:appointment]\nGreat. Which day suits you?";
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "okay", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true);
    expect(fake.requests.length).toBe(requests + 1);
    socket.ws.close();
  });

  it("while a fully sent statement is still playing a backchannel is ignored; after a question 'okay' is the caller's answer", async () => {
    // A gateway that estimates playing time (30 ms a character), as in production.
    const timed = await startRelayGateway({
      port: 0,
      host: "127.0.0.1",
      getDb,
      deps: { llm: createAnthropicLlm({ apiKey: "sk-relay-test", baseURL: fake.url, maxRetries: 0 }), speechMsPerChar: 30, log: () => undefined },
    });
    try {
      const biz = await streamingBusiness("Relay Playing");
      const { callSid, res } = await startCall(biz);
      const url = res.verbs[0].children[0].attrs.url as string;
      const socket = await connect(url.replace(/:\d+\/relay/, `:${timed.port}/relay`), twilio.getExpectedTwilioSignature(biz.authToken, url.replace(/:\d+\/relay/, `:${timed.port}/relay`), {}));
      socket.ws.send(JSON.stringify({ type: "setup", callSid, from: "+15555550123", to: biz.phoneNumber }));
      const turn = async (words: string) => {
        socket.frames.length = 0;
        socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: words, lang: "en-US", last: true }));
        return socket.next((f) => f.type === "text" && f.last === true);
      };
      replyFor = () => "[intent:hours]\nWe're open Monday to Friday, nine to five, and Saturday mornings too.";
      await turn("When are you open?");
      const requests = fake.requests.length;
      socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "uh-huh", lang: "en-US", last: true }));
      await new Promise((r) => setTimeout(r, 300));
      expect(fake.requests.length).toBe(requests);

      replyFor = () => "[intent:other]\nYes, there is free parking right out front. Would you like directions?";
      await turn("Do you have parking?");
      replyFor = () => "[intent:other]\nTake Main Street to the corner of Oak.";
      await turn("okay");
      expect(fake.requests.length).toBe(requests + 2);
      const row = await callRow(callSid);
      expect(row.transcript.filter((t) => t.speaker === "caller").map((t) => t.text)).toEqual(["When are you open?", "Do you have parking?", "okay"]);
      socket.ws.close();
    } finally {
      await timed.close();
      setGatewayListeningPort(gateway.port); // the gateway the other tests use
    }
  });

  it("with speech not interrupting (keypad only), words said during a reply are answered after it, which plays to its end", async () => {
    const first = "I'd be glad to help you book. We have openings on Tuesday. We also have Thursday mornings. Which suits you?";
    replyFor = () => `[intent:appointment]\n${first}`;
    const biz = await streamingBusiness("Relay Keypad Interrupts");
    await callRoute(putAssistant, "PUT", `/api/voice-assistants/${biz.assistantId}`, { sessionId: biz.account.sessionId, params: { id: biz.assistantId }, body: { interruptions: "dtmf" } });
    const { callSid, socket } = await relayCall(biz);
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "I'd like to book a cleaning", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text");
    replyFor = () => "[intent:appointment]\nThursday at nine is open.";
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "Do you have anything on Thursday?", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true && socket.frames.filter((x) => x.last === true).length >= 2, 15_000);
    const texts = socket.frames.filter((f) => f.type === "text");
    const firstEnd = texts.findIndex((f) => f.last === true);
    expect(texts.slice(0, firstEnd + 1).map((f) => f.token).join("").trim()).toBe(first);
    await new Promise((r) => setTimeout(r, 100));
    const row = await callRow(callSid);
    expect(row.transcript.filter((t) => t.speaker === "assistant").map((t) => t.text).slice(-2)).toEqual([first, "Thursday at nine is open."]);
    expect(row.transcript.some((t) => t.interrupted)).toBe(false);
    socket.ws.close();
  });

  it("never says an earlier reply again: an interrupt belongs to what the assistant said last", async () => {
    replyFor = () => "[intent:hours]\nWe're open Monday to Friday, nine to five. Anything else?";
    const biz = await streamingBusiness("Relay Earlier Reply");
    const { socket } = await relayCall(biz);
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "What are your opening hours?", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true);
    socket.frames.length = 0;
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "Please forget me", lang: "en-US", last: true }));
    expect((await socket.next((f) => f.type === "text" && f.last === true)).token).toBe(FORGET_ME.spoken);
    socket.frames.length = 0;
    replyFor = () => "[intent:other]\nSure.";
    socket.ws.send(JSON.stringify({ type: "interrupt", utteranceUntilInterrupt: FORGET_ME.spoken.split(" ").slice(0, 3).join(" "), durationUntilInterruptMs: "700" }));
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "uh-huh", lang: "en-US", last: true }));
    await new Promise((r) => setTimeout(r, 500));
    expect(socket.frames.map((f) => f.token ?? "").join("")).not.toContain("Anything else?");
    socket.ws.close();
  });

  it("cuts the reply for words that are more than a backchannel, and for every word when the assistant does not ignore them", async () => {
    replyFor = () => "[intent:appointment]\nI'd be glad to help you book. We have openings on Tuesday. We also have Thursday mornings. Which suits you?";
    const biz = await streamingBusiness("Relay Not Uh-huh");
    await callRoute(putAssistant, "PUT", `/api/voice-assistants/${biz.assistantId}`, { sessionId: biz.account.sessionId, params: { id: biz.assistantId }, body: { ignoreBackchannels: false } });
    const { callSid, socket } = await relayCall(biz);
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "I'd like to book a cleaning", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text");
    replyFor = () => "[intent:appointment]\nSure, I'll note that.";
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "uh-huh", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true && f.token === "");
    await new Promise((r) => setTimeout(r, 200));
    const row = await callRow(callSid);
    expect(row.transcript.filter((t) => t.speaker === "caller").map((t) => t.text)).toEqual(["I'd like to book a cleaning", "uh-huh"]);
    socket.ws.close();
  });

  it("carries a call on when its socket drops and the call reconnects: the message under way is taken once", async () => {
    replyFor = () => "[intent:hours]\nWe're open Monday to Friday, nine to five.";
    const biz = await streamingBusiness("Relay Reconnect");
    const first = await relayCall(biz);
    const send = (socket: typeof first.socket, voicePrompt: string) => {
      socket.frames.length = 0;
      socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt, lang: "en-US", last: true }));
      return socket.next((f) => f.type === "text" && f.last === true);
    };
    expect((await send(first.socket, "Can someone call me back?")).token).toMatch(/call back from the team.*write it down/);
    expect((await callRow(first.callSid)).mode).toBe("message");
    first.socket.ws.terminate(); // the connection drops

    // Twilio ends the failed session at the Connect action, which opens a new one for the same call
    // (any gateway behind the URL), saying it lost the caller for a moment instead of a voicemail.
    const failed = await carrierPost(connectHook, "/api/telephony/voice/connect?step=1", callParams(biz, first.callSid, { SessionStatus: "failed", CallStatus: "in-progress" }), biz.authToken);
    expect(failed.verbs.map((v) => v.name)).toEqual(["Connect"]);
    expect(pathOf(failed.verbs[0].attrs.action)).toBe("/api/telephony/voice/connect?step=2");
    const relay = failed.verbs[0].children[0];
    expect(relay.attrs).toMatchObject({ url: first.url, welcomeGreeting: RECONNECT_LINE, interruptible: "speech" });
    const again = await connect(relay.attrs.url, twilio.getExpectedTwilioSignature(biz.authToken, relay.attrs.url, {}));
    again.ws.send(JSON.stringify({ type: "setup", sessionId: "VX" + "1".repeat(32), callSid: first.callSid, from: "+15555550123", to: biz.phoneNumber }));
    const line = await send(again, "This is Tom Baker, it's about my bill from last week");
    expect(line.token).toMatch(/Thank you, Tom Baker\. I've written your message down/);
    again.ws.close();
    await new Promise((r) => setTimeout(r, 100));
    const db = await getDb();
    const row = await callRow(first.callSid);
    const written = await db.select().from(tasks).where(and(eq(tasks.organizationId, biz.account.organizationId), eq(tasks.callId, row.id)));
    expect(written).toHaveLength(1);
    expect(written[0].detail).toContain("about my bill");
    expect(row.mode).toBe("conversation");

    // Not forever: after two reconnects a failed session goes to voicemail.
    const hook = (step: number) => carrierPost(connectHook, `/api/telephony/voice/connect?step=${step}`, callParams(biz, first.callSid, { SessionStatus: "failed", CallStatus: "in-progress" }), biz.authToken);
    expect((await hook(2)).verbs.map((v) => v.name)).toEqual(["Connect"]);
    expect((await hook(3)).verbs.map((v) => v.name)).toContain("Record");
  });

  it("counts a 'yes' to a read-back only once the read-back finished playing", async () => {
    const readBack = "Just to confirm, I have a Haircut on Tuesday, March 16 at 10:00 AM for Jane Doe. Shall I book it?";
    replyFor = () => `[intent:appointment]\n${readBack}`;
    const biz = await streamingBusiness("Relay Read-back");
    const { callSid, socket } = await relayCall(biz);
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "A haircut Tuesday at 10 for Jane Doe", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true);
    await new Promise((r) => setTimeout(r, 100));
    // The caller talked over the read-back before its question played.
    socket.ws.send(JSON.stringify({ type: "interrupt", utteranceUntilInterrupt: "Just to confirm, I have a Haircut on Tuesday", durationUntilInterruptMs: "1800" }));
    await new Promise((r) => setTimeout(r, 100));
    const requests = fake.requests.length;
    socket.frames.length = 0;
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "yes", lang: "en-US", last: true }));
    const again = await socket.next((f) => f.type === "text" && f.last === true);
    expect(again.token).toBe(`${FINISH_READ_BACK} ${readBack}`);
    expect(fake.requests.length).toBe(requests); // the "yes" confirmed nothing
    // Heard in full this time: the next "yes" is the caller's answer.
    socket.frames.length = 0;
    replyFor = () => "[intent:appointment]\nYou're all set.";
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "yes", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true);
    expect(fake.requests.length).toBe(requests + 1);
    const row = await callRow(callSid);
    expect(row.transcript.filter((t) => t.speaker === "caller").map((t) => t.text)).toEqual(["A haircut Tuesday at 10 for Jane Doe", "yes", "yes"]);
    socket.ws.close();
  });

  it("hands the call back on a goodbye and on 0 for a person; the Connect action hangs up or dials", async () => {
    const biz = await streamingBusiness("Relay Handoff", "+15035550177");
    {
      const { callSid, socket } = await relayCall(biz);
      socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "No that's all, bye!", lang: "en-US", last: true }));
      const end = await socket.next((f) => f.type === "end");
      expect(JSON.parse(end.handoffData!)).toMatchObject({ reason: "goodbye" });
      expect(socket.frames.find((f) => f.type === "text")?.token).toBe("Thanks for calling Relay Handoff. Have a great day. Goodbye!");
      const after = await carrierPost(connectHook, "/api/telephony/voice/connect?step=1", callParams(biz, callSid, { HandoffData: end.handoffData!, SessionStatus: "ended" }), biz.authToken);
      expect(after.verbs.map((v) => v.name)).toEqual(["Hangup"]);
      expect(await callRow(callSid)).toMatchObject({ status: "completed", outcome: "answered_by_assistant" });
      socket.ws.close();
    }
    {
      const { callSid, socket } = await relayCall(biz);
      socket.ws.send(JSON.stringify({ type: "dtmf", digit: "0" }));
      const end = await socket.next((f) => f.type === "end");
      expect(JSON.parse(end.handoffData!)).toMatchObject({ reason: "transfer" });
      const after = await carrierPost(connectHook, "/api/telephony/voice/connect?step=1", callParams(biz, callSid, { HandoffData: end.handoffData!, SessionStatus: "ended" }), biz.authToken);
      expect(after.verbs.map((v) => v.name)).toEqual(["Dial"]);
      expect(find(after.verbs[0].children, "Number")?.text).toBe("+15035550177");
      expect(pathOf(after.verbs[0].attrs.action)).toBe("/api/telephony/voice/dial?step=2&to=%2B15035550177");
      expect((await callRow(callSid)).transcript.some((t) => t.kind === "dtmf" && t.text === "Pressed 0")).toBe(true);
      socket.ws.close();
    }
  });

  it("the model's transfer tool (issue 27): its words stream, then the call is handed back to dial the forward-to", async () => {
    const biz = await streamingBusiness("Relay Model Transfer", "+15035550188");
    let round = 0;
    replyFor = () => (round++ === 0 ? { text: "[intent:human_handoff]\n", toolUses: [{ name: "transfer", input: { reason: "asked" } }] } : "Connecting you with the team now.");
    const before = fake.requests.length;
    const { callSid, socket } = await relayCall(biz);
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "This is about the estimate you sent me last week", lang: "en-US", last: true }));
    const end = await socket.next((f) => f.type === "end", 10_000);
    expect(JSON.parse(end.handoffData!)).toMatchObject({ reason: "transfer", to: "+15035550188" });
    const [asked, answered] = fake.requests.slice(before);
    expect(asked.body.tools!.map((t) => t.name)).toContain("transfer");
    expect(answered.body.messages!.at(-1)!.content).toEqual([expect.objectContaining({ type: "tool_result", content: expect.stringMatching(/connected/) })]);
    const texts = socket.frames.filter((f) => f.type === "text").map((f) => f.token).join("");
    expect(texts.trim()).toBe("Connecting you with the team now.");
    const after = await carrierPost(connectHook, "/api/telephony/voice/connect?step=1", callParams(biz, callSid, { HandoffData: end.handoffData!, SessionStatus: "ended" }), biz.authToken);
    expect(after.verbs.map((v) => v.name)).toEqual(["Dial"]);
    expect(find(after.verbs[0].children, "Number")?.text).toBe("+15035550188");
    socket.ws.close();
  });

  it("gives the model what the business remembers about the caller, as the Gather loop does; 'forget me' erases it mid-call", async () => {
    replyFor = () => "[intent:greeting]\nHappy to help. What can I do for you?";
    const biz = await streamingBusiness("Relay Memory");
    const db = await getDb();
    // Each organization keeps its own memory: the same number elsewhere knows nothing of this.
    await rememberCaller(db, biz.account.organizationId, "+15555550123", { utterances: ["Hi, this is Maria Lopez", "I prefer afternoon appointments"] });
    const { callSid, socket } = await relayCall(biz);
    const before = fake.requests.length;
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "Do you do gift cards?", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true);
    const system = fake.requests[before].body.system!;
    expect(system).toContain("What the business remembers about this caller");
    expect(system).toContain("The caller's name: Maria Lopez.");
    expect(system).toMatch(/They said: "[^"]*afternoon[^"]*"/i);

    socket.frames.length = 0;
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "Please forget me", lang: "en-US", last: true }));
    expect((await socket.next((f) => f.type === "text" && f.last === true)).token).toBe(FORGET_ME.spoken);
    expect(fake.requests.length).toBe(before + 1); // answered without the model
    expect(await memoryFor(db, biz.account.organizationId, "+15555550123")).toBeNull();

    socket.frames.length = 0;
    socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt: "Thanks. Do you do gift cards though?", lang: "en-US", last: true }));
    await socket.next((f) => f.type === "text" && f.last === true);
    expect(fake.requests.at(-1)!.body.system).not.toContain("Maria");
    expect(fake.requests.at(-1)!.body.system).not.toContain("What the business remembers");
    socket.ws.close();
    await new Promise((r) => setTimeout(r, 100));
    expect((await callRow(callSid)).transcript.map((t) => t.text)).toContain(FORGET_ME.spoken);
  });

  it("checks the monthly cap at every turn: reached mid-call (voicemail only), it takes a message and then hands the call back", async () => {
    replyFor = () => "[intent:hours]\nWe're open Monday to Friday, nine to five. Anything else?";
    const biz = await streamingBusiness("Relay Capped");
    const db = await getDb();
    const policy = await callRoute(putPolicy, "PUT", "/api/call-policy", { sessionId: biz.account.sessionId, body: { monthlyCapCredits: 1, atCap: "voicemail_only" } });
    expect(policy.status).toBe(200);
    const before = await getCreditBalance(db, biz.account.organizationId);
    const { callSid, socket } = await relayCall(biz);
    const ask = async (voicePrompt: string) => {
      socket.frames.length = 0;
      socket.ws.send(JSON.stringify({ type: "prompt", voicePrompt, lang: "en-US", last: true }));
      return socket.next((f) => (f.type === "text" && f.last === true) || f.type === "end");
    };
    await ask("What are your opening hours?");
    await new Promise((r) => setTimeout(r, 100));
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 1); // the cap is now reached
    const requests = fake.requests.length;
    expect((await ask("And on Saturdays?")).token).toBe(CALL_LINES.capReached("Relay Capped"));
    // The message goes through the same engine turn as the Gather loop: a task is written, then the line says so.
    expect((await ask("Please ask someone to call me back about Saturday hours")).token).toMatch(/^Thank you, Pat Caller\. I've written your message down for the team at Relay Capped, and they'll call you back at 5 5 5, 5 5 5, 0 1 2 3\./);
    await ask("One more thing, do you have parking?");
    const end = await socket.next((f) => f.type === "end");
    expect(JSON.parse(end.handoffData!)).toMatchObject({ reason: "goodbye" });
    expect(socket.frames.find((f) => f.type === "text")?.token).toBe(CALL_LINES.capGoodbye("Relay Capped"));
    expect(fake.requests.length).toBe(requests); // the model was not asked again
    expect(await getCreditBalance(db, biz.account.organizationId)).toBe(before - 1);
    const row = await callRow(callSid);
    expect(row.routedBecause).toMatch(/The monthly cap of 1 credits was reached during the call: the assistant took a message instead$/);
    const actions = await db.select().from(assistantActions).where(and(eq(assistantActions.organizationId, biz.account.organizationId), eq(assistantActions.callId, row.id)));
    expect(actions.map((a) => a.type).sort()).toEqual(["cap_reached", "took_message"]);
    const written = await db.select().from(tasks).where(and(eq(tasks.organizationId, biz.account.organizationId), eq(tasks.callId, row.id)));
    expect(written).toHaveLength(1);
    expect(written[0].detail).toContain("call me back about Saturday hours");
    socket.ws.close();
  });

  it("closes a socket whose setup names another call", async () => {
    const biz = await streamingBusiness("Relay Mismatch");
    const { res } = await startCall(biz);
    const url = res.verbs[0].children[0].attrs.url;
    const socket = await connect(url, twilio.getExpectedTwilioSignature(biz.authToken, url, {}));
    const closed = new Promise<number>((resolve) => socket.ws.on("close", (code) => resolve(code)));
    socket.ws.send(JSON.stringify({ type: "setup", callSid: "CA" + "1".repeat(32) }));
    expect(await closed).toBe(1008);
  });
});
