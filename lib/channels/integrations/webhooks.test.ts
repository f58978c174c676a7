import crypto from "node:crypto";
import { catalogue, integrationCategories } from "./catalogue";
import { generateSigningSecret, MAX_ATTEMPTS, missedCallText, RETRY_BACKOFF_MS, signatureHeader, verifySignature } from "./webhooks";

describe("webhook signatures", () => {
  const secret = generateSigningSecret();
  const body = JSON.stringify({ id: "d1", event: "call.completed", createdAt: "2026-11-22T10:00:00.000Z", data: { a: 1 } });

  it("signs t.<body> with HMAC-SHA256 in hex", () => {
    const header = signatureHeader(secret, body, 1_790_000_000);
    const expected = crypto.createHmac("sha256", secret).update(`1790000000.${body}`).digest("hex");
    expect(header).toBe(`t=1790000000,v1=${expected}`);
  });

  it("verifies its own signature and rejects tampering, other secrets and stale timestamps", () => {
    const now = Date.now();
    const header = signatureHeader(secret, body, Math.floor(now / 1000));
    expect(verifySignature(secret, header, body, 300, now)).toBe(true);
    expect(verifySignature(secret, header, `${body} `, 300, now)).toBe(false);
    expect(verifySignature(generateSigningSecret(), header, body, 300, now)).toBe(false);
    expect(verifySignature(secret, header, body, 300, now + 301_000)).toBe(false);
    expect(verifySignature(secret, "garbage", body, 300, now)).toBe(false);
  });

  it("issues distinct secrets", () => {
    expect(generateSigningSecret()).not.toBe(generateSigningSecret());
    expect(generateSigningSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });
});

describe("retry schedule", () => {
  it("backs off 30 s, 2 min, 10 min, 1 h, 6 h and gives up after 6 attempts", () => {
    expect(RETRY_BACKOFF_MS).toEqual([30_000, 120_000, 600_000, 3_600_000, 21_600_000]);
    expect(MAX_ATTEMPTS).toBe(RETRY_BACKOFF_MS.length + 1);
  });
});

describe("catalogue", () => {
  it("has the spec's entries, with Asana as Project Management and a generic Webhooks entry", () => {
    const byName = Object.fromEntries(catalogue.map((e) => [e.name, e]));
    expect(byName.Slack).toMatchObject({ category: "Communication", featured: true });
    expect(byName.Notion).toMatchObject({ category: "Productivity", featured: true });
    expect(byName.HubSpot).toMatchObject({ category: "CRM", featured: true });
    expect(byName["Google Calendar"]).toMatchObject({ category: "Scheduling", featured: false });
    expect(byName.Zapier).toMatchObject({ category: "Automation", featured: true, kind: "webhook" });
    expect(byName.Airtable).toMatchObject({ category: "Database" });
    expect(byName.Gmail).toMatchObject({ category: "Email" });
    expect(byName.Asana).toMatchObject({ category: "Project Management" });
    expect(byName.Webhooks).toMatchObject({ category: "Automation", kind: "webhook" });
    for (const e of catalogue) expect(integrationCategories).toContain(e.category);
    expect(new Set(catalogue.map((e) => e.slug)).size).toBe(catalogue.length);
  });
});

describe("missedCallText", () => {
  it("names the caller, the numbers and the time", () => {
    expect(
      missedCallText({ id: "c", fromNumber: "+15035550123", toNumber: "+15035550142", callerName: "Dana", startedAt: new Date("2026-11-22T10:04:00Z") }),
    ).toBe(":telephone_receiver: Missed call from Dana (+15035550123) to +15035550142 at 2026-11-22 10:04 UTC.");
  });
});
