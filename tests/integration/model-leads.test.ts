import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { POST as smsHook } from "@/app/api/telephony/sms/route";
import { appointments, providerCredentials, tasks, voiceAssistants, type CallRule } from "@/db/schema";
import { bookingAwareLlm } from "@/lib/scheduling/dialogue/conversation";
import type { BookingDeps } from "@/lib/scheduling/service";
import { fromZoned } from "@/lib/scheduling/time";
import { promisesIn } from "@/lib/agents/conversation/replies";
import { encryptSecret } from "@/lib/platform/crypto/secret-box";
import { closeDb, getDb } from "@/lib/platform/database";
import { createAnthropicLlm } from "@/lib/platform/providers/llm/anthropic";
import type { ChatMessage, LlmProvider, Reply, ReplyInput } from "@/lib/platform/providers/llm/interface";
import { createService } from "@/lib/knowledge/services/service";
import { startFakeAnthropic, toolResults, type FakeAnthropic, type FakeAnthropicRequest, type FakeReply, type FakeToolResult } from "../fakes/anthropic-server";
import { bookingOrg, everyDay, setProfile } from "../helpers/booking";
import { carrierPost, fakeSid } from "../helpers/carrier";
import { business, callRow, say as sayOnCall, startCall } from "../helpers/phone";

/**
 * Issue 27, "with a language model": with an Anthropic key the model leads the conversation and acts
 * only through tools. The deterministic booking dialogue does not answer first; its rules are the
 * guard the tools go through (the same chrono reading of a spoken day, a free slot, a read-back and
 * the caller's own yes before any write). take_message writes the task; transfer connects a call
 * where the channel can. A reply's promise ("booked", "someone will call you back", "connecting you")
 * reaches the caller only when a tool of the same reply did it. The model is the local fake of the
 * Messages API, aimed at by the real SDK, with scripted tool calls.
 */
jest.setTimeout(120_000);
const KEY = "sk-ant-test-model-leads";
const NY = "America/New_York";
let anthropic: FakeAnthropic;
let script: ((request: FakeAnthropicRequest) => FakeReply)[] = [];
const savedBaseUrl = process.env.ANTHROPIC_BASE_URL;

beforeAll(async () => {
  anthropic = await startFakeAnthropic({
    apiKey: KEY,
    reply: (request) => {
      const step = script.shift();
      if (!step) throw new Error("The fake model has no scripted answer left");
      return step(request);
    },
  });
  // The organizations' own Anthropic key reaches the fake through the SDK's base-URL variable.
  process.env.ANTHROPIC_BASE_URL = anthropic.url;
});
afterAll(async () => {
  if (savedBaseUrl === undefined) delete process.env.ANTHROPIC_BASE_URL;
  else process.env.ANTHROPIC_BASE_URL = savedBaseUrl;
  await anthropic.close();
  await closeDb();
});

const model = () => createAnthropicLlm({ apiKey: KEY, baseURL: anthropic.url, maxRetries: 0, model: "claude-test" });
const persona = { name: "Ava", personality: "friendly", instructions: "" };

/** A conversation with the wrapped model: each caller line, the reply as the caller gets it (streamed, as the phone speaks it). */
function conversation(llm: LlmProvider) {
  const history: ChatMessage[] = [];
  return async (text: string): Promise<Reply & { spoken: string }> => {
    const input: ReplyInput = { assistant: persona, profile: { name: "Acme Salon" }, history: [...history], text };
    let spoken = "";
    let reply: Reply | null = null;
    for await (const event of llm.streamReply(input)) {
      if (event.type === "delta") spoken += event.text;
      else reply = event.reply;
    }
    history.push({ role: "user", content: text }, { role: "assistant", content: reply!.text });
    return { ...reply!, spoken };
  };
}

const OFFER = /take your name, your number and a message/;

