/**
 * A brand-new organization can use the product at once (issue 10 §1): sign-up creates a starter
 * assistant from the organization's name, the voice test and the mobile chat answer straight away,
 * and the local responder answers from what the owner then writes — tested with a fresh sign-up,
 * not the seeded demo.
 */
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { GET as getAudio } from "@/app/api/audio/[id]/route";
import { POST as register } from "@/app/api/auth/register/route";
import { POST as signup } from "@/app/api/auth/signup/route";
import { POST as createUserRoute } from "@/app/api/admin/users/route";
import { PATCH as patchNumber } from "@/app/api/phone-numbers/[id]/route";
import { POST as createNumber } from "@/app/api/phone-numbers/route";
import { PUT as updateAssistant } from "@/app/api/voice-assistants/[id]/route";
import { GET as listAssistants } from "@/app/api/voice-assistants/route";
import { POST as voiceTest } from "@/app/api/voice/test/route";
import { organizations, users, voiceAssistants } from "@/db/schema";
import { STARTER_ASSISTANT_NAME } from "@/lib/agents/assistants/starter";
import { closeDb, getDb } from "@/lib/platform/database";
import { assistantContext } from "@/lib/phone/voice/context";
import { registerTestUser } from "../helpers/accounts";
import { call, uniqueSuffix } from "../helpers/http";

afterAll(() => closeDb());

async function signUpBakery(name = "Rosa's Bakery") {
  const s = uniqueSuffix();
  const res = await call(signup, "POST", "/api/auth/signup", {
    body: {
      firstName: "Rosa",
      lastName: "Martinez",
      email: `rosa${s}@example.com`,
      username: `rosa${s}`,
      password: "longenough1",
      confirmPassword: "longenough1",
      subscriptionTier: "free",
      role: "business",
      organizationName: name,
      agreeToTerms: true,
    },
  });
  expect(res.status).toBe(200);
  return { sessionId: res.body.sessionId as string, organizationId: res.body.user.organizationId as string };
}

const ask = (sessionId: string, testText: string) => call(voiceTest, "POST", "/api/voice/test", { sessionId, body: { testText } });

