import { GET as getOne, DELETE as remove, PUT as update } from "@/app/api/voice-assistants/[id]/route";
import { GET as options } from "@/app/api/voice-assistants/options/route";
import { GET as list, POST as create } from "@/app/api/voice-assistants/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { organizations, voiceAssistants } from "@/db/schema";
import { personalities } from "@/lib/agents/assistants/personalities";
import { voices } from "@/lib/agents/assistants/voices";
import { and, count, eq } from "drizzle-orm";
import { registerTestUser, registerTestUserWithoutAssistants, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());

const fullInput = {
  name: "Front Desk",
  description: "Answers the main line",
  personality: "professional",
  instructions: "Take a message when nobody is available.",
  voice: "onyx",
  isActive: true,
  greeting: "Thanks for calling Acme, how can I help?",
};

async function setTier(account: TestAccount, tier: "free" | "pro" | "enterprise") {
  const db = await getDb();
  await db.update(organizations).set({ subscriptionTier: tier }).where(eq(organizations.id, account.organizationId));
}

async function countFor(organizationId: string) {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(voiceAssistants).where(eq(voiceAssistants.organizationId, organizationId));
  return row.n;
}

describe("POST /api/voice-assistants", () => {
  it("creates an assistant with every field and answers 201 with it", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const res = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(fullInput);
    expect(Object.keys(res.body).sort()).toEqual(
      ["callRules", "createdAt", "description", "greeting", "id", "ignoreBackchannels", "instructions", "interruptions", "isActive", "name", "personality", "updatedAt", "voice"].sort(),
    );
    const db = await getDb();
    const [row] = await db.select().from(voiceAssistants).where(eq(voiceAssistants.id, res.body.id));
    expect(row.organizationId).toBe(owner.organizationId);
  });

  it("accepts the spec's contract body (no greeting) and applies defaults to missing fields", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const res = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: { name: "Voice Assistant 1" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Voice Assistant 1",
      description: "",
      personality: "friendly",
      instructions: "",
      voice: "alloy",
      greeting: "",
      isActive: true,
    });
  });

  it("answers 400 naming each failing field", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const res = await call(create, "POST", "/api/voice-assistants", {
      sessionId: owner.sessionId,
      body: { ...fullInput, name: "   ", personality: "grumpy", voice: "robot", description: "d".repeat(501), isActive: "yes" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.name).toBe("Name is required");
    expect(res.body.errors.personality).toMatch(/^Personality must be one of: friendly/);
    expect(res.body.errors.voice).toMatch(/^Voice must be one of: alloy/);
    expect(res.body.errors.description).toBe("Description must be at most 500 characters");
    expect(res.body.errors.isActive).toBeDefined();
    const long = await call(create, "POST", "/api/voice-assistants", {
      sessionId: owner.sessionId,
      body: { name: "n".repeat(81), instructions: "i".repeat(4001), greeting: "g".repeat(501) },
    });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual({
      name: "Name must be at most 80 characters",
      instructions: "Instructions must be at most 4000 characters",
      greeting: "Greeting must be at most 500 characters",
    });
    expect(await countFor(owner.organizationId)).toBe(0);
  });

  it("answers 401 without a session", async () => {
    const res = await call(create, "POST", "/api/voice-assistants", { body: fullInput });
    expect(res.status).toBe(401);
    expect(res.text).toContain("Unauthorized");
  });

  it("answers 403 when a free organization creates a second assistant", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const first = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    expect(first.status).toBe(201);
    const second = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: { ...fullInput, name: "Second" } });
    expect(second.status).toBe(403);
    expect(second.body.message).toBe("Your Free plan allows 1 voice assistant. Upgrade to Pro (10 voice assistants) in Billing to add more.");
    expect(await countFor(owner.organizationId)).toBe(1);
  });

  it("a new free organization's starter assistant takes its one slot: edit it, or delete it to make another", async () => {
    const owner = await registerTestUser();
    expect(await countFor(owner.organizationId)).toBe(1);
    const another = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    expect(another.status).toBe(403);
    expect(await countFor(owner.organizationId)).toBe(1);
  });

  it("never lets two simultaneous creates both take a free plan's only slot", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const results = await Promise.all(
      [1, 2, 3].map((n) =>
        call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: { name: `Race ${n}` } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 403, 403]);
    expect(await countFor(owner.organizationId)).toBe(1);
  });

  it("allows 10 on Pro and no limit on Enterprise", async () => {
    const owner = await registerTestUserWithoutAssistants();
    await setTier(owner, "pro");
    for (let i = 1; i <= 10; i++) {
      const res = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: { name: `Pro ${i}` } });
      expect(res.status).toBe(201);
    }
    const eleventh = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: { name: "Pro 11" } });
    expect(eleventh.status).toBe(403);
    expect(eleventh.body.message).toMatch(/Pro plan allows 10 voice assistants\. Upgrade to Enterprise \(unlimited/);
    await setTier(owner, "enterprise");
    const more = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: { name: "Pro 11" } });
    expect(more.status).toBe(201);
    expect(await countFor(owner.organizationId)).toBe(11);
  });
});

