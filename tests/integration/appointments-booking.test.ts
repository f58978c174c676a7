import { and, eq, sql } from "drizzle-orm";
import { appointments } from "@/db/schema";
import { closeDb, getDb, getDbHandle } from "@/lib/platform/database";
import { updateBookingSettings } from "@/lib/scheduling/settings";
import {
  bookSlot,
  cancelAppointment,
  confirmHold,
  findSlots,
  holdSlot,
  releaseHold,
  SlotTakenError,
  upcomingAppointmentsForPhone,
  type BookingDeps,
} from "@/lib/scheduling/service";
import { toZoned } from "@/lib/scheduling/time";
import { bookingOrg, fixedClock } from "../helpers/booking";

/**
 * The booking service on the run's database (PGlite, or PostgreSQL with DATABASE_URL): the same
 * file proves the rules on both drivers. Clocks are fixed so holds expire without waiting.
 */
afterAll(() => closeDb());

const NY = "America/New_York";
const phone = (n: number) => `+1415555${String(1000 + n).padStart(4, "0")}`;

describe("availability across time zones and daylight-saving changes", () => {
  it("offers 09:00 New York time on both sides of 2026-11-01 and 2027-03-14", async () => {
    const { organizationId, serviceId } = await bookingOrg({ hours: { sat: [{ open: "09:00", close: "10:00" }], sun: [{ open: "09:00", close: "10:00" }] } });
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2026-10-20T12:00:00Z") };
    const fall = await findSlots(db, organizationId, { serviceId, from: new Date("2026-10-31T00:00:00Z"), to: new Date("2026-11-02T00:00:00Z") }, deps);
    expect(fall.timezone).toBe(NY);
    expect(fall.slots.map((s) => s.start)).toEqual(["2026-10-31T13:00:00.000Z", "2026-11-01T14:00:00.000Z"]);
    expect(fall.slots.map((s) => s.label.zone)).toEqual(["EDT", "EST"]);
    const spring = await findSlots(db, organizationId, { serviceId, from: new Date("2027-03-13T00:00:00Z"), to: new Date("2027-03-15T00:00:00Z") }, { now: () => new Date("2027-03-01T12:00:00Z") });
    expect(spring.slots.map((s) => s.start)).toEqual(["2027-03-13T14:00:00.000Z", "2027-03-14T13:00:00.000Z"]);
    expect(spring.slots.map((s) => s.localTime)).toEqual(["09:00", "09:00"]);
  });

  it("reads the same weekly hours in the organization's own zone (Tokyo vs Los Angeles)", async () => {
    const range = { from: new Date("2027-03-15T00:00:00Z"), to: new Date("2027-03-17T00:00:00Z") };
    const deps: BookingDeps = { now: () => new Date("2027-03-01T00:00:00Z") };
    const hours = { tue: [{ open: "09:00", close: "10:00" }] };
    const tokyo = await bookingOrg({ timezone: "Asia/Tokyo", hours });
    const la = await bookingOrg({ timezone: "America/Los_Angeles", hours });
    const db = await getDb();
    expect((await findSlots(db, tokyo.organizationId, { serviceId: tokyo.serviceId, ...range }, deps)).slots.map((s) => s.start)).toEqual(["2027-03-16T00:00:00.000Z"]);
    expect((await findSlots(db, la.organizationId, { serviceId: la.serviceId, ...range }, deps)).slots.map((s) => s.start)).toEqual(["2027-03-16T16:00:00.000Z"]);
  });

  it("books a slot inside the repeated hour of the fall-back night by its instant", async () => {
    const { organizationId, serviceId } = await bookingOrg({ hours: { sun: [{ open: "00:00", close: "04:00" }] }, duration: 60, interval: 60 });
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2026-10-25T12:00:00Z"), followUps: false };
    const { slots } = await findSlots(db, organizationId, { serviceId, from: new Date("2026-11-01T04:00:00Z"), to: new Date("2026-11-01T09:00:00Z") }, deps);
    expect(slots.map((s) => `${s.localTime} ${s.label.zone}`)).toEqual(["00:00 EDT", "01:00 EDT", "01:00 EST", "02:00 EST", "03:00 EST"]);
    const second = await bookSlot(db, organizationId, { serviceId, start: slots[2].start, customerName: "Night Owl", customerPhone: phone(1) }, deps);
    expect(second.start).toBe("2026-11-01T06:00:00.000Z");
    expect(second.readBack).toBe("Haircut on Sunday, November 1, 2026 at 1:00 AM for Night Owl");
    // The first 1:00 AM is still free: they are different instants.
    const after = await findSlots(db, organizationId, { serviceId, from: new Date("2026-11-01T04:00:00Z"), to: new Date("2026-11-01T09:00:00Z") }, deps);
    expect(after.slots.map((s) => `${s.localTime} ${s.label.zone}`)).toEqual(["00:00 EDT", "01:00 EDT", "02:00 EST", "03:00 EST"]);
  });
});

