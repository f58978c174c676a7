import { GET as listRoute, POST as createRoute } from "@/app/api/appointments/route";
import { DELETE as cancelRoute, GET as getRoute, PATCH as patchRoute } from "@/app/api/appointments/[id]/route";
import { GET as availabilityRoute } from "@/app/api/appointments/availability/route";
import { GET as settingsRoute, PATCH as patchSettingsRoute } from "@/app/api/appointments/settings/route";
import { POST as blockRoute } from "@/app/api/appointments/blocked-times/route";
import { closeDb } from "@/lib/platform/database";
import { addDays, fromZoned, toZoned } from "@/lib/scheduling/time";
import { call } from "../helpers/http";
import { bookingOrg } from "../helpers/booking";

/** The appointment routes on the real clock: the day looked at is a week from today, New York time. */
afterAll(() => closeDb());

const NY = "America/New_York";
const day = addDays(toZoned(new Date(), NY).date, 7);
const at = (time: string) => fromZoned(day, time, NY).toISOString();
const dayRange = `from=${encodeURIComponent(at("00:00"))}&to=${encodeURIComponent(fromZoned(addDays(day, 1), "00:00", NY).toISOString())}`;

let org: Awaited<ReturnType<typeof bookingOrg>>;
let other: Awaited<ReturnType<typeof bookingOrg>>;
beforeAll(async () => {
  org = await bookingOrg({ interval: 30 });
  other = await bookingOrg();
});

