import { startFakeGoogleCalendar, type FakeGoogleCalendar } from "@/tests/fakes/google-calendar-server";
import { createGoogleCalendar, googleEventId } from "./google";
import { CalendarError } from "./interface";

let fake: FakeGoogleCalendar;
const CAL = "owner@example.com";

beforeAll(async () => {
  fake = await startFakeGoogleCalendar();
  fake.addCalendar(CAL);
  fake.tokens.add("access-1");
  fake.refreshTokens.set("refresh-1", { clientId: "client-1", clientSecret: "secret-1" });
});
afterAll(() => fake.close());

const withToken = () => createGoogleCalendar({ credential: { accessToken: "access-1" }, apiBaseUrl: fake.url, tokenUrl: fake.tokenUrl });

describe("Google Calendar adapter against the fake", () => {
  it("reads busy times with freeBusy.query, sending the window and the calendar", async () => {
    fake.seedBusy(CAL, "2027-03-16T14:00:00Z", "2027-03-16T15:00:00Z");
    const busy = await withToken().freeBusy(CAL, new Date("2027-03-16T00:00:00Z"), new Date("2027-03-17T00:00:00Z"));
    expect(busy).toEqual([{ start: new Date("2027-03-16T14:00:00Z"), end: new Date("2027-03-16T15:00:00Z") }]);
    const sent = fake.requests.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/calendar/v3/freeBusy");
    expect(sent.headers.authorization).toBe("Bearer access-1");
    expect(sent.body).toEqual({ timeMin: "2027-03-16T00:00:00.000Z", timeMax: "2027-03-17T00:00:00.000Z", items: [{ id: CAL }] });
  });

  it("inserts an event with our id, then updates it in place when the id exists", async () => {
    const cal = withToken();
    const id = googleEventId("0b9f6c1e-6a4e-4d0e-9a57-3f1c2b7d8e90");
    expect(id).toMatch(/^[a-v0-9]{5,}$/);
    const base = { id, summary: "Haircut — Jane", description: "d", timeZone: "America/New_York", transparent: false };
    await cal.upsertEvent(CAL, { ...base, start: new Date("2027-03-17T14:00:00Z"), end: new Date("2027-03-17T15:00:00Z") });
    expect(fake.calendars.get(CAL)!.get(id)!.start).toEqual({ dateTime: "2027-03-17T14:00:00.000Z", timeZone: "America/New_York" });
    // A move: the insert answers 409 duplicate, the adapter patches.
    await cal.upsertEvent(CAL, { ...base, start: new Date("2027-03-17T16:00:00Z"), end: new Date("2027-03-17T17:00:00Z") });
    const methods = fake.requests.slice(-2).map((r) => `${r.method} ${r.path}`);
    expect(methods).toEqual([`POST /calendar/v3/calendars/${encodeURIComponent(CAL)}/events`, `PATCH /calendar/v3/calendars/${encodeURIComponent(CAL)}/events/${id}`]);
    expect(fake.calendars.get(CAL)!.get(id)!.start.dateTime).toBe("2027-03-17T16:00:00.000Z");
    // Opaque events are busy in freeBusy; transparent ones are not.
    const busy = await cal.freeBusy(CAL, new Date("2027-03-17T00:00:00Z"), new Date("2027-03-18T00:00:00Z"));
    expect(busy).toEqual([{ start: new Date("2027-03-17T16:00:00Z"), end: new Date("2027-03-17T17:00:00Z") }]);
    await cal.upsertEvent(CAL, { ...base, transparent: true, start: new Date("2027-03-17T16:00:00Z"), end: new Date("2027-03-17T17:00:00Z") });
    expect(await cal.freeBusy(CAL, new Date("2027-03-17T00:00:00Z"), new Date("2027-03-18T00:00:00Z"))).toEqual([]);
  });

  it("deletes an event, and deleting it again (410) or an unknown one (404) is not an error", async () => {
    const cal = withToken();
    const id = googleEventId("11111111-2222-4333-8444-555555555555");
    await cal.upsertEvent(CAL, { id, summary: "x", description: "", timeZone: "UTC", transparent: false, start: new Date("2027-03-18T14:00:00Z"), end: new Date("2027-03-18T15:00:00Z") });
    await cal.deleteEvent(CAL, id);
    expect(fake.calendars.get(CAL)!.get(id)!.status).toBe("cancelled");
    await expect(cal.deleteEvent(CAL, id)).resolves.toBeUndefined();
    await expect(cal.deleteEvent(CAL, "unknownevent1")).resolves.toBeUndefined();
  });

  it("exchanges a refresh token for an access token, and refreshes once after a 401", async () => {
    const cal = createGoogleCalendar({ credential: { refreshToken: "refresh-1", clientId: "client-1", clientSecret: "secret-1" }, apiBaseUrl: fake.url, tokenUrl: fake.tokenUrl });
    await cal.freeBusy(CAL, new Date("2027-03-16T00:00:00Z"), new Date("2027-03-17T00:00:00Z"));
    const tokenCall = fake.requests.at(-2)!;
    expect(tokenCall.path).toBe("/token");
    expect(tokenCall.body).toEqual({ grant_type: "refresh_token", refresh_token: "refresh-1", client_id: "client-1", client_secret: "secret-1" });
    const before = fake.requests.filter((r) => r.path === "/token").length;
    fake.failNext(401);
    await cal.freeBusy(CAL, new Date("2027-03-16T00:00:00Z"), new Date("2027-03-17T00:00:00Z"));
    expect(fake.requests.filter((r) => r.path === "/token").length).toBe(before + 1);
  });

  it("names what went wrong: a refused token, an unknown calendar, an outage", async () => {
    const bad = createGoogleCalendar({ credential: { accessToken: "wrong" }, apiBaseUrl: fake.url });
    await expect(bad.freeBusy(CAL, new Date(), new Date(Date.now() + 3600_000))).rejects.toMatchObject({ kind: "auth", status: 401 });
    await expect(withToken().freeBusy("nobody@example.com", new Date(), new Date(Date.now() + 3600_000))).rejects.toMatchObject({ kind: "not_found" });
    const badRefresh = createGoogleCalendar({ credential: { refreshToken: "nope", clientId: "c", clientSecret: "s" }, apiBaseUrl: fake.url, tokenUrl: fake.tokenUrl });
    await expect(badRefresh.freeBusy(CAL, new Date(), new Date(Date.now() + 3600_000))).rejects.toThrow(/invalid_grant|Bad Request/);
    fake.failNext(503);
    await expect(withToken().freeBusy(CAL, new Date(), new Date(Date.now() + 3600_000))).rejects.toBeInstanceOf(CalendarError);
    const down = createGoogleCalendar({ credential: { accessToken: "access-1" }, apiBaseUrl: "http://127.0.0.1:1" });
    await expect(down.freeBusy(CAL, new Date(), new Date(Date.now() + 3600_000))).rejects.toMatchObject({ kind: "unavailable" });
  });
});
