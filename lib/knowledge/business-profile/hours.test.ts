/**
 * Opening hours in the business's time zone: local wall-clock time through Intl (daylight saving
 * included), holidays replacing the weekday's hours, "open now" and the next opening, and the words
 * the assistant says.
 */
import type { BusinessProfile } from "@/db/schema/organizations";
import { formatClock, formatRanges, localMoment, openStatus, summarizeWeek } from "./hours";
import { businessProfileInput } from "./schema";

const weekday = [{ open: "08:00", close: "18:00" }];
const profile: BusinessProfile = {
  timezone: "America/Los_Angeles",
  weeklyHours: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [{ open: "09:00", close: "13:00" }] },
  holidays: [
    { date: "2026-11-26", name: "Thanksgiving" },
    { date: "2026-12-24", name: "Christmas Eve", hours: [{ open: "08:00", close: "12:00" }] },
  ],
};

describe("local time", () => {
  it("reads the wall clock in the time zone, across daylight saving", () => {
    // Friday before the November change: PDT (UTC−7); Monday after: PST (UTC−8).
    expect(localMoment(new Date("2026-10-30T15:30:00Z"), "America/Los_Angeles")).toEqual({ date: "2026-10-30", weekday: "fri", minutes: 8 * 60 + 30 });
    expect(localMoment(new Date("2026-11-02T16:30:00Z"), "America/Los_Angeles")).toEqual({ date: "2026-11-02", weekday: "mon", minutes: 8 * 60 + 30 });
    // The same instant is already Wednesday in Tokyo.
    expect(localMoment(new Date("2026-11-24T23:05:00Z"), "Asia/Tokyo").weekday).toBe("wed");
  });
});

describe("open now", () => {
  it("is open during the day's hours, until their end", () => {
    const status = openStatus(profile, new Date("2026-11-24T23:05:00Z")); // Tue 3:05 PM PST
    expect(status).toMatchObject({ openNow: true, closesAt: "18:00", label: "Open now until 6 PM" });
  });

  it("is closed after hours and says when it opens next", () => {
    expect(openStatus(profile, new Date("2026-11-25T04:00:00Z"))?.label).toBe("Closed now; opens tomorrow at 8 AM"); // Tue 8 PM
    expect(openStatus(profile, new Date("2026-11-24T15:00:00Z"))?.label).toBe("Closed now; opens today at 8 AM"); // Tue 7 AM
    expect(openStatus(profile, new Date("2026-11-28T22:00:00Z"))?.label).toBe("Closed now; opens Monday at 8 AM"); // Sat 2 PM
  });

  it("applies holidays: closed all day, or their own hours", () => {
    const thanksgiving = openStatus(profile, new Date("2026-11-26T18:00:00Z")); // Thu 10 AM
    expect(thanksgiving).toMatchObject({ openNow: false, nextOpen: { date: "2026-11-27", time: "08:00" } });
    expect(thanksgiving?.label).toBe("Closed now (Thanksgiving); opens tomorrow at 8 AM");
    // Wednesday evening: Thursday is the holiday, so Friday is next.
    expect(openStatus(profile, new Date("2026-11-26T03:00:00Z"))?.label).toBe("Closed now; opens Friday at 8 AM");
    expect(openStatus(profile, new Date("2026-12-24T21:00:00Z"))?.openNow).toBe(false); // 1 PM on Christmas Eve
    expect(openStatus(profile, new Date("2026-12-24T19:00:00Z"))).toMatchObject({ openNow: true, closesAt: "12:00" });
  });

  it("reads a lunch break as two ranges, and touching ranges as one stretch", () => {
    const split: BusinessProfile = { timezone: "UTC", weeklyHours: { mon: [{ open: "08:00", close: "12:00" }, { open: "13:00", close: "17:00" }] } };
    expect(openStatus(split, new Date("2026-11-23T12:30:00Z"))?.label).toBe("Closed now; opens today at 1 PM");
    const touching: BusinessProfile = { timezone: "UTC", weeklyHours: { mon: [{ open: "08:00", close: "12:00" }, { open: "12:00", close: "17:00" }] } };
    expect(openStatus(touching, new Date("2026-11-23T10:00:00Z"))?.closesAt).toBe("17:00");
  });

  it("has nothing to say without a time zone or hours", () => {
    expect(openStatus({ weeklyHours: profile.weeklyHours }, new Date())).toBeNull();
    expect(openStatus({ timezone: "UTC" }, new Date())).toBeNull();
  });
});