describe("GET /api/voice-assistants", () => {
  it("lists only the caller's organization's assistants, newest first", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const other = await registerTestUserWithoutAssistants();
    await setTier(owner, "pro");
    const a = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: { name: "Older" } });
    const b = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: { name: "Newer" } });
    await call(create, "POST", "/api/voice-assistants", { sessionId: other.sessionId, body: { name: "Not yours" } });
    const res = await call(list, "GET", "/api/voice-assistants", { sessionId: owner.sessionId });
    expect(res.status).toBe(200);
    expect(res.body.map((x: { id: string }) => x.id)).toEqual([b.body.id, a.body.id]);
    expect(res.body[0]).toMatchObject({ name: "Newer", personality: "friendly", voice: "alloy", isActive: true });
  });

  it("answers 401 without a session", async () => {
    expect((await call(list, "GET", "/api/voice-assistants")).status).toBe(401);
  });

  it("GET /api/voice-assistants/{id} answers the caller's assistant and 404 for another organization's", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const stranger = await registerTestUserWithoutAssistants();
    const made = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    const mine = await call(getOne, "GET", `/api/voice-assistants/${made.body.id}`, { sessionId: owner.sessionId, params: { id: made.body.id } });
    expect(mine.status).toBe(200);
    expect(mine.body.id).toBe(made.body.id);
    const theirs = await call(getOne, "GET", `/api/voice-assistants/${made.body.id}`, { sessionId: stranger.sessionId, params: { id: made.body.id } });
    expect(theirs.status).toBe(404);
    expect(theirs.text).not.toContain(fullInput.name);
  });
});

describe("GET /api/voice-assistants/options", () => {
  it("lists the personalities and the voices the form offers", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const res = await call(options, "GET", "/api/voice-assistants/options", { sessionId: owner.sessionId });
    expect(res.status).toBe(200);
    expect(res.body.personalities.map((p: { id: string }) => p.id)).toEqual(personalities.map((p) => p.id));
    expect(res.body.personalities[0]).toEqual({ id: "friendly", label: "Friendly", description: expect.any(String) });
    expect(res.body.voices).toEqual(voices.map(({ id, label, description }) => ({ id, label, description })));
    expect((await call(options, "GET", "/api/voice-assistants/options")).status).toBe(401);
  });
});

describe("GET /api/voice-assistants/options: the plan's assistant limit", () => {
  it("says a new Free organization is at its limit (the starter assistant) and names the upgrade", async () => {
    const owner = await registerTestUser();
    const res = await call(options, "GET", "/api/voice-assistants/options", { sessionId: owner.sessionId });
    expect(res.status).toBe(200);
    expect(res.body.limit).toEqual({
      limit: 1,
      used: 1,
      atLimit: true,
      planName: "Free",
      upgrade: { id: "pro", name: "Pro", limit: 10 },
      waitingForPayment: null,
    });
  });

  it("is below the limit without assistants, unlimited on an active Enterprise, and Free's while a paid plan waits for payment", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const empty = await call(options, "GET", "/api/voice-assistants/options", { sessionId: owner.sessionId });
    expect(empty.body.limit).toMatchObject({ limit: 1, used: 0, atLimit: false });

    const db = await getDb();
    await db.update(organizations).set({ subscriptionTier: "enterprise", subscriptionStatus: "active" }).where(eq(organizations.id, owner.organizationId));
    const unlimited = await call(options, "GET", "/api/voice-assistants/options", { sessionId: owner.sessionId });
    expect(unlimited.body.limit).toMatchObject({ limit: null, atLimit: false, planName: "Enterprise", upgrade: null, waitingForPayment: null });

    await db.update(organizations).set({ subscriptionTier: "pro", subscriptionStatus: "trialing" }).where(eq(organizations.id, owner.organizationId));
    await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    const waiting = await call(options, "GET", "/api/voice-assistants/options", { sessionId: owner.sessionId });
    expect(waiting.body.limit).toMatchObject({ limit: 1, used: 1, atLimit: true, planName: "Free", waitingForPayment: { id: "pro", name: "Pro" } });
  });
});

