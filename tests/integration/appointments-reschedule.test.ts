import crypto from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { PATCH as patchRoute } from "@/app/api/appointments/[id]/route";
import { GET as availabilityRoute } from "@/app/api/appointments/availability/route";
import { appointments } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { handleBookingTurn } from "@/lib/scheduling/dialogue/conversation";
import { bookSlot, findSlots, holdSlot, releaseHold, rescheduleAppointment, SlotTakenError, type BookingDeps } from "@/lib/scheduling/service";
import { addDays, fromZoned, toZoned } from "@/lib/scheduling/time";
import { call } from "../helpers/http";
import { bookingOrg, fixedClock } from "../helpers/booking";

/**
 * Moving an appointment to a time that overlaps its own current time (10:00–10:30 → 10:15–10:45):
 * the appointment is not its own conflict — in the slots offered for the move, the hold, the
 * direct move and the dialogue — while everyone else's appointments still are, and the database
 * still lets exactly one of 50 racing attempts have the time. Runs on PGlite and, with
 * DATABASE_URL, on PostgreSQL (each test makes its own organization and numbers).
 */
afterAll(() => closeDb());

const NY = "America/New_York";
const phone = () => `+1415${crypto.randomInt(2_000_000, 9_999_999)}`;

async function thirtyMinuteSalon(staff = 1) {
  return bookingOrg({ staff, duration: 30, interval: 15 });
}

async function confirmedRows(organizationId: string) {
  const db = await getDb();
  return db
    .select()
    .from(appointments)
    .where(and(eq(appointments.organizationId, organizationId), inArray(appointments.status, ["confirmed"])));
}

