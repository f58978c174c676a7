import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { appointments, services } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { bookingAwareLlm } from "@/lib/scheduling/dialogue/conversation";
import type { DialogueTurn } from "@/lib/scheduling/dialogue/dialogue";
import { bookSlot, type BookingDeps } from "@/lib/scheduling/service";
import { fromZoned } from "@/lib/scheduling/time";
import { createAnthropicLlm } from "@/lib/platform/providers/llm/anthropic";
import type { ChatMessage, ReplyInput } from "@/lib/platform/providers/llm/interface";
import { startFakeAnthropic, toolResults, type FakeAnthropic, type FakeAnthropicRequest, type FakeReply, type FakeToolResult } from "../fakes/anthropic-server";
import { bookingOrg } from "../helpers/booking";

/**
 * The language-model path books: with an Anthropic key every answered turn goes to the model (the
 * booking dialogue no longer answers first) with the booking tools (Anthropic tool use, against the local fake of
 * the Messages API), executed through the same appointment book as the dialogue. The model holds and
 * reads back; a confirm in the same reply, or on words that are not a yes, is refused, and the
 * booking is written only on the caller's yes. Moves and cancellations the same way.
 */
jest.setTimeout(90_000);
const KEY = "sk-ant-test-booking-tools";
const NY = "America/New_York";
let anthropic: FakeAnthropic;
let script: ((request: FakeAnthropicRequest) => FakeReply)[] = [];

beforeAll(async () => {
  anthropic = await startFakeAnthropic({
    apiKey: KEY,
    reply: (request) => {
      const step = script.shift();
      if (!step) throw new Error("The fake model has no scripted answer left");
      return step(request);
    },
  });
});
afterAll(async () => {
  await anthropic.close();
  await closeDb();
});

const json = (r: FakeToolResult) => JSON.parse(r.content);

const at = (time: string) => fromZoned("2027-03-16", time, NY);

