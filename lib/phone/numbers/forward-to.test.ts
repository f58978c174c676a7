import { formatForDisplay, forwardToNumber, toE164 } from "./forward-to";

describe("toE164", () => {
  it.each([
    ["512-555-1234", "+15125551234"],
    ["(512) 555 1234", "+15125551234"],
    ["512.555.1234", "+15125551234"],
    ["1 512 555 1234", "+15125551234"],
    ["+1 (512) 555-1234", "+15125551234"],
    ["+15125551234", "+15125551234"],
    ["+44 20 7946 0958", "+442079460958"],
  ])("reads %j as %s", (input, expected) => {
    expect(toE164(input)).toBe(expected);
  });

  it.each(["", "555-1234", "12345", "call me", "+1 000 000 0000", "512-555-12345678"])("refuses %j", (input) => {
    expect(toE164(input)).toBeNull();
  });
});

describe("formatForDisplay", () => {
  it("shows US numbers the national way and others internationally", () => {
    expect(formatForDisplay("+15125551234")).toBe("(512) 555-1234");
    expect(formatForDisplay("+442079460958")).toBe("+44 20 7946 0958");
  });
});

describe("forwardToNumber", () => {
  it("yields E.164 or a message a person understands", () => {
    expect(forwardToNumber.parse(" (512) 555 1234 ")).toBe("+15125551234");
    const bad = forwardToNumber.safeParse("555");
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].message).toMatch(/area code/);
  });
});