describe("PUT /api/voice-assistants/{id}", () => {
  it("toggles with {isActive} alone, both ways, and leaves the other fields", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const made = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    const off = await call(update, "PUT", `/api/voice-assistants/${made.body.id}`, {
      sessionId: owner.sessionId,
      params: { id: made.body.id },
      body: { isActive: false },
    });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ ...fullInput, isActive: false, id: made.body.id });
    expect(new Date(off.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(made.body.updatedAt).getTime());
    const on = await call(update, "PUT", `/api/voice-assistants/${made.body.id}`, {
      sessionId: owner.sessionId,
      params: { id: made.body.id },
      body: { isActive: true },
    });
    expect(on.body.isActive).toBe(true);
  });

  it("updates several fields at once", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const made = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    const res = await call(update, "PUT", `/api/voice-assistants/${made.body.id}`, {
      sessionId: owner.sessionId,
      params: { id: made.body.id },
      body: { name: "Night Line", personality: "caring", voice: "shimmer", greeting: "" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Night Line", personality: "caring", voice: "shimmer", greeting: "", instructions: fullInput.instructions });
  });

  it("reads and writes the owner's call rules: defaults for a new assistant, 400 naming the field", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const made = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    expect(made.body.callRules).toEqual([
      { when: "emergency", action: "transfer" },
      { when: "complaint", action: "urgent_task" },
    ]);
    const rules = [
      { when: "emergency", action: "transfer", to: "+14155550177" },
      { when: "asks_for_person", action: "take_message", person: "Dr. Chen" },
      { when: "complaint", action: "urgent_task" },
    ];
    const res = await call(update, "PUT", `/api/voice-assistants/${made.body.id}`, { sessionId: owner.sessionId, params: { id: made.body.id }, body: { callRules: rules } });
    expect(res.status).toBe(200);
    expect(res.body.callRules).toEqual(rules);
    const read = await call(getOne, "GET", `/api/voice-assistants/${made.body.id}`, { sessionId: owner.sessionId, params: { id: made.body.id } });
    expect(read.body.callRules).toEqual(rules);
    const bad = await call(update, "PUT", `/api/voice-assistants/${made.body.id}`, {
      sessionId: owner.sessionId,
      params: { id: made.body.id },
      body: { callRules: [{ when: "emergency", action: "transfer", to: "555-0100" }] },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.errors)).toMatch(/callRules\.0\.to.*country code/);
  });

  it("reads and writes the phone line's interruption settings: speech and backchannels ignored by default, 400 naming the field", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const made = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    expect(made.body).toMatchObject({ interruptions: "speech", ignoreBackchannels: true });
    const url = `/api/voice-assistants/${made.body.id}`;
    const res = await call(update, "PUT", url, { sessionId: owner.sessionId, params: { id: made.body.id }, body: { interruptions: "dtmf", ignoreBackchannels: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ interruptions: "dtmf", ignoreBackchannels: false, name: fullInput.name });
    const read = await call(getOne, "GET", url, { sessionId: owner.sessionId, params: { id: made.body.id } });
    expect(read.body).toMatchObject({ interruptions: "dtmf", ignoreBackchannels: false });

    const badMode = await call(update, "PUT", url, { sessionId: owner.sessionId, params: { id: made.body.id }, body: { interruptions: "always" } });
    expect(badMode.status).toBe(400);
    expect(JSON.stringify(badMode.body.errors)).toMatch(/interruptions.*speech, any, dtmf, none/);
    const badFlag = await call(update, "PUT", url, { sessionId: owner.sessionId, params: { id: made.body.id }, body: { ignoreBackchannels: "yes" } });
    expect(badFlag.status).toBe(400);
    expect(JSON.stringify(badFlag.body.errors)).toMatch(/ignoreBackchannels.*true or false/);
    // Nothing changed by the refused writes.
    const after = await call(getOne, "GET", url, { sessionId: owner.sessionId, params: { id: made.body.id } });
    expect(after.body).toMatchObject({ interruptions: "dtmf", ignoreBackchannels: false });

    // Another organization cannot read or change them.
    const stranger = await registerTestUserWithoutAssistants();
    const foreign = await call(update, "PUT", url, { sessionId: stranger.sessionId, params: { id: made.body.id }, body: { interruptions: "none" } });
    expect(foreign.status).toBe(404);
  });

  it("answers 400 naming the field, and for an empty body", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const made = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    const bad = await call(update, "PUT", `/api/voice-assistants/${made.body.id}`, {
      sessionId: owner.sessionId,
      params: { id: made.body.id },
      body: { voice: "robot", name: "" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ voice: expect.stringMatching(/^Voice must be one of/), name: "Name is required" });
    const empty = await call(update, "PUT", `/api/voice-assistants/${made.body.id}`, {
      sessionId: owner.sessionId,
      params: { id: made.body.id },
      body: {},
    });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toHaveProperty("body");
  });

  it("answers 401 without a session and 404 for another organization's assistant, leaving it untouched", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const stranger = await registerTestUserWithoutAssistants();
    const made = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    const anon = await call(update, "PUT", `/api/voice-assistants/${made.body.id}`, { params: { id: made.body.id }, body: { isActive: false } });
    expect(anon.status).toBe(401);
    const res = await call(update, "PUT", `/api/voice-assistants/${made.body.id}`, {
      sessionId: stranger.sessionId,
      params: { id: made.body.id },
      body: { isActive: false, name: "Hijacked" },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Voice assistant not found");
    const db = await getDb();
    const [row] = await db.select().from(voiceAssistants).where(eq(voiceAssistants.id, made.body.id));
    expect(row).toMatchObject({ name: fullInput.name, isActive: true });
    const unknown = await call(update, "PUT", "/api/voice-assistants/nope", { sessionId: owner.sessionId, params: { id: "nope" }, body: { isActive: false } });
    expect(unknown.status).toBe(404);
  });
});