describe("words", () => {
  it("formats times, ranges and the week", () => {
    expect(formatClock("09:00")).toBe("9 AM");
    expect(formatClock("13:30")).toBe("1:30 PM");
    expect(formatClock("12:00")).toBe("12 PM");
    expect(formatClock("24:00")).toBe("midnight");
    expect(formatRanges([])).toBe("closed");
    expect(formatRanges([{ open: "08:00", close: "12:00" }, { open: "13:00", close: "17:00" }])).toBe("8 AM–12 PM and 1 PM–5 PM");
    expect(formatRanges([{ open: "00:00", close: "24:00" }])).toBe("open 24 hours");
    expect(summarizeWeek(profile.weeklyHours)).toBe("Monday to Friday 8 AM–6 PM; Saturday 9 AM–1 PM; Sunday closed");
    expect(summarizeWeek({ sat: weekday, sun: weekday })).toBe("Monday to Friday closed; Saturday and Sunday 8 AM–6 PM");
  });
});

describe("profile validation", () => {
  const errors = (body: unknown) => {
    const result = businessProfileInput.safeParse(body);
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
  };

  it("names each bad field", () => {
    expect(errors({ timezone: "Mars/Olympus" })).toEqual({ timezone: "Unknown time zone; choose one such as America/New_York" });
    expect(errors({ weeklyHours: { mon: [{ open: "9:00", close: "17:00" }] } })).toEqual({ "weeklyHours.mon.0.open": "Use a 24-hour time such as 09:00" });
    expect(errors({ weeklyHours: { mon: [{ open: "17:00", close: "09:00" }] } })).toEqual({ "weeklyHours.mon.0.close": "Closing time must be after opening time" });
    expect(errors({ weeklyHours: { mon: [{ open: "09:00", close: "13:00" }, { open: "12:00", close: "17:00" }] } })).toEqual({
      "weeklyHours.mon.1.open": "This range overlaps another one on the same day",
    });
    expect(errors({ weeklyHours: { monday: [] } })).toHaveProperty("weeklyHours");
    expect(errors({ holidays: [{ date: "2026-02-30" }] })).toEqual({ "holidays.0.date": "Use a date such as 2026-12-25" });
    expect(errors({ holidays: [{ date: "2026-12-25" }, { date: "2026-12-25" }] })).toEqual({ "holidays.1.date": "This date is listed twice" });
    expect(errors({ website: "not a site" })).toEqual({ website: "Enter your website's address, e.g. https://example.com" });
    expect(errors({ phone: "call me" })).toEqual({ phone: "Enter a phone number, e.g. +1 503 555 0142" });
    expect(errors({ faqs: [{ question: "", answer: "x" }] })).toEqual({ "faqs.0.question": "Write the question" });
    expect(errors({})).toEqual({ "": "Nothing to update" });
  });

  it("accepts midnight as a closing time, normalises websites and sorts ranges", () => {
    const parsed = businessProfileInput.parse({
      website: "harbordental.example",
      weeklyHours: { fri: [{ open: "18:00", close: "24:00" }, { open: "08:00", close: "12:00" }] },
    });
    expect(parsed.website).toBe("https://harbordental.example/");
    expect(parsed.weeklyHours?.fri).toEqual([{ open: "08:00", close: "12:00" }, { open: "18:00", close: "24:00" }]);
    expect(businessProfileInput.parse({ address: "" }).address).toBeNull();
  });
});