describe("appointment routes", () => {
  it("lists free slots, books one (201), then answers 409 with alternatives for the same time", async () => {
    const slots = await call(availabilityRoute, "GET", `/api/appointments/availability?serviceId=${org.serviceId}&${dayRange}`, { sessionId: org.account.sessionId });
    expect(slots.status).toBe(200);
    expect(slots.body.timezone).toBe(NY);
    expect(slots.body.slots[0]).toMatchObject({ start: at("09:00"), end: at("10:00"), localDate: day, localTime: "09:00" });
    expect(slots.body.slots.at(-1).localTime).toBe("16:00");

    const body = { serviceId: org.serviceId, start: at("10:00"), customerName: "Quinn", customerPhone: "415-555-0401" };
    const created = await call(createRoute, "POST", "/api/appointments", { sessionId: org.account.sessionId, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "confirmed", start: at("10:00"), end: at("11:00"), customerName: "Quinn", customerPhone: "+14155550401", source: "manual", serviceName: "Haircut" });

    const again = await call(createRoute, "POST", "/api/appointments", { sessionId: org.account.sessionId, body: { ...body, customerName: "Rae" } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("That time is no longer free. Please choose another time.");
    expect(again.body.alternatives.map((s: any) => s.localTime)).toEqual(["09:00", "11:00", "11:30"]);
    // Overlapping, not equal: 10:30 is taken too.
    expect((await call(createRoute, "POST", "/api/appointments", { sessionId: org.account.sessionId, body: { ...body, start: at("10:30") } })).status).toBe(409);

    const after = await call(availabilityRoute, "GET", `/api/appointments/availability?serviceId=${org.serviceId}&${dayRange}`, { sessionId: org.account.sessionId });
    expect(after.body.slots.map((s: any) => s.localTime)).not.toEqual(expect.arrayContaining(["09:30", "10:00", "10:30"]));

    const list = await call(listRoute, "GET", `/api/appointments?${dayRange}`, { sessionId: org.account.sessionId });
    expect(list.body.map((a: any) => [a.customerName, a.localTime])).toEqual([["Quinn", "10:00"]]);
  });

  it("moves (PATCH) and cancels (DELETE); a move to a taken time is 409 and changes nothing", async () => {
    const s = org.account.sessionId;
    const a = await call(createRoute, "POST", "/api/appointments", { sessionId: s, body: { serviceId: org.serviceId, start: at("13:00"), customerName: "Sam", customerPhone: "+14155550402" } });
    const b = await call(createRoute, "POST", "/api/appointments", { sessionId: s, body: { serviceId: org.serviceId, start: at("15:00"), customerName: "Tia", customerPhone: "+14155550403" } });
    const moved = await call(patchRoute, "PATCH", `/api/appointments/${a.body.id}`, { sessionId: s, params: { id: a.body.id }, body: { start: at("13:30"), notes: "Prefers Anna" } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: a.body.id, localTime: "13:30", notes: "Prefers Anna" });
    const clash = await call(patchRoute, "PATCH", `/api/appointments/${a.body.id}`, { sessionId: s, params: { id: a.body.id }, body: { start: at("14:30") } });
    expect(clash.status).toBe(409);
    expect(clash.body.alternatives.length).toBeGreaterThan(0);
    expect((await call(getRoute, "GET", "/x", { sessionId: s, params: { id: a.body.id } })).body.localTime).toBe("13:30");

    const cancelled = await call(cancelRoute, "DELETE", `/api/appointments/${b.body.id}`, { sessionId: s, params: { id: b.body.id } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    const nowFree = await call(patchRoute, "PATCH", `/api/appointments/${a.body.id}`, { sessionId: s, params: { id: a.body.id }, body: { start: at("14:30") } });
    expect(nowFree.body.localTime).toBe("14:30");
    const withCancelled = await call(listRoute, "GET", `/api/appointments?${dayRange}&includeCancelled=true`, { sessionId: s });
    expect(withCancelled.body.find((x: any) => x.id === b.body.id).status).toBe("cancelled");
    expect((await call(listRoute, "GET", `/api/appointments?${dayRange}`, { sessionId: s })).body.some((x: any) => x.id === b.body.id)).toBe(false);
    expect((await call(patchRoute, "PATCH", "/x", { sessionId: s, params: { id: b.body.id }, body: { start: at("16:00") } })).status).toBe(409);
  });

  it("keeps blocked time out of the slots", async () => {
    const s = org.account.sessionId;
    const block = await call(blockRoute, "POST", "/api/appointments/blocked-times", { sessionId: s, body: { start: at("16:00"), end: at("17:00"), reason: "Staff meeting" } });
    expect(block.status).toBe(201);
    const slots = await call(availabilityRoute, "GET", `/api/appointments/availability?serviceId=${org.serviceId}&${dayRange}`, { sessionId: s });
    expect(slots.body.slots.map((x: any) => x.localTime)).not.toContain("16:00");
    expect(slots.body.slots.map((x: any) => x.localTime)).not.toContain("15:30");
  });

  it("answers 400 naming the field, 401 without a session, 404 for another organization", async () => {
    const s = org.account.sessionId;
    const bad = await call(createRoute, "POST", "/api/appointments", { sessionId: s, body: { serviceId: org.serviceId, start: "tomorrow", customerName: "", customerPhone: "12" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      start: "start must be an ISO date-time such as 2027-03-16T14:30:00Z",
      customerName: "Enter the customer's name",
      customerPhone: "Enter a phone number such as +14155550123 or (415) 555-0123",
    });
    const noService = await call(availabilityRoute, "GET", `/api/appointments/availability?${dayRange}`, { sessionId: s });
    expect(noService.body.errors.serviceId).toBe("serviceId is required");
    const backwards = await call(availabilityRoute, "GET", `/api/appointments/availability?serviceId=x&from=${encodeURIComponent(at("10:00"))}&to=${encodeURIComponent(at("09:00"))}`, { sessionId: s });
    expect(backwards.body.errors.to).toBe("to must be after from");

    expect((await call(listRoute, "GET", `/api/appointments?${dayRange}`)).status).toBe(401);
    expect((await call(createRoute, "POST", "/api/appointments", { body: {} })).status).toBe(401);

    // Another organization's service and appointment do not exist for this caller.
    const theirs = await call(availabilityRoute, "GET", `/api/appointments/availability?serviceId=${other.serviceId}&${dayRange}`, { sessionId: s });
    expect(theirs.status).toBe(404);
    const bookTheirs = await call(createRoute, "POST", "/api/appointments", { sessionId: s, body: { serviceId: other.serviceId, start: at("09:00"), customerName: "X", customerPhone: "+14155550404" } });
    expect(bookTheirs.status).toBe(404);
    const mine = await call(createRoute, "POST", "/api/appointments", { sessionId: other.account.sessionId, body: { serviceId: other.serviceId, start: at("09:00"), customerName: "Uma", customerPhone: "+14155550405" } });
    for (const [handler, method] of [
      [getRoute, "GET"],
      [patchRoute, "PATCH"],
      [cancelRoute, "DELETE"],
    ] as const) {
      const r = await call(handler, method, "/x", { sessionId: s, params: { id: mine.body.id }, body: method === "PATCH" ? { start: at("12:00") } : undefined });
      expect(r.status).toBe(404);
    }
    expect((await call(getRoute, "GET", "/x", { sessionId: other.account.sessionId, params: { id: mine.body.id } })).body).toMatchObject({ status: "confirmed", localTime: "09:00" });
    expect((await call(listRoute, "GET", `/api/appointments?${dayRange}`, { sessionId: s })).body.some((x: any) => x.id === mine.body.id)).toBe(false);
  });

  it("reads and changes the booking settings", async () => {
    const s = org.account.sessionId;
    const got = await call(settingsRoute, "GET", "/api/appointments/settings", { sessionId: s });
    expect(got.body).toMatchObject({ slotIntervalMinutes: 30, holdMinutes: 5, reminderMinutesBefore: 1440, timezone: NY, timezoneSet: true });
    expect(got.body.icsUrl).toMatch(/^http:\/\/localhost:3000\/api\/appointments\/feed\/[A-Za-z0-9_-]{32}\.ics$/);
    const patched = await call(patchSettingsRoute, "PATCH", "/api/appointments/settings", { sessionId: s, body: { reminderMinutesBefore: 120, confirmationSms: false } });
    expect(patched.body).toMatchObject({ reminderMinutesBefore: 120, confirmationSms: false });
    const bad = await call(patchSettingsRoute, "PATCH", "/api/appointments/settings", { sessionId: s, body: { reminderMinutesBefore: 5 } });
    expect(bad.body.errors.reminderMinutesBefore).toBe("Remind at least 15 minutes before");
  });
});
