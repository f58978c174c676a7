import { computeSlots, type AvailabilityInput } from "./availability";
import { describeInstant, fromZoned, offsetMinutes, toZoned } from "./time";

const NY = "America/New_York";

function input(overrides: Partial<AvailabilityInput>): AvailabilityInput {
  return {
    timeZone: NY,
    weeklyHours: {},
    holidays: [],
    resources: [{ id: null, followsBusinessHours: true, weeklyHours: null }],
    durationMinutes: 60,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    intervalMinutes: 60,
    from: new Date("2026-01-01T00:00:00Z"),
    to: new Date("2028-01-01T00:00:00Z"),
    earliest: new Date("2020-01-01T00:00:00Z"),
    latest: new Date("2030-01-01T00:00:00Z"),
    busyByResource: new Map(),
    busyForAll: [],
    ...overrides,
  };
}

const iso = (slots: { startsAt: Date }[]) => slots.map((s) => s.startsAt.toISOString());

describe("zoned time", () => {
  it("reads the offset either side of New York's changes", () => {
    expect(offsetMinutes(new Date("2026-10-31T12:00:00Z"), NY)).toBe(-240);
    expect(offsetMinutes(new Date("2026-11-02T12:00:00Z"), NY)).toBe(-300);
    expect(offsetMinutes(new Date("2027-03-15T12:00:00Z"), NY)).toBe(-240);
  });

  it("maps a local time that happens twice (fall back) to its first occurrence", () => {
    expect(fromZoned("2026-11-01", "01:30", NY).toISOString()).toBe("2026-11-01T05:30:00.000Z");
    expect(fromZoned("2026-11-01", "02:30", NY).toISOString()).toBe("2026-11-01T07:30:00.000Z");
  });

  it("moves a skipped local time (spring forward) past the gap", () => {
    expect(fromZoned("2027-03-14", "02:30", NY).toISOString()).toBe("2027-03-14T07:30:00.000Z");
    expect(toZoned(new Date("2027-03-14T07:30:00Z"), NY)).toEqual({ date: "2027-03-14", time: "03:30", weekday: "sun" });
  });

  it("round-trips local times in zones east and west, with and without daylight saving", () => {
    for (const [tz, date, time, utc] of [
      ["Asia/Tokyo", "2027-03-14", "09:00", "2027-03-14T00:00:00.000Z"],
      ["America/Los_Angeles", "2027-03-14", "09:00", "2027-03-14T16:00:00.000Z"],
      ["Europe/London", "2027-03-28", "09:00", "2027-03-28T08:00:00.000Z"],
      ["Australia/Sydney", "2027-04-04", "09:00", "2027-04-03T23:00:00.000Z"],
    ] as const) {
      const instant = fromZoned(date, time, tz);
      expect(instant.toISOString()).toBe(utc);
      expect(toZoned(instant, tz).time).toBe(time);
    }
  });

  it("describes an instant for a read-back", () => {
    expect(describeInstant(new Date("2027-03-16T18:30:00Z"), NY)).toEqual({ day: "Tuesday", date: "March 16, 2027", time: "2:30 PM", zone: "EDT" });
  });
});