describe("holds", () => {
  it("keeps others out for the hold time, then stops blocking by itself (no cleanup run)", async () => {
    const { organizationId, serviceId } = await bookingOrg();
    const db = await getDb();
    const clock = fixedClock("2027-03-10T12:00:00Z");
    const deps: BookingDeps = { now: clock.now, followUps: false };
    const start = "2027-03-16T14:00:00.000Z"; // 10:00 EDT
    const hold = await holdSlot(db, organizationId, { serviceId, start, customerName: "Ann", customerPhone: phone(2) }, deps);
    expect(hold.status).toBe("held");
    expect(hold.expiresAt).toBe("2027-03-10T12:05:00.000Z");
    expect(hold.readBack).toBe("Haircut on Tuesday, March 16, 2027 at 10:00 AM for Ann");

    // Another caller neither sees nor gets the time while the hold lasts; they are offered the nearest free ones.
    const during = await findSlots(db, organizationId, { serviceId, from: new Date(start), to: new Date("2027-03-16T15:00:00Z") }, deps);
    expect(during.slots.map((s) => s.start)).not.toContain(start);
    const taken = await holdSlot(db, organizationId, { serviceId, start, customerName: "Bob", customerPhone: phone(3) }, deps).catch((e) => e);
    expect(taken).toBeInstanceOf(SlotTakenError);
    expect(taken.status).toBe(409);
    expect(taken.alternatives.length).toBe(3);
    expect(taken.alternatives.map((s: any) => s.start)).not.toContain(start);

    // Five minutes and a second later the hold is over: nothing cleaned it up, the constraint's claim range ended.
    clock.advance(5 * 60_000 + 1000);
    const [row] = await db.select().from(appointments).where(eq(appointments.id, hold.holdId));
    expect(row.status).toBe("held");
    const bobs = await holdSlot(db, organizationId, { serviceId, start, customerName: "Bob", customerPhone: phone(3) }, deps);
    // Ann says yes too late: her hold ran out and Bob holds the time.
    const late = await confirmHold(db, organizationId, hold.holdId, deps).catch((e) => e);
    expect(late).toBeInstanceOf(SlotTakenError);
    expect(late.message).toMatch(/hold ran out/);
    const booked = await confirmHold(db, organizationId, bobs.holdId, deps);
    expect(booked).toMatchObject({ booked: true, moved: false, appointment: { status: "confirmed", customerName: "Bob", start } });
    // Confirming again (a retried request) answers the same booking.
    expect((await confirmHold(db, organizationId, bobs.holdId, deps)).appointment.id).toBe(bobs.holdId);
  });

  it("books an expired hold when nobody took the time, and a released hold frees the time at once", async () => {
    const { organizationId, serviceId } = await bookingOrg();
    const db = await getDb();
    const clock = fixedClock("2027-03-10T12:00:00Z");
    const deps: BookingDeps = { now: clock.now, followUps: false };
    const hold = await holdSlot(db, organizationId, { serviceId, start: "2027-03-16T15:00:00Z", customerName: "Cy", customerPhone: phone(4) }, deps);
    clock.advance(10 * 60_000);
    expect((await confirmHold(db, organizationId, hold.holdId, deps)).appointment.status).toBe("confirmed");

    const other = await holdSlot(db, organizationId, { serviceId, start: "2027-03-16T17:00:00Z", customerName: "Di", customerPhone: phone(5) }, deps);
    expect(await releaseHold(db, organizationId, other.holdId, deps)).toEqual({ released: true });
    const again = await holdSlot(db, organizationId, { serviceId, start: "2027-03-16T17:00:00Z", customerName: "Ed", customerPhone: phone(6) }, deps);
    expect(again.status).toBe("held");
    await expect(confirmHold(db, organizationId, other.holdId, deps)).rejects.toMatchObject({ status: 409 });
  });

  it("holds one slot per caller: a new hold releases the caller's previous one", async () => {
    const { organizationId, serviceId } = await bookingOrg();
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false };
    const first = await holdSlot(db, organizationId, { serviceId, start: "2027-03-17T14:00:00Z", customerName: "Flo", customerPhone: phone(7) }, deps);
    await holdSlot(db, organizationId, { serviceId, start: "2027-03-17T16:00:00Z", customerName: "Flo", customerPhone: phone(7) }, deps);
    const [row] = await db.select().from(appointments).where(eq(appointments.id, first.holdId));
    expect(row).toMatchObject({ status: "cancelled", cancelReason: "Replaced by a newer hold" });
  });
});

