import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { appointments, messages, phoneNumbers } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { getJobQueue } from "@/lib/platform/jobs/queue";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import type { JobDefinition } from "@/lib/platform/jobs/types";
import { recordOptOut } from "@/lib/scheduling/messaging";
import { appointmentTextJob, reminderJob, sendReminder, sweepAppointments } from "@/lib/scheduling/notifications";
import { handleAppointmentReply } from "@/lib/scheduling/replies";
import { bookSlot, rescheduleAppointment, type BookingDeps } from "@/lib/scheduling/service";
import { updateBookingSettings } from "@/lib/scheduling/settings";
import { bookingOrg, fixedClock } from "../helpers/booking";

/** Confirmations, reminders at their instant (fixed clock), opt-outs, and the C / R replies. */
afterAll(() => closeDb());

let numberCounter = 0;
async function withNumber(organizationId: string) {
  const db = await getDb();
  numberCounter += 1;
  const number = `+1555${String(Date.now()).slice(-4)}${String(numberCounter).padStart(3, "0")}`;
  await db.insert(phoneNumbers).values({ id: crypto.randomUUID(), organizationId, phoneNumber: number, friendlyName: "Front desk", provider: "simulated" });
  return number;
}

async function textsTo(organizationId: string, to: string) {
  const db = await getDb();
  return db
    .select({ body: messages.body, direction: messages.direction, from: messages.fromNumber })
    .from(messages)
    .where(and(eq(messages.organizationId, organizationId), eq(messages.toNumber, to)))
    .orderBy(messages.createdAt);
}

async function pendingFor(jobName: string, appointmentId: string) {
  const queue = await getJobQueue();
  return (await queue.pending(jobName)).filter((j) => (j.data as { appointmentId: string }).appointmentId === appointmentId);
}

describe("confirmation and reminder texts", () => {
  it("queues the reminder for exactly its instant, sends it then (not before), once per start time", async () => {
    const { organizationId, serviceId } = await bookingOrg();
    const sender = await withNumber(organizationId);
    const db = await getDb();
    await updateBookingSettings(db, organizationId, { reminderMinutesBefore: 120 });
    const clock = fixedClock("2027-03-10T12:00:00Z");
    const deps: BookingDeps = { now: clock.now };
    const customer = "+14155550301";
    const booked = await bookSlot(db, organizationId, { serviceId, start: "2027-03-16T14:00:00Z", customerName: "Kim", customerPhone: customer }, deps);

    const queued = await pendingFor("appointments.reminder", booked.id);
    expect(queued.map((j) => j.startAfter.toISOString())).toEqual(["2027-03-16T12:00:00.000Z"]);

    // The confirmation goes out at once, from the organization's number.
    await runDueJobs({ definitions: [appointmentTextJob] as JobDefinition<unknown>[], schedules: false });
    expect(await textsTo(organizationId, customer)).toEqual([
      {
        direction: "outbound",
        from: sender,
        body: "Acme Salon: you're booked for Haircut on Tuesday, March 16, 2027 at 10:00 AM EDT. Reply C to confirm or R to reschedule. Reply STOP to opt out.",
      },
    ]);

    const data = queued[0].data as { organizationId: string; appointmentId: string; startsAt: string };
    clock.set("2027-03-16T11:50:00Z");
    expect(await sendReminder(db, data, deps)).toEqual({ status: "skipped", reason: "early" });
    expect(await textsTo(organizationId, customer)).toHaveLength(1);
    clock.set("2027-03-16T12:00:00Z");
    expect((await sendReminder(db, data, deps)).status).toBe("sent");
    const texts = await textsTo(organizationId, customer);
    expect(texts.at(-1)!.body).toBe("Acme Salon reminder: Haircut on Tuesday, March 16, 2027 at 10:00 AM EDT. Reply C to confirm or R to reschedule.");
    expect(await sendReminder(db, data, deps)).toEqual({ status: "skipped", reason: "already_sent" });

    // A move: a new reminder for the new time; the old job finds its appointment changed.
    clock.set("2027-03-16T12:30:00Z");
    await rescheduleAppointment(db, organizationId, booked.id, { start: new Date("2027-03-18T15:00:00Z") }, deps);
    expect((await pendingFor("appointments.reminder", booked.id)).map((j) => j.startAfter.toISOString())).toContain("2027-03-18T13:00:00.000Z");
    expect(await sendReminder(db, data, deps)).toEqual({ status: "skipped", reason: "stale" });
  });

  it("sends no reminder for a booking made inside the reminder window, and none after the start", async () => {
    const { organizationId, serviceId } = await bookingOrg();
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date("2027-03-16T00:00:00Z") };
    const soon = await bookSlot(db, organizationId, { serviceId, start: "2027-03-16T14:00:00Z", customerName: "Lu", customerPhone: "+14155550302" }, deps);
    expect(await pendingFor("appointments.reminder", soon.id)).toEqual([]);
    const data = { organizationId, appointmentId: soon.id, startsAt: soon.start };
    expect(await sendReminder(db, data, { now: () => new Date("2027-03-16T14:00:00Z") })).toEqual({ status: "skipped", reason: "too_late" });
  });

  it("the sweep sends a due reminder that was never queued", async () => {
    const { organizationId, serviceId } = await bookingOrg();
    await withNumber(organizationId);
    const db = await getDb();
    const booked = await bookSlot(db, organizationId, { serviceId, start: "2027-03-20T14:00:00Z", customerName: "Mo", customerPhone: "+14155550303" }, { now: () => new Date("2027-03-10T12:00:00Z"), followUps: false });
    // created_at is the real clock (before 2027): due once the clock passes start − 24 h.
    // (The sweep covers every organization; on a shared database others may have reminders due, so
    // this organization's texts are what is checked.)
    await sweepAppointments(db, { now: () => new Date("2027-03-19T13:00:00Z") });
    expect(await textsTo(organizationId, "+14155550303")).toEqual([]);
    const swept = await sweepAppointments(db, { now: () => new Date("2027-03-19T14:00:00Z") });
    expect(swept.reminders).toBeGreaterThanOrEqual(1);
    expect((await textsTo(organizationId, "+14155550303")).map((t) => t.body)).toEqual([expect.stringContaining("reminder: Haircut on Saturday, March 20, 2027 at 10:00 AM EDT")]);
    const [row] = await db.select().from(appointments).where(eq(appointments.id, booked.id));
    expect(row.reminderSentFor?.toISOString()).toBe("2027-03-20T14:00:00.000Z");
  });

  it("an opted-out contact gets no confirmation, no reminder and no reply", async () => {
    const { organizationId, serviceId } = await bookingOrg();
    await withNumber(organizationId);
    const db = await getDb();
    const customer = "+14155550304";
    await recordOptOut(db, organizationId, customer);
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z") };
    const booked = await bookSlot(db, organizationId, { serviceId, start: "2027-03-16T15:00:00Z", customerName: "Ned", customerPhone: customer }, deps);
    await runDueJobs({ definitions: [appointmentTextJob, reminderJob] as JobDefinition<unknown>[], schedules: false });
    const reminder = await sendReminder(db, { organizationId, appointmentId: booked.id, startsAt: booked.start }, { now: () => new Date("2027-03-15T15:00:00Z") });
    expect(reminder).toEqual({ status: "skipped", reason: "opted_out" });
    const reply = await handleAppointmentReply(db, organizationId, customer, "C", deps);
    expect(reply).toMatchObject({ handled: true, action: "confirmed", reply: null });
    expect(await textsTo(organizationId, customer)).toEqual([]);
    // Another organization's opt-out list is its own: the same number still gets texts elsewhere.
    const other = await bookingOrg();
    await withNumber(other.organizationId);
    await bookSlot(db, other.organizationId, { serviceId: other.serviceId, start: "2027-03-16T15:00:00Z", customerName: "Ned", customerPhone: customer }, deps);
    await runDueJobs({ definitions: [appointmentTextJob] as JobDefinition<unknown>[], schedules: false });
    expect(await textsTo(other.organizationId, customer)).toHaveLength(1);
  });
});