describe("booking tools for the language model", () => {
  it("holds and reads back, refuses to write without the caller's yes, books on yes, moves and cancels", async () => {
    const { organizationId } = await bookingOrg({ duration: 30, interval: 15 });
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false };
    const callerPhone = `+1415${crypto.randomInt(2_000_000, 9_999_999)}`;
    const written: DialogueTurn[] = [];
    const llm = bookingAwareLlm(
      db,
      organizationId,
      createAnthropicLlm({ apiKey: KEY, baseURL: anthropic.url, maxRetries: 0, model: "claude-test" }),
      { channel: "sms", ref: crypto.randomUUID(), callerPhone },
      deps,
      (t) => {
        written.push(t);
      },
    );
    const history: ChatMessage[] = [];
    const seen: FakeToolResult[] = [];
    const say = async (text: string) => {
      const input: ReplyInput = { assistant: { name: "Ava", personality: "friendly", instructions: "" }, profile: { name: "Acme Salon" }, history: [...history], text };
      const reply = await llm.generateReply(input);
      history.push({ role: "user", content: text }, { role: "assistant", content: reply.text });
      return reply;
    };
    const rows = () => db.select().from(appointments).where(and(eq(appointments.organizationId, organizationId), eq(appointments.customerPhone, callerPhone)));
    const collect = (request: FakeAnthropicRequest) => {
      const r = toolResults(request);
      seen.push(...r);
      return r;
    };

    // 1. Words the dialogue does not take ("fit me in", "trim"): the model gets the tools, checks,
    //    holds, and — trying to skip the read-back — is refused in the same reply.
    const before = anthropic.requests.length;
    script = [
      () => ({ text: "[intent:appointment]\nLet me look.", toolUses: [{ name: "check_availability", input: { service: "Haircut", date: "2027-03-16" } }] }),
      (request) => {
        const slots = json(collect(request)[0]).slots as { start: string; when: string }[];
        const ten = slots.find((s) => s.start === at("10:00").toISOString())!;
        return { toolUses: [{ name: "hold_slot", input: { start: ten.start, customerName: "Rosa Diaz", service: "Haircut" } }] };
      },
      (request) => {
        collect(request);
        return { toolUses: [{ name: "confirm_booking", input: {} }] };
      },
      (request) => {
        collect(request);
        return "Just to confirm, I have a Haircut on Tuesday, March 16, 2027 at 10:00 AM for Rosa Diaz. Shall I book it?";
      },
    ];
    const asked = await say("Could you fit me in for a trim on Tuesday the 16th around ten? I'm Rosa Diaz");
    expect(asked.text).toBe("Let me look. Just to confirm, I have a Haircut on Tuesday, March 16, 2027 at 10:00 AM for Rosa Diaz. Shall I book it?");
    const offered = anthropic.requests[before].body.tools!.map((t) => t.name);
    expect(offered).toEqual(["resolve_date", "check_availability", "my_appointments", "hold_slot", "confirm_booking", "release_hold", "cancel_appointment", "take_message", "transfer"]);
    expect(seen[1].content).toMatch(/NOT booked yet/);
    expect(seen[2]).toMatchObject({ is_error: true, content: expect.stringMatching(/^Not booked\. The caller has not confirmed/) });
    expect((await rows()).map((r) => r.status)).toEqual(["held"]);

    // 2. Something that is not a yes: the model's confirm is refused; still only a hold.
    script = [
      () => ({ toolUses: [{ name: "confirm_booking", input: {} }] }),
      (request) => {
        collect(request);
        return "It is $40. Shall I book it?";
      },
    ];
    await say("Hmm, how much is it again?");
    expect(seen.at(-1)).toMatchObject({ is_error: true });
    expect((await rows()).map((r) => r.status)).toEqual(["held"]);
    expect(written).toEqual([]);

    // 3. The caller's yes (the dialogue steps aside while the model's read-back waits): written now.
    script = [
      () => ({ toolUses: [{ name: "confirm_booking", input: {} }] }),
      (request) => {
        collect(request);
        return "You're booked: Haircut on Tuesday, March 16, 2027 at 10:00 AM.";
      },
    ];
    expect((await say("yes, book it")).text).toBe("You're booked: Haircut on Tuesday, March 16, 2027 at 10:00 AM.");
    expect(seen.at(-1)!.content).toBe("Booked and saved: Haircut on Tuesday, March 16, 2027 at 10:00 AM for Rosa Diaz. Now tell the caller.");
    const [booked] = await rows();
    expect([booked.status, booked.startsAt.toISOString(), booked.customerName, booked.source]).toEqual(["confirmed", at("10:00").toISOString(), "Rosa Diaz", "sms"]);
    expect(written.map((w) => [w.events, w.appointment!.id])).toEqual([[["booked"], booked.id]]);

    // 4. A move to a quarter past (overlapping its own time), read back, then yes.
    script = [
      () => ({ toolUses: [{ name: "my_appointments", input: {} }] }),
      (request) => {
        const [mine] = json(collect(request)[0]).appointments;
        return { toolUses: [{ name: "check_availability", input: { date: "2027-03-16", appointmentId: mine.appointmentId } }] };
      },
      (request) => {
        const slots = json(collect(request)[0]).slots as { start: string }[];
        expect(slots.map((s) => s.start)).toContain(at("10:15").toISOString());
        return { toolUses: [{ name: "hold_slot", input: { start: at("10:15").toISOString(), appointmentId: booked.id } }] };
      },
      (request) => {
        collect(request);
        return "Just to confirm, I'll move your appointment to 10:15 AM. Shall I make the change?";
      },
    ];
    await say("Could we make it a quarter past instead?");
    expect(seen.at(-1)!.content).toMatch(/^Held for a few minutes, NOT booked yet\. Ask the caller exactly: "Just to confirm, I'll move your appointment to Haircut on Tuesday, March 16, 2027 at 10:15 AM for Rosa Diaz/);
    expect((await rows()).find((r) => r.id === booked.id)!.startsAt.toISOString()).toBe(at("10:00").toISOString());
    script = [
      () => ({ toolUses: [{ name: "confirm_booking", input: {} }] }),
      (request) => {
        collect(request);
        return "Done, you're now at 10:15 AM.";
      },
    ];
    await say("yes please");
    expect((await rows()).filter((r) => r.status === "confirmed").map((r) => [r.id, r.startsAt.toISOString()])).toEqual([[booked.id, at("10:15").toISOString()]]);
    expect(written.at(-1)!.events).toEqual(["moved"]);

    // 5. Cancel: asked first, written on yes.
    script = [
      () => ({ toolUses: [{ name: "cancel_appointment", input: {} }] }),
      (request) => {
        collect(request);
        return "I see your Haircut on Tuesday at 10:15 AM. Shall I cancel it?";
      },
    ];
    await say("Actually I can't make it, please call it off");
    expect(seen.at(-1)!.content).toMatch(/^NOT cancelled yet\./);
    expect((await rows()).find((r) => r.id === booked.id)!.status).toBe("confirmed");
    script = [
      () => ({ toolUses: [{ name: "cancel_appointment", input: {} }] }),
      (request) => {
        collect(request);
        return "It's cancelled.";
      },
    ];
    await say("yes");
    expect((await rows()).find((r) => r.id === booked.id)!.status).toBe("cancelled");
    expect(written.at(-1)!.events).toEqual(["cancelled"]);
    expect(script).toEqual([]);
  });

  it("offers no booking tools where nothing can be booked, and a hold made elsewhere cannot be confirmed by the model", async () => {
    const { organizationId } = await bookingOrg({ duration: 30 });
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false };
    const model = createAnthropicLlm({ apiKey: KEY, baseURL: anthropic.url, maxRetries: 0, model: "claude-test" });
    // Another organization's booking: nothing of it is reachable from this conversation.
    const other = await bookingOrg({ duration: 30 });
    await bookSlot(db, other.organizationId, { serviceId: other.serviceId, start: at("11:00"), customerName: "Zed", customerPhone: "+14155550111" }, deps);

    const llm = bookingAwareLlm(db, organizationId, model, { channel: "chat", ref: crypto.randomUUID(), callerPhone: "+14155550111" }, deps);
    script = [
      () => ({ toolUses: [{ name: "confirm_booking", input: {} }] }),
      () => "Nothing to confirm.",
      () => "We can't book online right now.",
    ];
    const input = (text: string): ReplyInput => ({ assistant: { name: "Ava", personality: "friendly", instructions: "" }, profile: { name: "Acme Salon" }, history: [], text });
    const before = anthropic.requests.length;
    await llm.generateReply(input("yes"));
    const refused = toolResults(anthropic.requests[before + 1])[0];
    expect(refused).toMatchObject({ is_error: true, content: expect.stringMatching(/^Nothing is held in this conversation/) });
    expect(await db.select().from(appointments).where(eq(appointments.organizationId, organizationId))).toEqual([]);

    await db.update(services).set({ bookable: false }).where(eq(services.organizationId, organizationId));
    await llm.generateReply(input("Hello there"));
    // Nothing bookable: the model still leads, with only take_message and transfer.
    expect(anthropic.requests.at(-1)!.body.tools!.map((t) => t.name)).toEqual(["take_message", "transfer"]);
  });

  it("resolve_date: the model reads a spoken day with the same code as the dialogue — relative days in the business's zone, impossible days refused", async () => {
    const { organizationId } = await bookingOrg({ duration: 30, interval: 15 });
    const db = await getDb();
    // Wednesday, March 10, 2027, 7 AM in New York.
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false };
    const llm = bookingAwareLlm(db, organizationId, createAnthropicLlm({ apiKey: KEY, baseURL: anthropic.url, maxRetries: 0, model: "claude-test" }), { channel: "sms", ref: crypto.randomUUID(), callerPhone: "+14155550111" }, deps);
    const got: FakeToolResult[] = [];
    script = [
      () => ({ toolUses: [{ name: "resolve_date", input: { text: "the Tuesday after next around 3" } }] }),
      (request) => {
        got.push(...toolResults(request));
        return { toolUses: [{ name: "resolve_date", input: { text: "February 30th" } }] };
      },
      (request) => {
        got.push(...toolResults(request));
        return "Which day would you like instead?";
      },
    ];
    const input: ReplyInput = { assistant: { name: "Ava", personality: "friendly", instructions: "" }, profile: { name: "Acme Salon" }, history: [], text: "Could you fit me in the Tuesday after next around 3? Or February 30th" };
    await llm.generateReply(input);
    expect(json(got[0])).toMatchObject({ date: "2027-03-23", time: "15:00", readBack: "Tuesday, March 23rd at 3 PM" });
    expect(json(got[1])).toMatchObject({ invalid: "nonexistent" });
  });
});