describe("the model leads, through tools", () => {
  it("the Tuesday after next around 3: resolve_date → availability → hold → read-back; no write without the caller's yes; booked on yes in the business's zone", async () => {
    const { organizationId } = await bookingOrg({ duration: 30, interval: 15 });
    const db = await getDb();
    // Wednesday, March 10, 2027, 7 AM in New York (noon UTC).
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false };
    const callerPhone = `+1415${crypto.randomInt(2_000_000, 9_999_999)}`;
    const chat = conversation(bookingAwareLlm(db, organizationId, model(), { channel: "call", ref: crypto.randomUUID(), callerPhone }, deps));
    const rows = () => db.select().from(appointments).where(and(eq(appointments.organizationId, organizationId), eq(appointments.customerPhone, callerPhone)));
    const seen: FakeToolResult[] = [];
    let resolved: { date: string; time: string } | null = null;

    const before = anthropic.requests.length;
    script = [
      () => ({ text: "[intent:appointment]\nLet me check that day.", toolUses: [{ name: "resolve_date", input: { text: "the Tuesday after next around 3" } }] }),
      (request) => {
        const [r] = toolResults(request);
        seen.push(r);
        resolved = JSON.parse(r.content);
        return { toolUses: [{ name: "check_availability", input: { service: "Haircut", date: resolved!.date, time: resolved!.time } }] };
      },
      (request) => {
        const [r] = toolResults(request);
        seen.push(r);
        const slot = (JSON.parse(r.content).slots as { start: string }[]).find((s) => s.start === fromZoned(resolved!.date, resolved!.time, NY).toISOString());
        if (!slot) throw new Error(`No slot at ${JSON.stringify(resolved)} in ${r.content}`);
        return { toolUses: [{ name: "hold_slot", input: { start: slot!.start, customerName: "Rosa Diaz", service: "Haircut" } }] };
      },
      // The model tries to write in the same reply as the read-back: refused.
      (request) => {
        seen.push(...toolResults(request));
        return { toolUses: [{ name: "confirm_booking", input: {} }] };
      },
      (request) => {
        seen.push(...toolResults(request));
        return "Just to confirm, I have a Haircut on Tuesday, March 23rd at 3 PM for Rosa Diaz. Shall I book it?";
      },
    ];
    // Words the offline dialogue would have answered itself (a booking with a day and a service).
    const asked = await chat("Hi, this is Rosa Diaz, can I book a haircut the Tuesday after next around 3?");
    expect(anthropic.requests.length - before).toBe(5);
    expect(anthropic.requests[before].body.tools!.map((t) => t.name)).toEqual(expect.arrayContaining(["resolve_date", "hold_slot", "confirm_booking", "take_message", "transfer"]));
    // The same chrono reading as the offline path: the 23rd (not the coming Tuesday, the 16th), 3 PM.
    expect(resolved).toMatchObject({ date: "2027-03-23", time: "15:00" });
    expect(JSON.parse(seen[0].content).readBack).toBe("Tuesday, March 23rd at 3 PM");
    expect(seen[2].content).toMatch(/NOT booked yet/);
    expect(seen[3]).toMatchObject({ is_error: true, content: expect.stringMatching(/^Not booked/) });
    expect(asked.text).toBe("Let me check that day. Just to confirm, I have a Haircut on Tuesday, March 23rd at 3 PM for Rosa Diaz. Shall I book it?");
    expect(asked.spoken).toBe(asked.text);
    expect((await rows()).map((r) => r.status)).toEqual(["held"]);

    // Not a yes: the model confirms anyway and claims the booking — refused, and the claim never reaches the caller.
    script = [
      () => ({ toolUses: [{ name: "confirm_booking", input: {} }] }),
      (request) => {
        seen.push(...toolResults(request));
        return "Great, you're all booked for Tuesday at 3 PM!";
      },
    ];
    const unsure = await chat("Hmm, let me think about whether Tuesday works");
    expect(seen.at(-1)).toMatchObject({ is_error: true });
    expect(promisesIn(unsure.spoken).size).toBe(0);
    expect(unsure.text).toMatch(OFFER);
    expect(unsure.text).not.toMatch(/booked/i);
    expect((await rows()).map((r) => r.status)).toEqual(["held"]);

    // The caller's own yes: written now, on the right day in the business's zone.
    script = [
      () => ({ toolUses: [{ name: "confirm_booking", input: {} }] }),
      (request) => {
        seen.push(...toolResults(request));
        return "You're booked: Tuesday, March 23rd at 3 PM. See you then!";
      },
    ];
    const yes = await chat("Yes, please book it");
    expect(seen.at(-1)!.content).toMatch(/^Booked and saved/);
    expect(yes.text).toBe("You're booked: Tuesday, March 23rd at 3 PM. See you then!");
    const [row] = await rows();
    expect([row.status, row.startsAt.toISOString(), row.customerName]).toEqual(["confirmed", fromZoned("2027-03-23", "15:00", NY).toISOString(), "Rosa Diaz"]);
    expect(row.startsAt.toISOString()).toBe("2027-03-23T19:00:00.000Z"); // 3 PM EDT
    expect(script).toEqual([]);
  });

  it("a claim without its tool never reaches the caller: 'I've booked you', 'someone will call you back', 'connecting you'", async () => {
    const { organizationId } = await bookingOrg({ duration: 30 });
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false };
    const chat = conversation(bookingAwareLlm(db, organizationId, model(), { channel: "sms", ref: crypto.randomUUID(), callerPhone: "+14155550177" }, deps));

    script = [() => "[intent:appointment]\nSure thing. I've booked you for Tuesday at 3 PM. Anything else?"];
    const booked = await chat("Book me Tuesday at 3");
    expect(booked.spoken).toBe("Sure thing. I can't do that from here myself, but I can take your name, your number and a message for the team. Would you like that? Anything else?");
    expect(booked.text).toBe(booked.spoken);

    script = [() => "[intent:human_handoff]\nNo problem, someone will call you back this afternoon."];
    const callback = await chat("Can someone call me?");
    expect(promisesIn(callback.text).size).toBe(0);
    expect(callback.text).toMatch(OFFER);

    // A text cannot be connected: the transfer tool refuses, so "connecting you" is taken out too.
    script = [
      () => ({ toolUses: [{ name: "transfer", input: { reason: "asked" } }] }),
      (request) => {
        expect(toolResults(request)[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/cannot be connected/) });
        return "I'm connecting you now.";
      },
    ];
    const connect = await chat("Put me through to a person");
    expect(connect.transfer).toBeUndefined();
    expect(promisesIn(connect.text).size).toBe(0);

    // The guard of a hold: a day that has passed, or a time the business is closed, holds nothing.
    const refusedHolds: FakeToolResult[] = [];
    script = [
      () => ({ toolUses: [{ name: "hold_slot", input: { start: fromZoned("2027-03-09", "15:00", NY).toISOString(), customerName: "Rosa Diaz", service: "Haircut" } }] }),
      (request) => {
        refusedHolds.push(...toolResults(request));
        return { toolUses: [{ name: "hold_slot", input: { start: fromZoned("2027-03-16", "03:00", NY).toISOString(), customerName: "Rosa Diaz", service: "Haircut" } }] };
      },
      (request) => {
        refusedHolds.push(...toolResults(request));
        return "That time isn't available. Which other day works for you?";
      },
    ];
    await chat("Yesterday at 3, or Tuesday at 3 in the morning");
    expect(refusedHolds.map((r) => r.is_error)).toEqual([true, true]);
    expect(await db.select().from(appointments).where(eq(appointments.organizationId, organizationId))).toEqual([]);
    expect(await db.select().from(tasks).where(eq(tasks.organizationId, organizationId))).toEqual([]);
    expect(script).toEqual([]);
  });

  it("take_message writes the task before the promise; transfer follows the owner's rules and forward-to on a call", async () => {
    const { organizationId } = await bookingOrg({ duration: 30 });
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false };
    const callerPhone = "+14155550188";
    const callId = crypto.randomUUID();
    const rules: CallRule[] = [
      { when: "emergency", action: "transfer", to: "+14155550999" },
      { when: "asks_for_person", action: "take_message", person: "Dr. Chen" },
    ];
    const setup = { canTransfer: true, forwardTo: "+14155550100", rules };
    const chat = conversation(bookingAwareLlm(db, organizationId, model(), { channel: "call", ref: callId, callerPhone, conversation: setup }, deps));

    // No name yet: refused, so the promise is taken out; then with the name: the task row, then the promise.
    script = [
      () => ({ toolUses: [{ name: "take_message", input: { name: "", message: "Wants to talk about the invoice" } }] }),
      (request) => {
        expect(toolResults(request)[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/name/) });
        return "Got it, the team will call you back.";
      },
    ];
    expect((await chat("I have a question about my invoice")).text).toMatch(OFFER);
    script = [
      () => ({ toolUses: [{ name: "take_message", input: { name: "Greg Park", message: "Wants to talk about the invoice", urgent: false } }] }),
      (request) => {
        expect(toolResults(request)[0]).toMatchObject({ content: expect.stringMatching(/^Saved for the team/) });
        return "Thanks Greg, I've written it down and the team will call you back.";
      },
    ];
    const taken = await chat("It's Greg Park");
    expect(taken.text).toBe("Thanks Greg, I've written it down and the team will call you back.");
    const written = await db.select().from(tasks).where(eq(tasks.organizationId, organizationId));
    expect(written.map((t) => [t.kind, t.contactName, t.contactNumber, t.detail, t.urgent])).toEqual([["message", "Greg Park", callerPhone, "Wants to talk about the invoice", false]]);

    // The owner's rule for Dr. Chen is a message: the model's transfer is refused.
    script = [
      () => ({ toolUses: [{ name: "transfer", input: { reason: "person", person: "Dr. Chen" } }] }),
      (request) => {
        expect(toolResults(request)[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/message to be taken/) });
        return "Dr. Chen can't come to the phone, but I can take a message for her.";
      },
    ];
    expect((await chat("Can I speak with Dr. Chen?")).transfer).toBeUndefined();
    // An emergency goes to the rule's number; anyone else to the forward-to.
    script = [() => ({ toolUses: [{ name: "transfer", input: { reason: "emergency" } }] }), () => "I'm connecting you now."];
    const emergency = await chat("My tooth is bleeding a lot");
    expect([emergency.text, emergency.transfer]).toEqual(["I'm connecting you now.", { to: "+14155550999" }]);
    script = [() => ({ toolUses: [{ name: "transfer", input: { reason: "asked" } }] }), () => "Connecting you with the front desk now."];
    expect((await chat("Can I talk to the front desk?")).transfer).toEqual({ to: "+14155550100" });
    expect(script).toEqual([]);
  });
});