describe("computeSlots across daylight-saving changes", () => {
  it("opens at 09:00 local on both sides of the November change (13:00Z, then 14:00Z)", () => {
    const slots = computeSlots(
      input({
        weeklyHours: { sat: [{ open: "09:00", close: "11:00" }], sun: [{ open: "09:00", close: "11:00" }] },
        from: new Date("2026-10-31T00:00:00Z"),
        to: new Date("2026-11-02T00:00:00Z"),
      }),
    );
    expect(iso(slots)).toEqual(["2026-10-31T13:00:00.000Z", "2026-10-31T14:00:00.000Z", "2026-11-01T14:00:00.000Z", "2026-11-01T15:00:00.000Z"]);
  });

  it("counts real hours on the night of a change: 00:00–04:00 is five hours in November, three in March", () => {
    const night = { sun: [{ open: "00:00", close: "04:00" }] };
    const fallBack = computeSlots(input({ weeklyHours: night, from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-11-02T00:00:00Z") }));
    expect(fallBack.map((s) => toZoned(s.startsAt, NY).time)).toEqual(["00:00", "01:00", "01:00", "02:00", "03:00"]);
    const springForward = computeSlots(input({ weeklyHours: night, from: new Date("2027-03-14T00:00:00Z"), to: new Date("2027-03-15T00:00:00Z") }));
    expect(springForward.map((s) => toZoned(s.startsAt, NY).time)).toEqual(["00:00", "01:00", "03:00"]);
    expect(springForward.at(-1)!.endsAt.toISOString()).toBe("2027-03-14T08:00:00.000Z");
  });

  it("shows the same local hours to the business in Tokyo and in Los Angeles", () => {
    const weeklyHours = { mon: [{ open: "09:00", close: "10:00" }] };
    const range = { from: new Date("2027-03-14T00:00:00Z"), to: new Date("2027-03-17T00:00:00Z") };
    expect(iso(computeSlots(input({ ...range, timeZone: "Asia/Tokyo", weeklyHours })))).toEqual(["2027-03-15T00:00:00.000Z"]);
    expect(iso(computeSlots(input({ ...range, timeZone: "America/Los_Angeles", weeklyHours })))).toEqual(["2027-03-15T16:00:00.000Z"]);
  });
});

describe("computeSlots rules", () => {
  const week = { from: new Date("2027-03-15T00:00:00Z"), to: new Date("2027-03-16T00:00:00Z") }; // Monday
  const hours = { mon: [{ open: "09:00", close: "12:00" }, { open: "13:00", close: "15:00" }] };

  it("keeps a lunch break and fits the duration inside each range", () => {
    const slots = computeSlots(input({ ...week, weeklyHours: hours, durationMinutes: 90, intervalMinutes: 30 }));
    expect(slots.map((s) => toZoned(s.startsAt, NY).time)).toEqual(["09:00", "09:30", "10:00", "10:30", "13:00", "13:30"]);
  });

  it("closes on a holiday and uses a holiday's special hours", () => {
    expect(computeSlots(input({ ...week, weeklyHours: hours, holidays: [{ date: "2027-03-15", name: "Closed" }] }))).toEqual([]);
    const special = computeSlots(input({ ...week, weeklyHours: hours, holidays: [{ date: "2027-03-15", hours: [{ open: "10:00", close: "11:00" }] }] }));
    expect(special.map((s) => toZoned(s.startsAt, NY).time)).toEqual(["10:00"]);
  });

  it("keeps buffers clear of busy time, and lists which resources are free", () => {
    const nine = fromZoned("2027-03-15", "09:00", NY).getTime();
    const slots = computeSlots(
      input({
        ...week,
        weeklyHours: { mon: [{ open: "09:00", close: "12:00" }] },
        resources: [
          { id: "anna", followsBusinessHours: true, weeklyHours: null },
          { id: "ben", followsBusinessHours: false, weeklyHours: { mon: [{ open: "10:00", close: "12:00" }] } },
        ],
        bufferAfterMinutes: 15,
        intervalMinutes: 30,
        // Anna is busy 10:00–10:30: a 60-minute slot with a 15-minute clean-up cannot start at 9:00.
        busyByResource: new Map([["anna", [{ start: nine + 3600_000, end: nine + 5400_000 }]]]),
      }),
    );
    expect(slots.map((s) => [toZoned(s.startsAt, NY).time, s.resourceIds])).toEqual([
      ["10:00", ["ben"]],
      ["10:30", ["anna", "ben"]],
      ["11:00", ["anna", "ben"]],
    ]);
  });

  it("respects the earliest and latest bookable instants", () => {
    const slots = computeSlots(
      input({ ...week, weeklyHours: hours, earliest: fromZoned("2027-03-15", "10:30", NY), latest: fromZoned("2027-03-15", "13:00", NY) }),
    );
    expect(slots.map((s) => toZoned(s.startsAt, NY).time)).toEqual(["11:00", "13:00"]);
  });
});