describe("integrity in the database", () => {
  it("refuses an overlapping row written straight to the table (the rule is not in JavaScript)", async () => {
    const { organizationId, serviceId } = await bookingOrg();
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false };
    const booked = await bookSlot(db, organizationId, { serviceId, start: "2027-03-18T14:00:00Z", customerName: "Gus", customerPhone: phone(8) }, deps);
    const insert = (start: string, end: string) =>
      db.execute(sql`insert into appointment (id, organization_id, service_id, service_name, status, starts_at, ends_at, block_start, block_end, claimed_at, customer_name, customer_phone, source)
        values (${crypto.randomUUID()}, ${organizationId}, ${serviceId}, 'Haircut', 'confirmed', ${start}, ${end}, ${start}, ${end}, now(), 'Raw', '+14155550000', 'api')`);
    await expect(insert("2027-03-18T14:30:00Z", "2027-03-18T15:30:00Z")).rejects.toMatchObject({});
    const error = await insert("2027-03-18T14:30:00Z", "2027-03-18T15:30:00Z").catch((e) => e);
    expect(error.code ?? error.cause?.code).toBe("23P01");
    await expect(insert("2027-03-18T15:00:00Z", "2027-03-18T16:00:00Z")).resolves.toBeDefined(); // touching, not overlapping
    await cancelAppointment(db, organizationId, booked.id, {}, deps);
    await expect(insert("2027-03-18T14:00:00Z", "2027-03-18T15:00:00Z")).resolves.toBeDefined(); // a cancelled booking blocks nothing
  });

  it("50 callers booking the same slot at once: exactly one booking", async () => {
    const { driver } = await getDbHandle();
    const { organizationId, serviceId } = await bookingOrg();
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false };
    const start = "2027-03-19T14:00:00Z";
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => bookSlot(db, organizationId, { serviceId, start, customerName: `Caller ${i}`, customerPhone: phone(100 + i) }, deps)),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect({ driver, won: won.length, lost: lost.length }).toEqual({ driver, won: 1, lost: 49 });
    for (const l of lost) expect(l.reason).toBeInstanceOf(SlotTakenError);
    const rows = await db
      .select()
      .from(appointments)
      .where(and(eq(appointments.organizationId, organizationId), eq(appointments.status, "confirmed")));
    expect(rows).toHaveLength(1);
  }, 120_000);

  it("50 callers holding the same slot at once: exactly one hold; with two staff, exactly two", async () => {
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false };
    for (const staff of [0, 2]) {
      const { organizationId, serviceId } = await bookingOrg({ staff });
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) => holdSlot(db, organizationId, { serviceId, start: "2027-03-19T15:00:00Z", customerName: `Caller ${i}`, customerPhone: phone(200 + i) }, deps)),
      );
      const held = results.filter((r) => r.status === "fulfilled") as PromiseFulfilledResult<Awaited<ReturnType<typeof holdSlot>>>[];
      expect(held).toHaveLength(Math.max(1, staff));
      expect(new Set(held.map((h) => h.value.resourceId)).size).toBe(held.length);
    }
  }, 120_000);
});

