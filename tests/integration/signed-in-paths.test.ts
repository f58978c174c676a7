import fs from "node:fs";
import path from "node:path";
import { isSignedInPath, SIGNED_IN_PATHS } from "@/components/shell/app-shell/route-access";

// The proxy sends a signed-out visitor of any of these to /auth before rendering (proxy.ts).
describe("signed-in paths", () => {
  it("name exactly the pages under app/(app)", () => {
    const root = path.join(process.cwd(), "app", "(app)");
    const folders = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `/${entry.name}`)
      .sort();
    expect([...SIGNED_IN_PATHS].sort()).toEqual(folders);
  });

  it("cover the pages' sub-paths and no public page", () => {
    expect(isSignedInPath("/dashboard")).toBe(true);
    expect(isSignedInPath("/settings/business")).toBe(true);
    expect(isSignedInPath("/mcp")).toBe(true);
    for (const open of ["/", "/auth", "/signup", "/privacy", "/terms", "/integrations", "/mobile-preview", "/dashboards", "/settingsx", "/api/dashboard/stats"]) {
      expect(isSignedInPath(open)).toBe(false);
    }
  });
});
