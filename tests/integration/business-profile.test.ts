/**
 * The business profile, its services, and import from a website or a document — through the route
 * handlers on the real database of the run. The website is a local test site (tests/fakes/business-site.ts)
 * reached with ALLOW_PRIVATE_ENDPOINTS=true; without it the SSRF guard refuses it.
 */
import { eq } from "drizzle-orm";
import { GET as getProfile, PUT as putProfile } from "@/app/api/business-profile/route";
import { POST as importRoute } from "@/app/api/business-profile/import/route";
import { POST as applyRoute } from "@/app/api/business-profile/import/apply/route";
import { GET as listServicesRoute, POST as createServiceRoute } from "@/app/api/services/route";
import { DELETE as deleteServiceRoute, GET as getServiceRoute, PATCH as patchServiceRoute } from "@/app/api/services/[id]/route";
import { organizations } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { loadKnowledge } from "@/lib/knowledge/business-profile/service";
import { startBusinessSite, type FakeBusinessSite } from "../fakes/business-site";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";
import { makePdf } from "../helpers/pdf";

let a: TestAccount;
let b: TestAccount;
let site: FakeBusinessSite;
const originalAllowPrivate = env.ALLOW_PRIVATE_ENDPOINTS;
const allowPrivate = (value: boolean) => ((env as { ALLOW_PRIVATE_ENDPOINTS: boolean }).ALLOW_PRIVATE_ENDPOINTS = value);

beforeAll(async () => {
  site = await startBusinessSite();
  [a, b] = await Promise.all([registerTestUser(), registerTestUser()]);
});
afterAll(async () => {
  allowPrivate(originalAllowPrivate);
  await site.close();
  await closeDb();
});

const hours = (open: string, close: string) => [{ open, close }];
/** A date the site writes without a year is read as the next such date (from UTC today while the business has no zone yet). */
const nextOn = (monthDay: string) => {
  const today = new Date().toISOString().slice(0, 10);
  const year = Number(today.slice(0, 4));
  return `${year}-${monthDay}` >= today ? `${year}-${monthDay}` : `${year + 1}-${monthDay}`;
};