describe("reschedule and cancel by the caller recognised by number", () => {
  it("finds the caller's upcoming appointments by number, holds a new time, moves on yes, cancels", async () => {
    const { organizationId, serviceId, resourceIds } = await bookingOrg({ staff: 1 });
    const db = await getDb();
    const clock = fixedClock("2027-03-10T12:00:00Z");
    const deps: BookingDeps = { now: clock.now, followUps: false };
    const booked = await bookSlot(db, organizationId, { serviceId, start: "2027-03-22T14:00:00Z", customerName: "Hal", customerPhone: "(415) 555-0199" }, deps);
    expect(booked.customerPhone).toBe("+14155550199");
    expect(booked.resourceId).toBe(resourceIds[0]);
    const mine = await upcomingAppointmentsForPhone(db, organizationId, "+1 415 555 0199", deps);
    expect(mine.map((a) => a.id)).toEqual([booked.id]);

    // Half an hour later, overlapping its own current time: a move may overlap the appointment it moves.
    const hold = await holdSlot(db, organizationId, { serviceId, start: "2027-03-22T14:30:00Z", customerName: "Hal", customerPhone: "+14155550199", rescheduleOf: booked.id }, deps);
    expect(hold.readBack).toBe("Haircut with Staff 1 on Monday, March 22, 2027 at 10:30 AM for Hal");
    // Until the caller says yes the appointment keeps its time, and the new time is held from others.
    expect((await upcomingAppointmentsForPhone(db, organizationId, "+14155550199", deps))[0].start).toBe("2027-03-22T14:00:00.000Z");
    await expect(bookSlot(db, organizationId, { serviceId, start: "2027-03-22T15:00:00Z", customerName: "Ivy", customerPhone: phone(9) }, deps)).rejects.toBeInstanceOf(SlotTakenError);
    const moved = await confirmHold(db, organizationId, hold.holdId, deps);
    expect(moved).toMatchObject({ booked: true, moved: true, appointment: { id: booked.id, start: "2027-03-22T14:30:00.000Z", status: "confirmed" } });
    const after = await upcomingAppointmentsForPhone(db, organizationId, "+14155550199", deps);
    expect(after.map((a) => [a.id, a.start])).toEqual([[booked.id, "2027-03-22T14:30:00.000Z"]]);
    // The old 10:00 is free again.
    const { slots } = await findSlots(db, organizationId, { serviceId, from: new Date("2027-03-22T13:00:00Z"), to: new Date("2027-03-22T14:01:00Z") }, deps);
    expect(slots.map((s) => s.start)).toContain("2027-03-22T13:30:00.000Z");

    const cancelled = await cancelAppointment(db, organizationId, booked.id, { reason: "Caller cancelled" }, deps);
    expect(cancelled.status).toBe("cancelled");
    expect(await upcomingAppointmentsForPhone(db, organizationId, "+14155550199", deps)).toEqual([]);
    expect((await cancelAppointment(db, organizationId, booked.id, {}, deps)).status).toBe("cancelled"); // idempotent
    const free = await findSlots(db, organizationId, { serviceId, from: new Date("2027-03-22T14:30:00Z"), to: new Date("2027-03-22T14:31:00Z") }, deps);
    expect(free.slots).toHaveLength(1);
  });

  it("respects minimum notice, maximum advance and buffers", async () => {
    const { organizationId, serviceId } = await bookingOrg({ bufferAfter: 30, interval: 30 });
    const db = await getDb();
    await updateBookingSettings(db, organizationId, { minNoticeMinutes: 24 * 60, maxAdvanceDays: 3 });
    const deps: BookingDeps = { now: () => new Date("2027-03-15T13:00:00Z"), followUps: false }; // Monday 9:00 EDT
    const { slots } = await findSlots(db, organizationId, { serviceId, from: new Date("2027-03-15T00:00:00Z"), to: new Date("2027-03-25T00:00:00Z") }, deps);
    expect(slots[0].start).toBe("2027-03-16T13:00:00.000Z");
    expect(toZoned(new Date(slots.at(-1)!.start), "America/New_York").date).toBe("2027-03-18");
    await bookSlot(db, organizationId, { serviceId, start: "2027-03-17T14:00:00Z", customerName: "Jo", customerPhone: phone(10) }, deps);
    const day = await findSlots(db, organizationId, { serviceId, from: new Date("2027-03-17T13:00:00Z"), to: new Date("2027-03-17T17:00:00Z") }, deps);
    // 10:00–11:00 plus 30 minutes of clean-up: 9:00 would run into it, the next start is 11:30.
    expect(day.slots.map((s) => s.localTime)).toEqual(["11:30", "12:00", "12:30"]);
  });
});
