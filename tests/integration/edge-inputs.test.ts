/**
 * Issue 26 §10: the inputs that still answered 500 — invalid `from`/`to` on the appointment
 * queries are 400 naming the field; a NUL in a signed SpeechResult does not end the call.
 */
import { GET as availabilityRoute } from "@/app/api/appointments/availability/route";
import { GET as listRoute } from "@/app/api/appointments/route";
import { closeDb } from "@/lib/platform/database";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";
import { business, say, startCall } from "../helpers/phone";

jest.setTimeout(120_000);
afterAll(() => closeDb());

const INVALID = ["2027-03-16T14:30:00+99:99", "2027-03-16T14:30:00 junk", "2027-13-01T00:00Z", "-2027-01-01T00:00Z", "1969-12-31T23:59:60Z", "2027-03-16T24:00:00Z", "2027-00-10T10:00Z"];

it.each(INVALID)("answers 400 naming the field for from/to %j on the appointment queries", async (value) => {
  const account = await registerTestUser();
  const good = "2027-04-01T00:00:00Z";
  const q = (from: string, to: string) => `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
  const badFrom = await call(listRoute, "GET", `/api/appointments?${q(value, good)}`, { sessionId: account.sessionId });
  expect(badFrom.status).toBe(400);
  expect(badFrom.body.errors.from).toBe("from must be an ISO date-time such as 2027-03-16T14:30:00Z");
  const badTo = await call(listRoute, "GET", `/api/appointments?${q("2027-03-01T00:00:00Z", value)}`, { sessionId: account.sessionId });
  expect(badTo.status).toBe(400);
  expect(badTo.body.errors.to).toBe("to must be an ISO date-time such as 2027-03-16T14:30:00Z");
  const slots = await call(availabilityRoute, "GET", `/api/appointments/availability?serviceId=x&${q(value, good)}`, { sessionId: account.sessionId });
  expect(slots.status).toBe(400);
  expect(slots.body.errors.from).toBeDefined();
});

it("keeps the call going when a signed SpeechResult holds a NUL character", async () => {
  const biz = await business("Nul Dental");
  const { callSid, res } = await startCall(biz);
  const turn = await say(biz, callSid, res.verbs[0].attrs.action, "What are your opening\u0000 hours?");
  expect(turn.status).toBe(200);
  expect(turn.text).not.toMatch(/Goodbye|went wrong/i);
  expect(turn.verbs.length).toBeGreaterThan(0);
});