describe("a move may overlap the appointment's own time", () => {
  const clock = fixedClock("2027-03-10T12:00:00Z");
  const deps: BookingDeps = { now: clock.now, followUps: false };
  // Tuesday, March 16, 2027, New York (EDT): 10:00 = 14:00Z.
  const at = (time: string) => fromZoned("2027-03-16", time, NY);

  it("offers overlapping times only to the appointment being moved, and moves it there (slots, hold, direct move)", async () => {
    const { organizationId, serviceId } = await thirtyMinuteSalon();
    const db = await getDb();
    const mine = await bookSlot(db, organizationId, { serviceId, start: at("10:00"), customerName: "Maya", customerPhone: phone() }, deps);
    const range = { serviceId, from: at("09:00"), to: at("12:00") };

    const forEveryone = (await findSlots(db, organizationId, range, deps)).slots.map((s) => s.localTime);
    expect(forEveryone).not.toContain("10:15");
    expect(forEveryone).not.toContain("09:45");
    const forTheMove = (await findSlots(db, organizationId, { ...range, excludeAppointmentId: mine.id }, deps)).slots.map((s) => s.localTime);
    expect(forTheMove).toEqual(expect.arrayContaining(["09:45", "10:00", "10:15"]));

    const hold = await holdSlot(db, organizationId, { serviceId, start: at("10:15").toISOString(), customerName: "Maya", customerPhone: mine.customerPhone, rescheduleOf: mine.id }, deps);
    expect(hold.readBack).toBe("Haircut with Staff 1 on Tuesday, March 16, 2027 at 10:15 AM for Maya");
    // The screen's Move writes straight to the appointment; the caller's hold is let go first.
    await releaseHold(db, organizationId, hold.holdId, deps);

    const moved = await rescheduleAppointment(db, organizationId, mine.id, { start: at("10:15") }, deps);
    expect([moved.id, moved.localTime]).toEqual([mine.id, "10:15"]);
    const back = await rescheduleAppointment(db, organizationId, mine.id, { start: at("10:00") }, deps);
    expect(back.localTime).toBe("10:00");
  });

  it("still refuses a move onto someone else's appointment", async () => {
    const { organizationId, serviceId } = await thirtyMinuteSalon();
    const db = await getDb();
    const mine = await bookSlot(db, organizationId, { serviceId, start: at("10:00"), customerName: "Maya", customerPhone: phone() }, deps);
    const theirs = await bookSlot(db, organizationId, { serviceId, start: at("10:30"), customerName: "Noor", customerPhone: phone() }, deps);

    const forTheMove = (await findSlots(db, organizationId, { serviceId, from: at("09:00"), to: at("12:00"), excludeAppointmentId: mine.id }, deps)).slots.map((s) => s.localTime);
    expect(forTheMove).toContain("09:45");
    expect(forTheMove).not.toContain("10:15"); // 10:15–10:45 would run into Noor's 10:30
    expect(forTheMove).not.toContain("10:30");

    await expect(rescheduleAppointment(db, organizationId, mine.id, { start: at("10:15") }, deps)).rejects.toBeInstanceOf(SlotTakenError);
    await expect(holdSlot(db, organizationId, { serviceId, start: at("10:15").toISOString(), customerName: "Maya", customerPhone: mine.customerPhone, rescheduleOf: mine.id }, deps)).rejects.toBeInstanceOf(
      SlotTakenError,
    );
    const rows = await confirmedRows(organizationId);
    expect(rows.map((r) => [r.id, r.startsAt.toISOString()]).sort()).toEqual(
      [
        [mine.id, at("10:00").toISOString()],
        [theirs.id, at("10:30").toISOString()],
      ].sort(),
    );
    // Someone else's id gives no exemption to a new booking: 10:15 is still taken for everyone.
    await expect(bookSlot(db, organizationId, { serviceId, start: at("10:15"), customerName: "Ola", customerPhone: phone() }, deps)).rejects.toBeInstanceOf(SlotTakenError);
  });

  it("50 racing attempts at the overlapping time — the move's hold and 49 other callers' — end in exactly one hold", async () => {
    const { organizationId, serviceId } = await thirtyMinuteSalon();
    const db = await getDb();
    const mine = await bookSlot(db, organizationId, { serviceId, start: at("10:00"), customerName: "Maya", customerPhone: phone() }, deps);
    // The move wants 10:15–10:45; the others want 10:30–11:00, which does not touch Maya's current 10:00–10:30
    // but overlaps the move (and each other).
    const attempts = [
      () => holdSlot(db, organizationId, { serviceId, start: at("10:15").toISOString(), customerName: "Maya", customerPhone: mine.customerPhone, rescheduleOf: mine.id }, deps),
      ...Array.from({ length: 49 }, (_, i) => () => holdSlot(db, organizationId, { serviceId, start: at("10:30").toISOString(), customerName: `Caller ${i}`, customerPhone: phone() }, deps)),
    ];
    const results = await Promise.allSettled(attempts.map((a) => a()));
    const won = results.filter((r) => r.status === "fulfilled");
    const otherErrors = results.flatMap((r) => (r.status === "rejected" && !(r.reason instanceof SlotTakenError) ? [String(r.reason)] : []));
    expect({ won: won.length, otherErrors }).toEqual({ won: 1, otherErrors: [] });
    const held = await db.select().from(appointments).where(and(eq(appointments.organizationId, organizationId), eq(appointments.status, "held")));
    expect(held).toHaveLength(1);
  }, 120_000);

  it("50 racing direct moves and bookings: never two appointments on overlapping time", async () => {
    const { organizationId, serviceId } = await thirtyMinuteSalon();
    const db = await getDb();
    const mine = await bookSlot(db, organizationId, { serviceId, start: at("10:00"), customerName: "Maya", customerPhone: phone() }, deps);
    const attempts = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0
        ? () => rescheduleAppointment(db, organizationId, mine.id, { start: at("10:15") }, deps)
        : () => bookSlot(db, organizationId, { serviceId, start: at("10:30"), customerName: `Caller ${i}`, customerPhone: phone() }, deps),
    );
    const results = await Promise.allSettled(attempts.map((a) => a()));
    for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(SlotTakenError);
    const rows = (await confirmedRows(organizationId)).sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
    // Either Maya moved to 10:15 and nobody got 10:30, or one caller got 10:30 and Maya stayed at 10:00.
    const others = rows.filter((r) => r.id !== mine.id);
    const maya = rows.find((r) => r.id === mine.id)!;
    expect(others.length).toBeLessThanOrEqual(1);
    if (others.length) expect(maya.startsAt.toISOString()).toBe(at("10:00").toISOString());
    else expect(maya.startsAt.toISOString()).toBe(at("10:15").toISOString());
    for (let i = 1; i < rows.length; i++) expect(rows[i].blockStart.getTime()).toBeGreaterThanOrEqual(rows[i - 1].blockEnd.getTime());
  }, 120_000);

  it("the caller moves it by conversation: 'a quarter past instead' is free for them, read back, moved on yes", async () => {
    const { organizationId, serviceId } = await thirtyMinuteSalon();
    const db = await getDb();
    const number = phone();
    const mine = await bookSlot(db, organizationId, { serviceId, start: at("10:00"), customerName: "Maya Chen", customerPhone: number }, deps);
    const ref = crypto.randomUUID();
    const turn = (text: string) => handleBookingTurn(db, organizationId, { channel: "sms", ref, callerPhone: number, text }, deps);

    expect((await turn("I need to reschedule my appointment"))!.reply).toBe(
      "I see your Haircut with Staff 1 on Tuesday, March 16, 2027 at 10:00 AM for Maya Chen. What day and time would you like instead?",
    );
    const readBack = await turn("March 16 at 10:15 am");
    expect(readBack!.reply).toBe("Just to confirm, I'll move your appointment to Haircut with Staff 1 on Tuesday, March 16, 2027 at 10:15 AM for Maya Chen. Shall I make the change?");
    expect((await confirmedRows(organizationId)).map((r) => r.startsAt.toISOString())).toEqual([at("10:00").toISOString()]); // not before the yes
    const done = await turn("yes");
    expect(done!.reply).toMatch(/^Done: I've moved it\. You now have a Haircut with Staff 1 on Tuesday, March 16, 2027 at 10:15 AM for Maya Chen\./);
    expect((await confirmedRows(organizationId)).map((r) => [r.id, r.startsAt.toISOString()])).toEqual([[mine.id, at("10:15").toISOString()]]);
  });
});

