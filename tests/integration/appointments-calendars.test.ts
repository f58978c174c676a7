import ICAL from "ical.js";
import { GET as feedRoute } from "@/app/api/appointments/feed/[token]/route";
import { GET as settingsRoute } from "@/app/api/appointments/settings/route";
import { POST as regenerateRoute } from "@/app/api/appointments/settings/ics-token/route";
import { POST as connectRoute } from "@/app/api/integrations/[slug]/connect/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { syncAppointmentToCalendar } from "@/lib/scheduling/calendar-sync";
import { bookSlot, cancelAppointment, findSlots, rescheduleAppointment, type BookingDeps } from "@/lib/scheduling/service";
import { buildIcs, foldLine } from "@/lib/scheduling/ics";
import { connectIntegration, requireEntry } from "@/lib/channels/integrations/service";
import { googleEventId } from "@/lib/platform/providers/calendar/google";
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "../fakes/google-calendar-server";
import { call } from "../helpers/http";
import { bookingOrg } from "../helpers/booking";

afterAll(() => closeDb());

const tokenOf = (icsUrl: string) => /\/feed\/([^/]+)\.ics$/.exec(icsUrl)![1];

describe("the private ICS feed", () => {
  it("serves valid iCalendar with the organization's bookings only, at a secret that can be regenerated", async () => {
    const org = await bookingOrg();
    const other = await bookingOrg();
    const db = await getDb();
    const deps: BookingDeps = { now: () => new Date(Date.now()), followUps: false };
    const start = new Date(Date.now() + 3 * 86_400_000);
    const { slots } = await findSlots(db, org.organizationId, { serviceId: org.serviceId, from: start, to: new Date(start.getTime() + 2 * 86_400_000) }, deps);
    const notes = "Allergic to lavender; wants the “usual”, and a long note that certainly needs folding across several lines of the feed — ünïcödé included.";
    const booked = await bookSlot(db, org.organizationId, { serviceId: org.serviceId, start: slots[0].start, customerName: "Vera, Jr.", customerPhone: "+14155550501", notes }, deps);
    const theirs = await findSlots(db, other.organizationId, { serviceId: other.serviceId, from: start, to: new Date(start.getTime() + 2 * 86_400_000) }, deps);
    await bookSlot(db, other.organizationId, { serviceId: other.serviceId, start: theirs.slots[0].start, customerName: "Not Mine", customerPhone: "+14155550502" }, deps);

    const settings = await call(settingsRoute, "GET", "/api/appointments/settings", { sessionId: org.account.sessionId });
    const token = tokenOf(settings.body.icsUrl);
    const res = await call(feedRoute, "GET", `/api/appointments/feed/${token}`, { params: { token } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    for (const line of res.text.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);

    // Mozilla's parser (Thunderbird's) reads it back.
    const calendar = new ICAL.Component(ICAL.parse(res.text));
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    const events = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(events).toHaveLength(1);
    expect(events[0].summary).toBe("Haircut — Vera, Jr.");
    expect(events[0].startDate.toJSDate().toISOString()).toBe(booked.start);
    expect(events[0].endDate.toJSDate().toISOString()).toBe(booked.end);
    expect(events[0].description).toContain(`Notes: ${notes}`);
    expect(events[0].uid).toBe(`${booked.id}@localhost`);

    // Cancelled: gone from the next read.
    await cancelAppointment(db, org.organizationId, booked.id, {}, deps);
    const afterCancel = await call(feedRoute, "GET", "/x", { params: { token: `${token}.ics` } });
    expect(new ICAL.Component(ICAL.parse(afterCancel.text)).getAllSubcomponents("vevent")).toHaveLength(0);

    // A new secret: the old URL stops working.
    const regenerated = await call(regenerateRoute, "POST", "/api/appointments/settings/ics-token", { sessionId: org.account.sessionId });
    const fresh = tokenOf(regenerated.body.icsUrl);
    expect(fresh).not.toBe(token);
    expect((await call(feedRoute, "GET", "/x", { params: { token } })).status).toBe(404);
    expect((await call(feedRoute, "GET", "/x", { params: { token: fresh } })).status).toBe(200);
    expect((await call(feedRoute, "GET", "/x", { params: { token: "not-a-real-token-at-all-000000" } })).status).toBe(404);
    expect((await call(regenerateRoute, "POST", "/x")).status).toBe(401);
  });

  it("folds long lines without splitting a character and escapes text", () => {
    const line = `DESCRIPTION:${"é".repeat(100)}`;
    const folded = foldLine(line);
    expect(folded.split("\r\n ").join("")).toBe(line);
    for (const part of folded.split("\r\n")) expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(75);
    const ics = buildIcs({ name: "A; B, C", timezone: "UTC", now: new Date("2027-01-01T00:00:00Z"), events: [] });
    expect(ics).toContain("X-WR-CALNAME:A\\; B\\, C\r\n");
  });
});

describe("Google Calendar (against a local fake of its API)", () => {
  let fake: FakeGoogleCalendar;
  const CAL = "owner@example.com";
  beforeAll(async () => {
    fake = await startFakeGoogleCalendar();
    fake.addCalendar(CAL);
    fake.tokens.add("tok-owner-123");
  });
  afterAll(() => fake.close());

  it("connects only with a credential Google accepts, and says which field is wrong", async () => {
    const org = await bookingOrg();
    const db = await getDb();
    const entry = requireEntry("google-calendar");
    const urls = { calendarUrls: { apiBaseUrl: fake.url, tokenUrl: fake.tokenUrl } };
    const missing = await call(connectRoute, "POST", "/x", { sessionId: org.account.sessionId, params: { slug: "google-calendar" }, body: { calendarId: CAL } });
    // Without a pasted credential, connecting is Connect with Google (issue 31): this server has no Google client.
    expect(missing.status).toBe(409);
    expect(missing.body.message).toContain("GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET");
    const partial = await call(connectRoute, "POST", "/x", { sessionId: org.account.sessionId, params: { slug: "google-calendar" }, body: { calendarId: CAL, refreshToken: "1//refresh-token" } });
    expect(partial.status).toBe(400);
    expect(partial.body.errors.clientId).toBe("Enter the OAuth client ID the refresh token belongs to");
    await expect(connectIntegration(db, org.organizationId, entry, { calendarId: CAL, accessToken: "wrong-token-1" }, urls)).rejects.toMatchObject({ status: 400, errors: { accessToken: "Google refused this credential" } });
    await expect(connectIntegration(db, org.organizationId, entry, { calendarId: "nobody@example.com", accessToken: "tok-owner-123" }, urls)).rejects.toMatchObject({ status: 400, errors: { calendarId: "No such calendar for this credential" } });
    const connected = await connectIntegration(db, org.organizationId, entry, { calendarId: CAL, accessToken: "tok-owner-123" }, urls);
    expect(connected).toMatchObject({ slug: "google-calendar", kind: "calendar", connected: true, config: { calendarId: CAL, resourceId: null, credentialKind: "access_token", credentialHint: "…-123" } });
    expect(JSON.stringify(connected)).not.toContain("tok-owner-123");
  });

  it("keeps the owner's busy times out of the slots, and writes bookings out as events (book, move, cancel)", async () => {
    const org = await bookingOrg({ hours: { tue: [{ open: "09:00", close: "13:00" }] } });
    const db = await getDb();
    const calendarUrls = { apiBaseUrl: fake.url, tokenUrl: fake.tokenUrl };
    await connectIntegration(db, org.organizationId, requireEntry("google-calendar"), { calendarId: CAL, accessToken: "tok-owner-123" }, { calendarUrls });
    fake.seedBusy(CAL, "2027-03-16T14:00:00Z", "2027-03-16T15:00:00Z"); // 10:00–11:00 EDT: the owner's dentist
    const deps: BookingDeps = { now: () => new Date("2027-03-10T12:00:00Z"), calendarUrls, followUps: false };
    const range = { serviceId: org.serviceId, from: new Date("2027-03-16T00:00:00Z"), to: new Date("2027-03-17T00:00:00Z") };
    const found = await findSlots(db, org.organizationId, range, deps);
    expect(found.calendar).toBe("checked");
    expect(found.slots.map((s) => s.localTime)).toEqual(["09:00", "11:00", "11:15", "11:30", "11:45", "12:00"]);

    const booked = await bookSlot(db, org.organizationId, { serviceId: org.serviceId, start: "2027-03-16T15:00:00Z", customerName: "Wes", customerPhone: "+14155550601" }, deps);
    expect(await syncAppointmentToCalendar(db, org.organizationId, booked.id, calendarUrls)).toBe("created_or_updated");
    const event = fake.calendars.get(CAL)!.get(googleEventId(booked.id))!;
    expect(event).toMatchObject({
      status: "confirmed",
      summary: "Haircut — Wes",
      start: { dateTime: "2027-03-16T15:00:00.000Z", timeZone: "America/New_York" },
      transparency: "transparent",
    });
    // A whole-business calendar gets transparent events: the busy times stay the owner's own.
    expect((await findSlots(db, org.organizationId, range, deps)).slots.map((s) => s.localTime)).toEqual(["09:00", "12:00"]);

    await rescheduleAppointment(db, org.organizationId, booked.id, { start: new Date("2027-03-16T16:00:00Z") }, deps);
    await syncAppointmentToCalendar(db, org.organizationId, booked.id, calendarUrls);
    expect(fake.calendars.get(CAL)!.get(googleEventId(booked.id))!.start.dateTime).toBe("2027-03-16T16:00:00.000Z");
    await cancelAppointment(db, org.organizationId, booked.id, {}, deps);
    expect(await syncAppointmentToCalendar(db, org.organizationId, booked.id, calendarUrls)).toBe("deleted");
    expect(fake.calendars.get(CAL)!.get(googleEventId(booked.id))!.status).toBe("cancelled");

    // Google down: slots still come from the appointment book, and the answer says the calendar was not checked.
    fake.failNext(503, 1);
    const down = await findSlots(db, org.organizationId, range, deps);
    expect(down.calendar).toBe("unavailable");
    expect(down.slots.length).toBeGreaterThan(0);
  });
});