function upload(account: TestAccount | null, file: { name: string; type: string; bytes: Buffer } | null) {
  const form = new FormData();
  if (file) form.append("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  else form.append("note", "no file");
  const headers: Record<string, string> = account ? { authorization: `Bearer ${account.sessionId}` } : {};
  return importRoute(new Request("http://localhost:3000/api/business-profile/import", { method: "POST", body: form, headers }), { params: Promise.resolve({}) });
}

describe("GET/PUT /api/business-profile", () => {
  it("answers an empty profile for a new organization, and 401 without a session", async () => {
    const res = await call(getProfile, "GET", "/api/business-profile", { sessionId: a.sessionId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      timezone: null,
      address: null,
      currency: "USD",
      weeklyHours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
      holidays: [],
      policies: [],
      faqs: [],
      services: [],
      status: null,
      hoursSummary: null,
    });
    expect(typeof res.body.name).toBe("string");
    expect((await call(getProfile, "GET", "/api/business-profile")).status).toBe(401);
    expect((await call(putProfile, "PUT", "/api/business-profile", { body: { address: "x" } })).status).toBe(401);
  });

  it("names each bad field, and needs a time zone for hours", async () => {
    const bad = await call(putProfile, "PUT", "/api/business-profile", {
      sessionId: a.sessionId,
      body: { timezone: "Nowhere/Land", weeklyHours: { mon: [{ open: "18:00", close: "09:00" }] }, holidays: [{ date: "2026-13-01" }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      timezone: "Unknown time zone; choose one such as America/New_York",
      "weeklyHours.mon.0.close": "Closing time must be after opening time",
      "holidays.0.date": "Use a date such as 2026-12-25",
    });
    const noZone = await call(putProfile, "PUT", "/api/business-profile", { sessionId: a.sessionId, body: { weeklyHours: { mon: hours("09:00", "17:00") } } });
    expect(noZone.status).toBe(400);
    expect(noZone.body.errors).toEqual({ timezone: "Choose the time zone your hours are in" });
    const malformed = await call(putProfile, "PUT", "/api/business-profile", { sessionId: a.sessionId, rawBody: "{not json" });
    expect(malformed.status).toBe(400);
  });

  it("saves the profile and the name, reads hours in the time zone, clears with null, keeps what is not sent", async () => {
    const res = await call(putProfile, "PUT", "/api/business-profile", {
      sessionId: a.sessionId,
      body: {
        name: "Seaside Physio",
        timezone: "America/Los_Angeles",
        address: "88 Ocean Avenue, Portland, OR 97209",
        phone: "(503) 555-0199",
        website: "seaside.example",
        weeklyHours: { mon: hours("08:00", "19:00"), tue: hours("08:00", "19:00"), sat: [{ open: "09:00", close: "11:00" }, { open: "11:30", close: "13:00" }] },
        holidays: [{ date: "2026-12-24", name: "Christmas Eve", hours: hours("09:00", "12:00") }, { date: "2026-11-26", name: "Thanksgiving" }],
        policies: [{ title: "Cancellation", text: "24 hours' notice, please." }],
        faqs: [{ question: "Do I need a referral?", answer: "No." }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "Seaside Physio",
      website: "https://seaside.example/",
      hoursSummary: "Monday and Tuesday 8 AM–7 PM; Wednesday to Friday closed; Saturday 9 AM–11 AM and 11:30 AM–1 PM; Sunday closed",
      holidays: [
        { date: "2026-11-26", name: "Thanksgiving", hours: [] },
        { date: "2026-12-24", name: "Christmas Eve", hours: hours("09:00", "12:00") },
      ],
      status: { timezone: "America/Los_Angeles" },
    });
    expect(typeof res.body.status.openNow).toBe("boolean");
    const [org] = await (await getDb()).select().from(organizations).where(eq(organizations.id, a.organizationId));
    expect(org.name).toBe("Seaside Physio");

    const cleared = await call(putProfile, "PUT", "/api/business-profile", { sessionId: a.sessionId, body: { phone: null, address: "" } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ phone: null, address: null, website: "https://seaside.example/", faqs: [{ question: "Do I need a referral?", answer: "No." }] });
    // Another organization's profile is untouched.
    expect((await call(getProfile, "GET", "/api/business-profile", { sessionId: b.sessionId })).body.faqs).toEqual([]);
  });

  it("feeds the assistant: hours per day in the time zone and open now at the turn's clock", async () => {
    const knowledge = await loadKnowledge(await getDb(), a.organizationId, new Date("2026-11-23T17:00:00Z")); // Monday 9 AM in Portland
    expect(knowledge).toMatchObject({
      name: "Seaside Physio",
      timezone: "America/Los_Angeles",
      now: { weekday: "Monday", time: "9 AM", openNow: true, status: "We're open right now, until 7 PM." },
      policies: [{ title: "Cancellation", text: "24 hours' notice, please." }],
    });
    expect(knowledge.nextDays?.find((d) => d.date === "2026-11-26")).toMatchObject({ hours: "closed", note: "Thanksgiving" });
  });
});

describe("/api/services", () => {
  it("creates, lists, updates and deletes the organization's services; other organizations get 404", async () => {
    const created = await call(createServiceRoute, "POST", "/api/services", {
      sessionId: a.sessionId,
      body: { name: "Initial assessment", durationMinutes: 60, priceCents: 14000, description: "First visit" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Initial assessment", durationMinutes: 60, priceCents: 14000, priceText: null, bookable: true, isActive: true });
    const id = created.body.id;

    const duplicate = await call(createServiceRoute, "POST", "/api/services", { sessionId: a.sessionId, body: { name: "initial ASSESSMENT" } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors).toEqual({ name: "You already have a service with this name" });
    const invalid = await call(createServiceRoute, "POST", "/api/services", { sessionId: a.sessionId, body: { name: "", durationMinutes: 2, priceCents: -1 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual({
      name: "Service name is required",
      durationMinutes: "Duration must be at least 5 minutes",
      priceCents: "Price cannot be negative",
    });

    // A price in words replaces the amount.
    const patched = await call(patchServiceRoute, "PATCH", `/api/services/${id}`, { sessionId: a.sessionId, params: { id }, body: { priceText: "from $120" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ priceCents: null, priceText: "from $120" });
    expect((await call(listServicesRoute, "GET", "/api/services", { sessionId: a.sessionId })).body.map((s: { name: string }) => s.name)).toEqual(["Initial assessment"]);

    for (const [handler, method] of [
      [getServiceRoute, "GET"],
      [patchServiceRoute, "PATCH"],
      [deleteServiceRoute, "DELETE"],
    ] as const) {
      const res = await call(handler, method, `/api/services/${id}`, { sessionId: b.sessionId, params: { id }, body: method === "PATCH" ? { name: "Mine now" } : undefined });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("Service not found");
    }
    expect((await call(listServicesRoute, "GET", "/api/services", { sessionId: b.sessionId })).body).toEqual([]);

    const deleted = await call(deleteServiceRoute, "DELETE", `/api/services/${id}`, { sessionId: a.sessionId, params: { id } });
    expect(deleted.body).toEqual({ success: true, id });
    expect((await call(getServiceRoute, "GET", `/api/services/${id}`, { sessionId: a.sessionId, params: { id } })).status).toBe(404);
  });
});

describe("POST /api/business-profile/import (website)", () => {
  it("refuses a private address unless ALLOW_PRIVATE_ENDPOINTS is true, naming the field", async () => {
    allowPrivate(false);
    const res = await call(importRoute, "POST", "/api/business-profile/import", { sessionId: b.sessionId, body: { url: site.url } });
    expect(res.status).toBe(400);
    expect(res.body.errors.url).toMatch(/private, loopback or link-local/);
    expect(site.requests).toEqual([]);
    const notUrl = await call(importRoute, "POST", "/api/business-profile/import", { sessionId: b.sessionId, body: { url: "ftp://seaside.example" } });
    expect(notUrl.body.errors).toEqual({ url: "Only http:// and https:// URLs are allowed" });
    const empty = await call(importRoute, "POST", "/api/business-profile/import", { sessionId: b.sessionId, body: {} });
    expect(empty.body.errors).toEqual({ url: "Enter your website's address, e.g. https://example.com" });
  });

  it("reads the local test site a few pages deep on the same site and answers facts to confirm, saving nothing", async () => {
    allowPrivate(true);
    const before = await call(getProfile, "GET", "/api/business-profile", { sessionId: b.sessionId });
    const res = await call(importRoute, "POST", "/api/business-profile/import", { sessionId: b.sessionId, body: { url: `${site.url}/` } });
    expect(res.status).toBe(200);
    expect(res.body.source).toEqual({ kind: "website", url: `${site.url}/` });
    const read = res.body.pages.filter((p: { error: string | null }) => !p.error).map((p: { url: string }) => new URL(p.url).pathname);
    expect(read).toEqual(expect.arrayContaining(["/", "/services", "/hours", "/faq", "/price-list.pdf"]));
    expect(res.body.pages.length).toBeLessThanOrEqual(8);
    // Same site only: the off-site redirect is reported, the Facebook link never requested.
    expect(res.body.pages.find((p: { url: string }) => p.url.endsWith("/away")).error).toMatch(/redirects to another site \(partner\.example\)/);
    expect(site.requests).not.toContain("/deep/3");

    const facts = res.body.facts as any[];
    const byKind = (kind: string) => facts.filter((f) => f.kind === kind);
    expect(byKind("address")).toEqual([expect.objectContaining({ value: "88 Ocean Avenue, Suite 4, Portland, OR 97209", status: "new" })]);
    expect(byKind("phone")).toEqual([expect.objectContaining({ value: "(503) 555-0199", status: "new" })]);
    expect(byKind("timezone")).toEqual([expect.objectContaining({ value: "America/Los_Angeles" })]);
    expect(byKind("hours")[0].weeklyHours).toEqual({
      mon: hours("08:00", "19:00"),
      tue: hours("08:00", "19:00"),
      wed: hours("08:00", "19:00"),
      thu: hours("08:00", "19:00"),
      fri: hours("08:00", "17:00"),
      sat: hours("09:00", "13:00"),
      sun: [],
    });
    expect(byKind("holiday").map((h) => [h.date, h.name, h.hours ?? null])).toEqual([
      [nextOn("11-26"), "Thanksgiving Day", null],
      [nextOn("12-24"), "Christmas Eve", hours("09:00", "12:00")],
    ]);
    expect(byKind("service").map((s) => [s.name, s.priceCents ?? s.priceText, s.durationMinutes ?? null])).toEqual([
      ["Initial assessment", 14000, 60],
      ["Follow-up session", 9500, 45],
      ["Sports massage", "from $80", null],
      ["Dry needling", 6000, 30],
      ["Kinesio taping", 2500, null],
      ["Home visit", 18000, 60],
    ]);
    expect(byKind("faq").map((f) => f.question)).toEqual(["Do I need a referral?", "Does insurance cover physiotherapy?"]);
    expect(byKind("policy").map((p) => p.title)).toEqual(expect.arrayContaining(["Cancellation policy", "Parking"]));
    for (const fact of facts) {
      expect(fact.id).toMatch(/^f\d+$/);
      expect(fact.source).toContain(site.url);
      expect(fact.evidence.length).toBeGreaterThan(0);
    }
    // Nothing counts until confirmed.
    const after = await call(getProfile, "GET", "/api/business-profile", { sessionId: b.sessionId });
    expect(after.body).toEqual(before.body);
  });

  it("applies only the facts the owner confirms; the assistant then knows them", async () => {
    allowPrivate(true);
    const imported = await call(importRoute, "POST", "/api/business-profile/import", { sessionId: b.sessionId, body: { url: site.url } });
    const facts = imported.body.facts as any[];
    const chosen = facts.filter((f) => ["hours", "timezone", "address"].includes(f.kind) || (f.kind === "service" && f.name !== "Home visit") || f.kind === "faq" || f.kind === "holiday");
    const applied = await call(applyRoute, "POST", "/api/business-profile/import/apply", { sessionId: b.sessionId, body: { facts: chosen } });
    expect(applied.status).toBe(200);
    expect(applied.body.applied).toMatchObject({ hours: 1, timezone: 1, address: 1, service: 5, faq: 2, holiday: 2 });
    expect(applied.body.profile).toMatchObject({
      timezone: "America/Los_Angeles",
      address: "88 Ocean Avenue, Suite 4, Portland, OR 97209",
      phone: null,
      hoursSummary: "Monday to Thursday 8 AM–7 PM; Friday 8 AM–5 PM; Saturday 9 AM–1 PM; Sunday closed",
    });
    expect(applied.body.profile.services.map((s: { name: string }) => s.name)).toEqual(["Dry needling", "Follow-up session", "Initial assessment", "Kinesio taping", "Sports massage"]);

    // Importing again: the same facts now read "same"; a changed price reads "changes" with the current value.
    await call(patchServiceRoute, "PATCH", "/api", {
      sessionId: b.sessionId,
      params: { id: applied.body.profile.services.find((s: { name: string }) => s.name === "Dry needling").id },
      body: { priceCents: 5500 },
    });
    const again = await call(importRoute, "POST", "/api/business-profile/import", { sessionId: b.sessionId, body: { url: site.url } });
    const status = (kind: string, name?: string) => again.body.facts.find((f: any) => f.kind === kind && (!name || f.name === name));
    expect(status("hours").status).toBe("same");
    expect(status("address").status).toBe("same");
    expect(status("service", "Dry needling")).toMatchObject({ status: "changes", current: "Dry needling: $55, 30 min" });
    expect(status("service", "Home visit").status).toBe("new");

    // Noon in Portland on the imported Thanksgiving (a weekday the hours would have it open): closed for the holiday.
    const knowledge = await loadKnowledge(await getDb(), b.organizationId, new Date(`${nextOn("11-26")}T20:00:00Z`));
    expect(knowledge.now?.status).toMatch(/^We're closed right now; we open tomorrow at \d+ AM\.$/);
    expect(knowledge.serviceDetails?.find((s) => s.name === "Sports massage")?.price).toBe("from $80");
  });

  it("refuses malformed facts, and hours without a time zone", async () => {
    const bad = await call(applyRoute, "POST", "/api/business-profile/import/apply", {
      sessionId: a.sessionId,
      body: { facts: [{ kind: "hours", weeklyHours: { mon: [{ open: "9", close: "5" }] } }, { kind: "color", value: "blue" }] },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(["facts.0.weeklyHours.mon.0.open", "facts.1.kind"]));
    const fresh = await registerTestUser();
    const noZone = await call(applyRoute, "POST", "/api/business-profile/import/apply", {
      sessionId: fresh.sessionId,
      body: { facts: [{ kind: "hours", weeklyHours: { mon: hours("09:00", "17:00") } }] },
    });
    expect(noZone.status).toBe(400);
    expect(noZone.body.errors).toEqual({ timezone: "Choose the time zone your hours are in" });
    expect((await call(applyRoute, "POST", "/api/business-profile/import/apply", { sessionId: fresh.sessionId, body: { facts: [] } })).body.errors).toEqual({
      facts: "Choose at least one fact to add",
    });
  });

  it("bounds the crawl: pages and depth", async () => {
    allowPrivate(true);
    const { importFromWebsite } = await import("@/lib/knowledge/business-profile/import/service");
    site.requests.length = 0;
    // Pages that look like they hold facts (services, hours) are read before the others.
    const result = await importFromWebsite(await getDb(), a.organizationId, `${site.url}/deep/1`, { limits: { maxDepth: 1, maxPages: 3 } });
    expect(result.pages.map((p) => new URL(p.url).pathname)).toEqual(["/deep/1", "/services", "/hours"]);
    const shallow = await importFromWebsite(await getDb(), a.organizationId, `${site.url}/deep/1`, { limits: { maxDepth: 0 } });
    expect(shallow.pages.map((p) => new URL(p.url).pathname)).toEqual(["/deep/1"]);
    expect(site.requests).not.toContain("/deep/2");
    const unreachable = await call(importRoute, "POST", "/api/business-profile/import", { sessionId: a.sessionId, body: { url: `${site.url}/missing` } });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.errors.url).toBe(`${site.url}/missing answered 404; check the address`);
  });
});

describe("POST /api/business-profile/import (documents)", () => {
  it("reads an uploaded PDF", async () => {
    const pdf = makePdf(["Opening hours", "Mon-Fri 9am-5pm", "Saturday 10am-2pm", "Sunday closed", "Teeth whitening (90 min) $350", "Q: Do you offer payment plans?", "A: Yes, for treatments over $500."]);
    const res = await upload(a, { name: "brochure.pdf", type: "application/pdf", bytes: pdf });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.source).toEqual({ kind: "file", name: "brochure.pdf", contentType: "application/pdf", pages: 1 });
    const kinds = Object.fromEntries(body.facts.map((f: any) => [f.kind === "service" ? f.name : f.kind, f]));
    expect(kinds.hours.weeklyHours.sat).toEqual(hours("10:00", "14:00"));
    expect(kinds["Teeth whitening"]).toMatchObject({ priceCents: 35000, durationMinutes: 90, source: "brochure.pdf" });
    expect(kinds.faq).toMatchObject({ question: "Do you offer payment plans?", answer: "Yes, for treatments over $500." });
  });

  it("reads text and Markdown files, and pasted text", async () => {
    const md = Buffer.from("## Policies\n\n### Late arrivals\nIf you arrive more than 15 minutes late we may need to reschedule your visit.\n");
    const res = await upload(a, { name: "policies.md", type: "text/markdown", bytes: md });
    expect(res.status).toBe(200);
    expect((await res.json()).facts).toEqual([
      expect.objectContaining({ kind: "policy", title: "Late arrivals", text: "If you arrive more than 15 minutes late we may need to reschedule your visit." }),
    ]);
    const pasted = await call(importRoute, "POST", "/api/business-profile/import", { sessionId: a.sessionId, body: { text: "Do you validate parking? Yes, bring your ticket to the front desk." } });
    expect(pasted.body.source).toEqual({ kind: "text", name: "Pasted text" });
    expect(pasted.body.facts[0]).toMatchObject({ kind: "faq", question: "Do you validate parking?" });
  });

  it("names the file field for a missing, empty, unreadable or unsupported upload; 413 over 10 MB; 401 signed out", async () => {
    const errorOf = async (res: Response) => ({ status: res.status, body: await res.json() });
    expect(await errorOf(await upload(a, null))).toMatchObject({ status: 400, body: { errors: { file: "Choose a file to upload" } } });
    expect(await errorOf(await upload(a, { name: "empty.txt", type: "text/plain", bytes: Buffer.alloc(0) }))).toMatchObject({ status: 400, body: { errors: { file: "The file is empty" } } });
    expect(await errorOf(await upload(a, { name: "x.pdf", type: "application/pdf", bytes: Buffer.from("%PDF-1.4 garbage") }))).toMatchObject({
      status: 400,
      body: { errors: { file: "This file could not be read as a PDF" } },
    });
    expect(await errorOf(await upload(a, { name: "photo.png", type: "image/png", bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]) }))).toMatchObject({
      status: 400,
      body: { errors: { file: "Upload a PDF, a web page (.html) or a text file (.txt, .md)" } },
    });
    const big = await upload(a, { name: "big.txt", type: "text/plain", bytes: Buffer.alloc(11 * 1024 * 1024, 97) });
    expect(big.status).toBe(413);
    expect((await upload(null, { name: "a.txt", type: "text/plain", bytes: Buffer.from("hi") })).status).toBe(401);
  });
});
