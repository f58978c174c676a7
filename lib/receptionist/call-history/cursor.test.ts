import { decodeCursor, encodeCursor } from "@/lib/platform/http/pagination";
import { historyQuery } from "./schema";
import { microsToIso } from "./service";

describe("history cursor", () => {
  it("round-trips and stays opaque base64url", () => {
    const cursor = { t: "1790000000123456", id: "5b1c6a0e-0d43-4d1a-9a57-1f0f3c1d2e3f" };
    const encoded = encodeCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(encoded)).toEqual(cursor);
  });

  it.each([
    "",
    "%%%",
    Buffer.from("not json").toString("base64url"),
    Buffer.from(JSON.stringify({ t: "12.5", id: "x" })).toString("base64url"),
    Buffer.from(JSON.stringify({ t: "1", id: "" })).toString("base64url"),
    Buffer.from(JSON.stringify({ t: 1, id: "x" })).toString("base64url"),
    Buffer.from(JSON.stringify(["1", "x"])).toString("base64url"),
  ])("rejects %p", (value) => {
    expect(decodeCursor(value)).toBeNull();
  });

  it("turns microseconds into an exact ISO timestamp", () => {
    expect(microsToIso("1790000000123456")).toBe("2026-09-21T14:13:20.123456Z");
    expect(microsToIso("0")).toBe("1970-01-01T00:00:00.000000Z");
    expect(microsToIso("-1")).toBe("1969-12-31T23:59:59.999999Z");
  });
});

describe("historyQuery", () => {
  it("defaults and treats empty values as absent", () => {
    const parsed = historyQuery.parse({ cursor: "", limit: "", type: "", spam: "" });
    expect(parsed).toMatchObject({ limit: 25, type: "all" });
    expect(parsed.cursor).toBeUndefined();
    expect(parsed.spam).toBeUndefined();
  });

  it("parses filters", () => {
    const parsed = historyQuery.parse({ limit: "10", type: "voicemail", spam: "false", from: "2026-11-01T00:00:00Z", direction: "inbound" });
    expect(parsed).toMatchObject({ limit: 10, type: "voicemail", spam: false, direction: "inbound" });
    expect(parsed.from).toEqual(new Date("2026-11-01T00:00:00Z"));
  });

  it("names the field of a bad value", () => {
    const result = historyQuery.safeParse({ cursor: "garbage!", to: "2026-01-01T00:00:00Z", from: "2026-02-01T00:00:00Z" });
    expect(result.success).toBe(false);
    const fields = result.error!.issues.map((i) => i.path.join("."));
    expect(fields).toContain("cursor");
  });
});
