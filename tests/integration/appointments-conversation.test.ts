/**
 * Booking by voice and by text through the phone loop's webhooks (signed like Twilio's, offline
 * providers, the run's real database): the assistant offers only free times, holds the chosen one,
 * reads it back with a question, writes the booking only on the caller's yes, and only then says it
 * is booked; reschedule and cancel by the caller's number; texts honour STOP. The clock (Date only)
 * is fixed at Monday, March 15, 2027, 9:00 AM in New York, so every line can be asserted word for word.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { POST as smsHook } from "@/app/api/telephony/sms/route";
import { POST as voiceHook } from "@/app/api/telephony/voice/route";
import { appointments, assistantActions, bookingConversations, messages, type TranscriptTurn } from "@/db/schema";
import { findSlots } from "@/lib/scheduling/service";
import { appointmentTextJob } from "@/lib/scheduling/notifications";
import { createFilesystemBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { closeDb, getDb } from "@/lib/platform/database";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import type { JobDefinition } from "@/lib/platform/jobs/types";
import { createService } from "@/lib/knowledge/services/service";
import { forgetCallContexts } from "@/lib/channels/phone-line/voice/runtime";
import { everyDay, setProfile } from "../helpers/booking";
import { carrierPost, fakeSid, find } from "../helpers/carrier";
import { silenceOfflineSpeech } from "../helpers/silent-speech";
import { runJobsUntil } from "../helpers/jobs";
import { business, callParams, callRow, say, type Business } from "../helpers/phone";

jest.setTimeout(120_000);

const NOW = new Date("2027-03-15T13:00:00Z");
const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-booking-"));

beforeAll(() => {
  // Only Date is fixed: timers, the database and the speech workers run on real time.
  jest.useFakeTimers({
    now: NOW,
    doNotFake: ["hrtime", "nextTick", "performance", "queueMicrotask", "requestAnimationFrame", "cancelAnimationFrame", "requestIdleCallback", "cancelIdleCallback", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"],
  });
  setBlobStore(createFilesystemBlobStore(blobDir));
  // Graded by what is said and written: speech synthesis on a busy machine must not eat a turn's time limit.
  silenceOfflineSpeech();
});
afterAll(async () => {
  jest.useRealTimers();
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});

type Salon = Business & { organizationId: string; serviceId: string };

async function salon(): Promise<Salon> {
  const biz = await business("Acme Salon");
  const organizationId = biz.account.organizationId;
  await setProfile(organizationId, { timezone: "America/New_York", weeklyHours: everyDay("09:00", "17:00") });
  const db = await getDb();
  const service = await createService(db, organizationId, {
    name: "Haircut",
    description: "",
    durationMinutes: 60,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    priceCents: null,
    priceText: null,
    bookable: true,
    isActive: true,
    resourceIds: [],
  });
  forgetCallContexts();
  return { ...biz, organizationId, serviceId: service.id };
}

/** A caller on the line: what they say, and what the assistant said back (from the stored transcript). */
async function caller(biz: Salon, from: string) {
  const callSid = fakeSid("CA");
  const res = await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, callSid, { From: from }), biz.authToken);
  expect(res.status).toBe(200);
  let action = find(res.verbs, "Gather")!.attrs.action;
  return {
    callSid,
    async says(speech: string): Promise<{ reply: string; verbs: ReturnType<typeof find>[]; hungUp: boolean }> {
      const r = await say(biz, callSid, action, speech, { From: from });
      expect(r.status).toBe(200);
      const gather = find(r.verbs, "Gather");
      if (gather) action = gather.attrs.action;
      const row = await callRow(callSid);
      const last = row.transcript.filter((t: TranscriptTurn) => t.speaker === "assistant").at(-1)!;
      return { reply: last.text, verbs: [gather], hungUp: Boolean(find(r.verbs, "Hangup")) };
    },
    async transcript() {
      return (await callRow(callSid)).transcript as TranscriptTurn[];
    },
  };
}

async function rows(organizationId: string) {
  const db = await getDb();
  return db.select().from(appointments).where(eq(appointments.organizationId, organizationId));
}

async function textsTo(organizationId: string, to: string) {
  const db = await getDb();
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.organizationId, organizationId), eq(messages.toNumber, to), eq(messages.direction, "outbound")));
}

const DEFAULT_CALLER = "+15555550123";