describe("a new organization's starter assistant", () => {
  it("is created at sign-up from the organization's name, active, and listed for the user to edit", async () => {
    const bakery = await signUpBakery();
    const list = await call(listAssistants, "GET", "/api/voice-assistants", { sessionId: bakery.sessionId });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({
      name: STARTER_ASSISTANT_NAME,
      isActive: true,
      personality: "friendly",
      voice: "alloy",
      greeting: "Thanks for calling Rosa's Bakery! How can I help you today?",
    });
    expect(list.body[0].description).toContain("Rosa's Bakery");
    expect(list.body[0].instructions).toContain("Rosa's Bakery");
  });

  it("lets the voice test run at once and answers with real audio", async () => {
    const bakery = await signUpBakery();
    const res = await ask(bakery.sessionId, "Hello");
    expect(res.status).toBe(200);
    expect(res.body.aiResponse).toBe("Thanks for calling Rosa's Bakery! How can I help you today?");
    expect(res.body.assistant.name).toBe(STARTER_ASSISTANT_NAME);
    const url = new URL(res.body.audioUrl, "http://localhost:3000");
    const audio = await getAudio(new Request(url), { params: Promise.resolve({ id: decodeURIComponent(url.pathname.split("/").pop()!) }) });
    expect(audio.status).toBe(200);
    const bytes = Buffer.from(await audio.arrayBuffer());
    expect(bytes.subarray(0, 4).toString("ascii")).toBe("RIFF");
    expect(bytes.length).toBeGreaterThan(10_000);
  });

  it("lets the mobile chat answer at once, keeping its conversation", async () => {
    const bakery = await signUpBakery();
    const sessionId = `mobile-${uniqueSuffix()}`;
    const first = await call(voiceTest, "POST", "/api/voice/test", {
      sessionId: bakery.sessionId,
      body: { text: "Hi there", testText: "Hi there", sessionId },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, error: null, intent: "greeting" });
    expect(first.body.audioFile).toMatch(/^\/api\/audio\//);
    const second = await call(voiceTest, "POST", "/api/voice/test", {
      sessionId: bakery.sessionId,
      body: { text: "hello again", testText: "hello again", sessionId },
    });
    expect(second.body.aiResponse).toMatch(/^Hello again!/);
  });

  it("answers from the instructions the owner wrote: hours, orders, prices — never 'I don't have' what it was told", async () => {
    const bakery = await signUpBakery();
    const [starter] = (await call(listAssistants, "GET", "/api/voice-assistants", { sessionId: bakery.sessionId })).body;
    const edited = await call(updateAssistant, "PUT", `/api/voice-assistants/${starter.id}`, {
      sessionId: bakery.sessionId,
      params: { id: starter.id },
      body: { instructions: `${starter.instructions} We're open Tue–Sun 7am–3pm. Birthday cakes start at $35 and need two days' notice.` },
    });
    expect(edited.status).toBe(200);

    const hours = await ask(bakery.sessionId, "When are you open?");
    expect(hours.body.intent).toBe("hours");
    expect(hours.body.aiResponse).toContain("We're open Tue–Sun 7am–3pm.");
    expect(hours.body.aiResponse).not.toMatch(/don't have|won't guess/);

    const order = await ask(bakery.sessionId, "I'd like to order a birthday cake");
    expect(order.body.intent).toBe("order");
    expect(order.body.aiResponse).toContain("you'd like to order a birthday cake");
    expect(order.body.aiResponse).toContain("Birthday cakes start at $35 and need two days' notice.");

    const price = await ask(bakery.sessionId, "How much is a birthday cake?");
    expect(price.body.intent).toBe("pricing");
    expect(price.body.aiResponse).toContain("$35");
  });

  it("answers from the numbers' business hours, and says whether it is open now", async () => {
    const bakery = await signUpBakery("Rosa's Second Bakery");
    const number = await call(createNumber, "POST", "/api/phone-numbers", { sessionId: bakery.sessionId, body: { friendlyName: "Shop" } });
    expect(number.status).toBe(201);
    const open = { open: "07:00", close: "15:00" };
    const patched = await call(patchNumber, "PATCH", `/api/phone-numbers/${number.body.id}`, {
      sessionId: bakery.sessionId,
      params: { id: number.body.id },
      body: { businessHours: { timezone: "America/New_York", days: { mon: null, tue: open, wed: open, thu: open, fri: open, sat: open, sun: open } } },
    });
    expect(patched.status).toBe(200);

    const res = await ask(bakery.sessionId, "What are your hours?");
    expect(res.body.aiResponse).toContain("Our hours are Tue–Sun 7 AM–3 PM.");
    expect(res.body.aiResponse).toMatch(/We're (open|closed) right now\./);

    const db = await getDb();
    // A Monday at noon in New York: closed; a Tuesday at 10:00: open.
    const monday = await assistantContext(db, bakery.organizationId, null, { now: new Date("2026-11-23T17:00:00Z") });
    expect(monday.business).toMatchObject({ name: "Rosa's Second Bakery", hours: "Tue–Sun 7 AM–3 PM", openNow: false });
    const tuesday = await assistantContext(db, bakery.organizationId, null, { now: new Date("2026-11-24T15:00:00Z") });
    expect(tuesday.business.openNow).toBe(true);
    // The called number's own assistant and hours come first (the phone loop passes phoneNumberId).
    const viaNumber = await assistantContext(db, bakery.organizationId, undefined, { phoneNumberId: number.body.id, now: new Date("2026-11-24T15:00:00Z") });
    expect(viaNumber.assistant.persona.name).toBe(STARTER_ASSISTANT_NAME);
    expect(viaNumber.business.hours).toBe("Tue–Sun 7 AM–3 PM");
    await expect(assistantContext(db, bakery.organizationId, undefined, { phoneNumberId: crypto.randomUUID() })).rejects.toMatchObject({ status: 404 });
  });

  it("a profile's hours win over the numbers'; two schedules are both said, with their numbers' names", async () => {
    const bakery = await signUpBakery("Two Shops Bakery");
    const db = await getDb();
    await db.update(organizations).set({ subscriptionTier: "pro" }).where(eq(organizations.id, bakery.organizationId));
    const day = (open: string, close: string) => ({ open, close });
    for (const [name, hours] of [
      ["Downtown", { mon: day("08:00", "16:00"), tue: day("08:00", "16:00") }],
      ["Harbor", { sat: day("09:00", "13:00") }],
    ] as const) {
      const made = await call(createNumber, "POST", "/api/phone-numbers", { sessionId: bakery.sessionId, body: { friendlyName: name } });
      expect(made.status).toBe(201);
      await call(patchNumber, "PATCH", `/api/phone-numbers/${made.body.id}`, {
        sessionId: bakery.sessionId,
        params: { id: made.body.id },
        body: { businessHours: { timezone: "Europe/Paris", days: hours } },
      });
    }
    const both = await assistantContext(db, bakery.organizationId);
    expect(both.business.hours).toBe("Downtown: Mon, Tue 8 AM–4 PM; Harbor: Sat 9 AM–1 PM");
    expect(both.business.openNow).toBeUndefined();
    await db
      .update(organizations)
      .set({ businessProfile: { hours: "Every day 8 AM–4 PM" } })
      .where(eq(organizations.id, bakery.organizationId));
    expect((await assistantContext(db, bakery.organizationId)).business.hours).toBe("Every day 8 AM–4 PM");
  });

  it("a sign-up without an organization name gets a neutral greeting", async () => {
    const s = uniqueSuffix();
    const res = await call(register, "POST", "/api/auth/register", {
      body: { email: `solo${s}@example.com`, username: `solo${s}`, password: "secret123", firstName: "Sol", lastName: "O" },
    });
    const list = await call(listAssistants, "GET", "/api/voice-assistants", { sessionId: res.body.sessionId });
    expect(list.body).toHaveLength(1);
    expect(list.body[0].greeting).toBe("Hello, thanks for calling! How can I help you today?");
  });

  it("is not added when someone joins an existing organization", async () => {
    const owner = await registerTestUser();
    const db = await getDb();
    const admin = await registerTestUser();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.id));
    const s = uniqueSuffix();
    const made = await call(createUserRoute, "POST", "/api/admin/users", {
      sessionId: admin.sessionId,
      body: { email: `join${s}@example.com`, username: `join${s}`, password: "secret123", firstName: "Jo", lastName: "In", organizationId: owner.organizationId },
    });
    expect(made.status).toBe(201);
    const rows = await db.select().from(voiceAssistants).where(eq(voiceAssistants.organizationId, owner.organizationId));
    expect(rows).toHaveLength(1);
  });
});
