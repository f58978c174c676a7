import { dateInWords, inZone } from "./time-words";

describe("recap times in the business's zone, in words (issue 30)", () => {
  it("reads 20:00 UTC on Dec 1 as 2:00 PM in Chicago", () => {
    expect(inZone(new Date("2026-12-01T20:00:00Z"), "America/Chicago")).toBe("Tue Dec 1, 2:00 PM");
  });
  it("moves to the local day across midnight and keeps minutes", () => {
    expect(inZone(new Date("2026-12-02T03:30:00Z"), "America/Los_Angeles")).toBe("Tue Dec 1, 7:30 PM");
    expect(inZone(new Date("2026-07-04T09:05:00Z"), "Europe/Berlin")).toBe("Sat Jul 4, 11:05 AM");
  });
  it("says UTC when the zone is unknown", () => {
    expect(inZone(new Date("2026-12-01T20:00:00Z"), "Mars/Olympus")).toBe("Tue Dec 1, 8:00 PM UTC");
  });
  it("a recap's local date in words", () => {
    expect(dateInWords("2026-12-01")).toBe("Tue Dec 1");
    expect(dateInWords("not-a-date")).toBe("not-a-date");
  });
});