describe("booking by voice (the Gather loop)", () => {
  let biz: Salon;
  beforeAll(async () => {
    biz = await salon();
  });

  it("reads back before it writes, writes on yes, and says booked only after the write; the caller gets a confirmation text", async () => {
    const jane = await caller(biz, DEFAULT_CALLER);
    const first = await jane.says("Hi, I'd like to book a haircut tomorrow at 10 am");
    expect(first.reply).toBe("Tuesday, March 16 at 10:00 AM is free. May I have your name for the booking?");
    expect(await rows(biz.organizationId)).toEqual([]);

    const question = await jane.says("Jane Doe");
    expect(question.reply).toBe("Just to confirm, I have a Haircut on Tuesday, March 16, 2027 at 10:00 AM for Jane Doe. Shall I book it?");
    expect(question.verbs[0]).toBeDefined(); // asked in a Gather: the caller answers
    // Held for the read-back, not booked: no confirmed appointment exists before the yes.
    const held = await rows(biz.organizationId);
    expect(held.map((r) => [r.status, r.startsAt.toISOString(), r.customerName])).toEqual([["held", "2027-03-16T14:00:00.000Z", "Jane Doe"]]);
    expect(held[0].holdExpiresAt!.toISOString()).toBe("2027-03-15T13:05:00.000Z");

    const yes = await jane.says("Yes");
    expect(yes.reply).toBe("You're booked: Haircut on Tuesday, March 16, 2027 at 10:00 AM for Jane Doe. Is there anything else I can help you with?");
    const booked = (await rows(biz.organizationId)).filter((r) => r.status === "confirmed");
    expect(booked.map((r) => [r.startsAt.toISOString(), r.customerName, r.customerPhone, r.source])).toEqual([["2027-03-16T14:00:00.000Z", "Jane Doe", DEFAULT_CALLER, "phone"]]);

    // The transcript: the confirmation question comes before "booked", and nothing said "booked" earlier.
    const said = (await jane.transcript()).filter((t) => t.speaker === "assistant").map((t) => t.text);
    const asked = said.findIndex((t) => t.endsWith("Shall I book it?"));
    const confirmed = said.findIndex((t) => t.startsWith("You're booked"));
    expect(asked).toBeGreaterThan(0);
    expect(confirmed).toBe(asked + 1);
    expect(said.slice(0, confirmed).some((t) => /\bbooked\b/i.test(t))).toBe(false);

    const db = await getDb();
    const actions = await db.select().from(assistantActions).where(and(eq(assistantActions.organizationId, biz.organizationId), eq(assistantActions.type, "appointment_booked")));
    expect(actions).toHaveLength(1);
    expect(actions[0].detail).toMatchObject({ appointmentId: booked[0].id });

    await runJobsUntil([appointmentTextJob], async () => (await textsTo(biz.organizationId, DEFAULT_CALLER)).length > 0);
    expect((await textsTo(biz.organizationId, DEFAULT_CALLER)).map((m) => m.body)).toEqual([
      "Acme Salon: you're booked for Haircut on Tuesday, March 16, 2027 at 10:00 AM EDT. Reply C to confirm or R to reschedule. Reply STOP to opt out.",
    ]);

    const bye = await jane.says("No, that's all. Goodbye!");
    expect(bye.hungUp).toBe(true);
  });

  it("an impossible time gets the nearest free times, all of them really free, and nothing is held or booked", async () => {
    const before = await rows(biz.organizationId);
    const sam = await caller(biz, DEFAULT_CALLER);
    const { reply } = await sam.says("Can I book a haircut tomorrow at 7 in the evening?");
    expect(reply).toBe(
      "I'm sorry, 7:00 PM on Tuesday, March 16 isn't available. The nearest free times are Tuesday, March 16 at 3:30 PM, Tuesday, March 16 at 3:45 PM or Tuesday, March 16 at 4:00 PM. Would one of those work?",
    );
    const db = await getDb();
    const { slots } = await findSlots(db, biz.organizationId, { serviceId: biz.serviceId, from: new Date("2027-03-16T04:00:00Z"), to: new Date("2027-03-17T04:00:00Z") });
    const free = new Set(slots.map((s) => s.label.time));
    for (const time of reply.match(/\d{1,2}:\d{2} [AP]M/g)!.slice(1)) expect(free.has(time)).toBe(true);
    // Jane's 10:00 AM is taken: never offered.
    expect(free.has("10:00 AM")).toBe(false);
    expect(await rows(biz.organizationId)).toHaveLength(before.length);
  });

  it("reschedules and cancels the caller's own appointment, recognised by the number", async () => {
    const move = await caller(biz, DEFAULT_CALLER);
    expect((await move.says("I need to reschedule my appointment")).reply).toBe(
      "I see your Haircut on Tuesday, March 16, 2027 at 10:00 AM for Jane Doe. What day and time would you like instead?",
    );
    expect((await move.says("Wednesday at 2 pm")).reply).toBe(
      "Just to confirm, I'll move your appointment to Haircut on Wednesday, March 17, 2027 at 2:00 PM for Jane Doe. Shall I make the change?",
    );
    const [before] = (await rows(biz.organizationId)).filter((r) => r.status === "confirmed");
    expect(before.startsAt.toISOString()).toBe("2027-03-16T14:00:00.000Z"); // not moved before the yes
    expect((await move.says("yes please")).reply).toBe("Done: I've moved it. You now have a Haircut on Wednesday, March 17, 2027 at 2:00 PM for Jane Doe. Is there anything else I can help you with?");
    const [after] = (await rows(biz.organizationId)).filter((r) => r.status === "confirmed");
    expect([after.id, after.startsAt.toISOString()]).toEqual([before.id, "2027-03-17T18:00:00.000Z"]);

    const stranger = await caller(biz, "+15555550999");
    expect((await stranger.says("Please cancel my appointment")).reply).toBe("I can't find an upcoming appointment under this phone number. Would you like to book one?");

    const cancel = await caller(biz, DEFAULT_CALLER);
    expect((await cancel.says("I want to cancel my appointment")).reply).toBe("I see your Haircut on Wednesday, March 17, 2027 at 2:00 PM for Jane Doe. Shall I cancel it?");
    expect((await rows(biz.organizationId)).find((r) => r.id === before.id)!.status).toBe("confirmed");
    expect((await cancel.says("Yes")).reply).toBe("Your Haircut on Wednesday, March 17, 2027 at 2:00 PM for Jane Doe is cancelled. Is there anything else I can help you with?");
    expect((await rows(biz.organizationId)).find((r) => r.id === before.id)!.status).toBe("cancelled");
  });

  it("keeps the conversation in the database: each webhook picks up where the last left off", async () => {
    const pat = await caller(biz, DEFAULT_CALLER);
    await pat.says("book a haircut on Thursday at 9");
    const call = await callRow(pat.callSid);
    const db = await getDb();
    const [conversation] = await db.select().from(bookingConversations).where(and(eq(bookingConversations.organizationId, biz.organizationId), eq(bookingConversations.ref, call.id)));
    expect(conversation).toMatchObject({ channel: "call", callerPhone: DEFAULT_CALLER, state: { flow: "book", stage: "name", serviceName: "Haircut" } });
    expect((await pat.says("never mind")).reply).toBe("No problem, I've left everything as it was. Is there anything else I can help you with?");
    const [ended] = await db.select().from(bookingConversations).where(eq(bookingConversations.id, conversation.id));
    expect(ended.state).toBeNull();
  });
});

