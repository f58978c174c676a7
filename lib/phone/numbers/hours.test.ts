import { describeBusinessHours, isOpenAt, spokenTime } from "./hours";

const slot = (open: string, close: string) => ({ open, close });

describe("business hours in words", () => {
  it("says times the way people do", () => {
    expect(spokenTime("07:00")).toBe("7 AM");
    expect(spokenTime("15:30")).toBe("3:30 PM");
    expect(spokenTime("12:00")).toBe("12 PM");
    expect(spokenTime("00:15")).toBe("12:15 AM");
  });

  it("groups consecutive days with the same hours and leaves closed days out", () => {
    const t = slot("07:00", "15:00");
    expect(describeBusinessHours({ timezone: "UTC", days: { mon: null, tue: t, wed: t, thu: t, fri: t, sat: t, sun: t } })).toBe("Tue–Sun 7 AM–3 PM");
    const week = slot("09:00", "17:00");
    expect(
      describeBusinessHours({ timezone: "UTC", days: { mon: week, tue: week, wed: week, thu: week, fri: week, sat: slot("10:00", "14:00"), sun: null } }),
    ).toBe("Mon–Fri 9 AM–5 PM, Sat 10 AM–2 PM");
    expect(describeBusinessHours({ timezone: "UTC", days: { mon: week, wed: week } })).toBe("Mon 9 AM–5 PM, Wed 9 AM–5 PM");
    expect(describeBusinessHours({ timezone: "UTC", days: { sat: week, sun: week } })).toBe("Sat, Sun 9 AM–5 PM");
    expect(describeBusinessHours({ timezone: "UTC", days: {} })).toBeNull();
    expect(describeBusinessHours(null)).toBeNull();
  });

  it("knows whether it is open at a moment, in the hours' own time zone", () => {
    const hours = { timezone: "America/Los_Angeles", days: { mon: slot("09:00", "17:00") } };
    expect(isOpenAt(hours, new Date("2026-11-23T17:00:00Z"))).toBe(true); // Mon 09:00 in LA
    expect(isOpenAt(hours, new Date("2026-11-23T16:59:00Z"))).toBe(false); // Mon 08:59
    expect(isOpenAt(hours, new Date("2026-11-24T01:00:00Z"))).toBe(false); // Mon 17:00: closing time
    expect(isOpenAt(hours, new Date("2026-11-24T18:00:00Z"))).toBe(false); // Tuesday
    expect(isOpenAt({ timezone: "Not/AZone", days: {} }, new Date())).toBeNull();
  });
});
