import { understand } from "./index";

test("understand reads a callback request offline", async () => {
  const result = await understand("give me a call back", { now: new Date("2026-11-26T18:00:00Z"), timeZone: "America/Chicago" });
  expect(result.intent).toBe("callback");
  expect(result.language).toBe("en");
});
