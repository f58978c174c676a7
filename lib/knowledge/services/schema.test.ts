/** Prices as owners type them, durations in words, and the service payloads' messages. */
import { createServiceInput, formatDuration, formatPrice, parsePriceInput, updateServiceInput } from "./schema";

describe("service schema", () => {
  it("reads a typed price as cents, or keeps the words", () => {
    expect(parsePriceInput("120")).toEqual({ priceCents: 12000, priceText: null });
    expect(parsePriceInput("$120.5")).toEqual({ priceCents: 12050, priceText: null });
    expect(parsePriceInput("$1,200")).toEqual({ priceCents: 120000, priceText: null });
    expect(parsePriceInput("€75,50")).toEqual({ priceCents: 7550, priceText: null });
    expect(parsePriceInput("from $80")).toEqual({ priceCents: null, priceText: "from $80" });
    expect(parsePriceInput("  ")).toEqual({ priceCents: null, priceText: null });
  });

  it("formats prices in the currency and durations in words", () => {
    expect(formatPrice(12000)).toBe("$120");
    expect(formatPrice(12050)).toBe("$120.50");
    expect(formatPrice(7550, "EUR")).toBe("€75.50");
    expect(formatDuration(45)).toBe("45 minutes");
    expect(formatDuration(60)).toBe("1 hour");
    expect(formatDuration(150)).toBe("2 hours 30 minutes");
  });

  it("fills defaults and names bad fields", () => {
    expect(createServiceInput.parse({ name: " Cleaning " })).toEqual({
      name: "Cleaning",
      description: "",
      durationMinutes: 30,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      priceCents: null,
      priceText: null,
      bookable: true,
      isActive: true,
      resourceIds: [],
    });
    const bad = createServiceInput.safeParse({ name: "x", durationMinutes: 12.5, bufferAfterMinutes: 500 });
    expect(bad.success ? [] : bad.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([
      "durationMinutes: Duration must be a whole number of minutes",
      "bufferAfterMinutes: Buffer after must be at most 240 minutes",
    ]);
    expect(updateServiceInput.safeParse({}).success).toBe(false);
  });
});