describe("holds", () => {
  it("a held time is not offered to another caller; once the hold expires it is free again, and the first caller's late yes books nothing", async () => {
    const biz = await salon();
    const ann = await caller(biz, "+15555550201");
    await ann.says("I'd like to book a haircut tomorrow at 11, my name is Ann Lee");
    expect((await rows(biz.organizationId)).map((r) => r.status)).toEqual(["held"]);

    const bob = await caller(biz, "+15555550202");
    const blocked = await bob.says("Can I book a haircut tomorrow at 11?");
    expect(blocked.reply).toMatch(/^I'm sorry, 11:00 AM on Tuesday, March 16 isn't available\./);

    // Six minutes later Ann's five-minute hold has expired by itself (no cleanup job ran).
    jest.setSystemTime(new Date(NOW.getTime() + 6 * 60_000));
    await bob.says("tomorrow at 11 then");
    const bobAsked = await bob.says("Bob Ray");
    expect(bobAsked.reply).toBe("Just to confirm, I have a Haircut on Tuesday, March 16, 2027 at 11:00 AM for Bob Ray. Shall I book it?");
    expect((await bob.says("yes")).reply).toMatch(/^You're booked: Haircut on Tuesday, March 16, 2027 at 11:00 AM for Bob Ray\./);

    const late = await ann.says("Yes, book it");
    expect(late.reply).toMatch(/^I'm sorry, that time was taken by someone else a moment ago, so it is not booked\. The nearest free times are /);
    const confirmed = (await rows(biz.organizationId)).filter((r) => r.status === "confirmed");
    expect(confirmed.map((r) => r.customerName)).toEqual(["Bob Ray"]);
    jest.setSystemTime(NOW);
  });
});

describe("double-book race", () => {
  it("five callers asking for the same time at once: one read-back, one booking", async () => {
    const biz = await salon();
    const callers = await Promise.all([0, 1, 2, 3, 4].map((i) => caller(biz, `+1555555030${i}`)));
    const replies = await Promise.all(callers.map((c, i) => c.says(`Book a haircut on Thursday at 9, my name is Racer ${"ABCDE"[i]}`)));
    const readBacks = replies.filter((r) => r.reply.startsWith("Just to confirm"));
    expect(readBacks).toHaveLength(1);
    for (const r of replies.filter((x) => !x.reply.startsWith("Just to confirm"))) expect(r.reply).toMatch(/isn't available|taken by someone else/);
    const answers = await Promise.all(callers.map((c, i) => (replies[i].reply.startsWith("Just to confirm") ? c.says("yes") : null)));
    expect(answers.filter((a) => a?.reply.startsWith("You're booked"))).toHaveLength(1);
    const confirmed = (await rows(biz.organizationId)).filter((r) => r.status === "confirmed" && r.startsAt.toISOString() === "2027-03-18T13:00:00.000Z");
    expect(confirmed).toHaveLength(1);
  });
});

describe("booking by text", () => {
  function text(biz: Salon, from: string, body: string) {
    const params = { MessageSid: fakeSid("SM"), AccountSid: biz.accountSid, From: from, To: biz.phoneNumber, Body: body, NumMedia: "0", ApiVersion: "2010-04-01" };
    return carrierPost(smsHook, "/api/telephony/sms", params, biz.authToken);
  }
  const reply = (r: Awaited<ReturnType<typeof text>>) => find(r.verbs, "Message")?.text ?? null;

  it("books by text with the read-back first and YES as the answer; C confirms; an opted-out contact gets no texts", async () => {
    const biz = await salon();
    const sam = "+15555550142";
    expect(reply(await text(biz, sam, "Hi! Can I book a haircut on Friday at 10?"))).toBe("Friday, March 19 at 10:00 AM is free. May I have your name for the booking?");
    expect(reply(await text(biz, sam, "Sam Lee"))).toBe("Just to confirm, I have a Haircut on Friday, March 19, 2027 at 10:00 AM for Sam Lee. Shall I book it?");
    expect((await rows(biz.organizationId)).map((r) => r.status)).toEqual(["held"]);
    // YES is also a carrier opt-in keyword: here it answers the booking.
    expect(reply(await text(biz, sam, "YES"))).toBe("You're booked: Haircut on Friday, March 19, 2027 at 10:00 AM for Sam Lee. Is there anything else I can help you with?");
    expect((await rows(biz.organizationId)).map((r) => [r.status, r.source])).toEqual([["confirmed", "sms"]]);
    await runJobsUntil([appointmentTextJob], async () => (await textsTo(biz.organizationId, sam)).some((m) => m.body.includes("you're booked for")));

    // C: the reply to the confirmation text is handled before the assistant.
    expect(reply(await text(biz, sam, "C"))).toBe("Thanks, Sam Lee! Your Haircut on Friday March 19 at 10:00 AM is confirmed.");
    const [row] = await rows(biz.organizationId);
    expect(row.customerConfirmedAt).not.toBeNull();

    // STOP, then a booking by phone from the same number: booked, but no text goes out.
    await text(biz, sam, "STOP");
    const count = (await textsTo(biz.organizationId, sam)).length;
    const call = await caller(biz, sam);
    await call.says("book a haircut on Monday at 2 pm, my name is Sam Lee");
    expect((await call.says("yes")).reply).toMatch(/^You're booked: Haircut on Monday, March 22, 2027 at 2:00 PM for Sam Lee\./);
    expect((await rows(biz.organizationId)).filter((r) => r.status === "confirmed")).toHaveLength(2);
    await runDueJobs({ definitions: [appointmentTextJob] as JobDefinition<unknown>[], schedules: false });
    expect(await textsTo(biz.organizationId, sam)).toHaveLength(count);
  });
});