describe("replies C and R", () => {
  it("C confirms, R offers three free times, a number moves the appointment there", async () => {
    const { organizationId, serviceId } = await bookingOrg({ interval: 60 });
    const db = await getDb();
    const clock = fixedClock("2027-03-10T12:00:00Z");
    const deps: BookingDeps = { now: clock.now, followUps: false };
    const customer = "+14155550305";
    const booked = await bookSlot(db, organizationId, { serviceId, start: "2027-03-16T14:00:00Z", customerName: "Oli", customerPhone: customer }, deps);

    expect(await handleAppointmentReply(db, organizationId, customer, "hello, can I bring my dog?", deps)).toEqual({ handled: false });
    expect(await handleAppointmentReply(db, organizationId, customer, "2", deps)).toEqual({ handled: false }); // no offer yet
    expect(await handleAppointmentReply(db, organizationId, "+14155550999", "C", deps)).toEqual({ handled: false }); // no appointment

    const confirmed = await handleAppointmentReply(db, organizationId, "(415) 555-0305", " c. ", deps);
    expect(confirmed).toEqual({ handled: true, action: "confirmed", appointmentId: booked.id, reply: "Thanks, Oli! Your Haircut on Tuesday March 16 at 10:00 AM is confirmed." });
    const [row] = await db.select().from(appointments).where(eq(appointments.id, booked.id));
    expect(row.customerConfirmedAt?.toISOString()).toBe("2027-03-10T12:00:00.000Z");

    const offered = await handleAppointmentReply(db, organizationId, customer, "R", deps);
    expect(offered).toEqual({
      handled: true,
      action: "reschedule_offered",
      appointmentId: booked.id,
      reply: "Acme Salon: reply 1, 2 or 3 to move your Haircut to 1) Tuesday March 16 at 9:00 AM, 2) Tuesday March 16 at 11:00 AM, 3) Tuesday March 16 at 12:00 PM. Or reply C to keep Tuesday March 16 at 10:00 AM.",
    });

    const moved = await handleAppointmentReply(db, organizationId, customer, "2", deps);
    expect(moved).toMatchObject({ handled: true, action: "rescheduled", reply: "Done: your Haircut is now on Tuesday March 16 at 11:00 AM. See you then!" });
    const [after] = await db.select().from(appointments).where(eq(appointments.id, booked.id));
    expect(after.startsAt.toISOString()).toBe("2027-03-16T15:00:00.000Z");
    expect(after.rescheduleOffer).toBeNull();

    // An offered time someone else took meanwhile: a fresh offer instead.
    await handleAppointmentReply(db, organizationId, customer, "R", deps);
    const [withOffer] = await db.select().from(appointments).where(eq(appointments.id, booked.id));
    await bookSlot(db, organizationId, { serviceId, start: withOffer.rescheduleOffer![0].startsAt, customerName: "Pat", customerPhone: "+14155550306" }, deps);
    const taken = await handleAppointmentReply(db, organizationId, customer, "1", deps);
    expect(taken).toMatchObject({ handled: true, action: "offer_taken", reply: expect.stringMatching(/^That time was just taken\. Acme Salon: reply 1, 2 or 3/) });

    // An offer is good for a day.
    clock.advance(25 * 3600_000);
    expect(await handleAppointmentReply(db, organizationId, customer, "1", deps)).toEqual({ handled: false });
  });
});