describe("DELETE /api/voice-assistants/{id}", () => {
  it("deletes the caller's assistant and frees the plan slot", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const made = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    const res = await call(remove, "DELETE", `/api/voice-assistants/${made.body.id}`, { sessionId: owner.sessionId, params: { id: made.body.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await countFor(owner.organizationId)).toBe(0);
    const again = await call(remove, "DELETE", `/api/voice-assistants/${made.body.id}`, { sessionId: owner.sessionId, params: { id: made.body.id } });
    expect(again.status).toBe(404);
    const next = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: { name: "Replacement" } });
    expect(next.status).toBe(201);
  });

  it("answers 401 without a session and 404 for another organization's assistant, which stays", async () => {
    const owner = await registerTestUserWithoutAssistants();
    const stranger = await registerTestUserWithoutAssistants();
    const made = await call(create, "POST", "/api/voice-assistants", { sessionId: owner.sessionId, body: fullInput });
    expect((await call(remove, "DELETE", `/api/voice-assistants/${made.body.id}`, { params: { id: made.body.id } })).status).toBe(401);
    const res = await call(remove, "DELETE", `/api/voice-assistants/${made.body.id}`, { sessionId: stranger.sessionId, params: { id: made.body.id } });
    expect(res.status).toBe(404);
    const db = await getDb();
    const rows = await db
      .select()
      .from(voiceAssistants)
      .where(and(eq(voiceAssistants.id, made.body.id), eq(voiceAssistants.organizationId, owner.organizationId)));
    expect(rows).toHaveLength(1);
  });
});