describe("through the channels, with the organization's Anthropic key", () => {
  async function withAnthropicKey(organizationId: string) {
    const db = await getDb();
    await db.insert(providerCredentials).values({ id: crypto.randomUUID(), organizationId, provider: "anthropic", ciphertext: encryptSecret(JSON.stringify({ apiKey: KEY })), hint: "eads" });
  }

  it("the SMS webhook: the model takes the message (a task row) and an unbacked promise is not texted back", async () => {
    const biz = await business("Acme Dental");
    const organizationId = biz.account.organizationId;
    await withAnthropicKey(organizationId);
    const db = await getDb();
    const from = `+1415${crypto.randomInt(2_000_000, 9_999_999)}`;
    const text = (body: string) =>
      carrierPost(smsHook, "/api/telephony/sms", { MessageSid: fakeSid("SM"), AccountSid: biz.accountSid, From: from, To: biz.phoneNumber, Body: body, NumMedia: "0", ApiVersion: "2010-04-01" }, biz.authToken);

    script = [() => "[intent:human_handoff]\nSure, someone from our billing team will call you back today."];
    const first = await text("Could somebody from billing get back to me about a charge?");
    expect(first.verbs.map((v) => v.name)).toEqual(["Message"]);
    expect(promisesIn(first.verbs[0].text).size).toBe(0);
    expect(first.verbs[0].text).toMatch(OFFER);
    const byModel = async () => (await db.select().from(tasks).where(eq(tasks.organizationId, organizationId))).filter((t) => t.sourceKey.includes(":model-message:"));
    expect(await byModel()).toEqual([]);

    script = [
      (request) => {
        expect(request.body.tools!.map((t) => t.name)).toEqual(["take_message", "transfer"]);
        return { toolUses: [{ name: "take_message", input: { name: "Dana Wills", message: "Questions about a charge on her bill" } }] };
      },
      () => "Thanks Dana, I've passed your message on and the team will call you back.",
    ];
    const second = await text("Yes please, I'm Dana Wills");
    expect(second.verbs[0].text).toContain("Thanks Dana, I've passed your message on and the team will call you back.");
    const [task] = await byModel();
    // One task for this text: the SMS channel does not write its own beside the model's.
    const forText = (await db.select().from(tasks).where(eq(tasks.organizationId, organizationId))).filter((t) => t.messageId === task.messageId);
    expect(forText).toHaveLength(1);
    expect([task.contactName, task.contactNumber, task.detail, task.messageId !== null]).toEqual(["Dana Wills", from, "Questions about a charge on her bill", true]);
    expect(script).toEqual([]);
  });

  it("the phone's Gather webhook: a booking turn goes to the model (not the offline dialogue), a yes books it; a transfer becomes a <Dial>", async () => {
    const biz = await business("Acme Salon", { forwardTo: "+14155550123" });
    const organizationId = biz.account.organizationId;
    await withAnthropicKey(organizationId);
    const db = await getDb();
    await setProfile(organizationId, { timezone: NY, weeklyHours: everyDay("00:00", "23:59") });
    await createService(db, organizationId, { name: "Haircut", description: "", durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, priceCents: null, priceText: null, bookable: true, isActive: true, resourceIds: [] });
    // The owner's rules: none for a person (the model's transfer goes to the forward-to).
    await db.update(voiceAssistants).set({ callRules: [] }).where(eq(voiceAssistants.id, biz.assistantId));

    const { callSid, res } = await startCall(biz);
    let slot: { start: string; when: string } | null = null;
    script = [
      () => ({ text: "[intent:appointment]\nLet me look.", toolUses: [{ name: "check_availability", input: { service: "Haircut", days: 7 } }] }),
      (request) => {
        slot = JSON.parse(toolResults(request)[0].content).slots[0];
        return { toolUses: [{ name: "hold_slot", input: { start: slot!.start, customerName: "Pat Caller", service: "Haircut" } }] };
      },
      () => `I have ${slot!.when}. Shall I book it?`,
    ];
    const offered = await sayOnCall(biz, callSid, res.verbs[0].attrs.action, "I'd like to book a haircut, my name is Pat Caller");
    expect(offered.verbs.map((v) => v.name)).toEqual(["Gather"]);
    const call = await callRow(callSid);
    expect(call.transcript.at(-1)!.text).toBe(`Let me look. I have ${slot!.when}. Shall I book it?`);
    const mine = () => db.select().from(appointments).where(eq(appointments.organizationId, organizationId));
    expect((await mine()).map((a) => a.status)).toEqual(["held"]);

    script = [() => ({ toolUses: [{ name: "confirm_booking", input: {} }] }), () => "You're booked. See you then!"];
    const booked = await sayOnCall(biz, callSid, offered.verbs[0].attrs.action, "Yes, that works");
    expect(booked.verbs.map((v) => v.name)).toEqual(["Gather"]);
    const [appointment] = await mine();
    expect([appointment.status, appointment.startsAt.toISOString(), appointment.source]).toEqual(["confirmed", slot!.start, "phone"]);

    // take_message on the call: the task is linked to the call, and the call does not then ask for a message again.
    script = [
      () => ({ text: "[intent:human_handoff]\n", toolUses: [{ name: "take_message", input: { name: "Pat Caller", message: "Asks whether there is parking near the salon" } }] }),
      () => "Thanks Pat, the team will call you back about it.",
    ];
    const noted = await sayOnCall(biz, callSid, booked.verbs[0].attrs.action, "I have a question about parking near the salon");
    expect(noted.verbs.map((v) => v.name)).toEqual(["Gather"]);
    const afterNote = await callRow(callSid);
    expect([afterNote.mode, afterNote.transcript.at(-1)!.text]).toEqual(["conversation", "Thanks Pat, the team will call you back about it."]);
    const [task] = await db.select().from(tasks).where(eq(tasks.organizationId, organizationId));
    expect([task.contactName, task.contactNumber, task.callId]).toEqual(["Pat Caller", "+15555550123", afterNote.id]);

    script = [() => ({ toolUses: [{ name: "transfer", input: { reason: "asked" } }] }), () => "Connecting you with the team now."];
    const transferred = await sayOnCall(biz, callSid, noted.verbs[0].attrs.action, "One more thing, I'd rather sort the rest out with the stylist directly");
    expect(transferred.verbs.map((v) => v.name)).toEqual(["Play", "Dial"]);
    expect(transferred.verbs[1].children.map((c) => c.text)).toEqual(["+14155550123"]);
    expect((await callRow(callSid)).mode).toBe("transfer");
    expect(script).toEqual([]);
  });
});
