import { safeReturnPath, withReturnTo } from "./return-to";

describe("safeReturnPath", () => {
  it("keeps same-site paths with their query and hash", () => {
    expect(safeReturnPath("/call-history")).toBe("/call-history");
    expect(safeReturnPath("/billing?tab=packs#top")).toBe("/billing?tab=packs#top");
    expect(safeReturnPath("/settings/business")).toBe("/settings/business");
  });

  it.each([
    "//evil.example/x",
    "/\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "evil.example",
    "/\tevil",
    "/api/logout",
    "/auth",
    "/auth?tab=signup",
    "",
    "/" + "a".repeat(2100),
  ])("refuses %j", (value) => {
    expect(safeReturnPath(value)).toBeNull();
  });

  it("refuses non-strings", () => {
    expect(safeReturnPath(undefined)).toBeNull();
    expect(safeReturnPath(["/a"])).toBeNull();
  });

  it("normalises dot segments without leaving the site", () => {
    expect(safeReturnPath("/a/../../call-history")).toBe("/call-history");
  });
});

describe("withReturnTo", () => {
  it("adds the encoded path", () => {
    expect(withReturnTo("/api/login", "/call-history?x=1")).toBe("/api/login?next=%2Fcall-history%3Fx%3D1");
    expect(withReturnTo("/auth?tab=signin", "/billing")).toBe("/auth?tab=signin&next=%2Fbilling");
  });
  it("leaves the target alone for unsafe or default paths", () => {
    expect(withReturnTo("/api/login", "//evil")).toBe("/api/login");
    expect(withReturnTo("/api/login", "/dashboard")).toBe("/api/login");
    expect(withReturnTo("/api/login", null)).toBe("/api/login");
  });
});