describe("the availability route for the Move dialog", () => {
  // The routes run on the real clock: a day a week from today, New York time.
  const day = addDays(toZoned(new Date(), NY).date, 7);
  const at = (time: string) => fromZoned(day, time, NY);
  const range = `from=${encodeURIComponent(at("09:00").toISOString())}&to=${encodeURIComponent(at("12:00").toISOString())}`;

  it("with excludeAppointmentId offers the appointment's overlapping times; PATCH moves it there; another organization's id is 404", async () => {
    const org = await thirtyMinuteSalon();
    const other = await thirtyMinuteSalon();
    const db = await getDb();
    const mine = await bookSlot(db, org.organizationId, { serviceId: org.serviceId, start: at("10:00"), customerName: "Maya", customerPhone: phone() });
    const url = `/api/appointments/availability?serviceId=${org.serviceId}&${range}`;

    const plain = await call(availabilityRoute, "GET", url, { sessionId: org.account.sessionId });
    expect(plain.status).toBe(200);
    expect(plain.body.slots.map((s: { localTime: string }) => s.localTime)).not.toContain("10:15");
    const forMove = await call(availabilityRoute, "GET", `${url}&excludeAppointmentId=${mine.id}`, { sessionId: org.account.sessionId });
    expect(forMove.status).toBe(200);
    expect(forMove.body.slots.map((s: { localTime: string }) => s.localTime)).toContain("10:15");

    const bad = await call(availabilityRoute, "GET", `${url}&excludeAppointmentId=nope`, { sessionId: org.account.sessionId });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("excludeAppointmentId");
    const foreign = await call(availabilityRoute, "GET", `/api/appointments/availability?serviceId=${other.serviceId}&${range}&excludeAppointmentId=${mine.id}`, {
      sessionId: other.account.sessionId,
    });
    expect(foreign.status).toBe(404);

    const patched = await call(patchRoute, "PATCH", `/api/appointments/${mine.id}`, { sessionId: org.account.sessionId, params: { id: mine.id }, body: { start: at("10:15").toISOString() } });
    expect(patched.status).toBe(200);
    expect(patched.body.localTime).toBe("10:15");
  });
});
