import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { GET as getAvailable } from "@/app/api/phone-numbers/available/route";
import { DELETE as deleteOne, GET as getOne, PATCH as patchOne } from "@/app/api/phone-numbers/[id]/route";
import { GET as list, POST as create } from "@/app/api/phone-numbers/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { organizations, phoneNumbers, voiceAssistants } from "@/db/schema";
import { createPhoneNumber, deletePhoneNumber } from "@/lib/phone/numbers/service";
import { createTwilioProvider } from "@/lib/platform/providers/telephony/twilio";
import { fakeTwilioHttpClient, startFakeTwilio } from "../fakes/twilio-server";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());

/** A number nobody else in a shared database will bring: +1 555 01XX numbers are never handed out here. */
function uniqueE164(): string {
  return `+1${2 + crypto.randomInt(8)}${String(crypto.randomInt(1e8)).padStart(8, "0")}`.slice(0, 12);
}

async function setTier(account: TestAccount, tier: "free" | "pro" | "enterprise") {
  const db = await getDb();
  await db.update(organizations).set({ subscriptionTier: tier }).where(eq(organizations.id, account.organizationId));
}

async function addAssistant(account: TestAccount, name: string) {
  const db = await getDb();
  const [row] = await db
    .insert(voiceAssistants)
    .values({ id: crypto.randomUUID(), organizationId: account.organizationId, name })
    .returning();
  return row;
}

async function rowsOf(account: TestAccount) {
  const db = await getDb();
  return db.select().from(phoneNumbers).where(eq(phoneNumbers.organizationId, account.organizationId));
}

function params(id: string) {
  return { params: { id } };
}

describe("phone numbers API", () => {
  let alice: TestAccount;
  let bob: TestAccount;

  beforeAll(async () => {
    [alice, bob] = await Promise.all([registerTestUser(), registerTestUser()]);
  });

  describe("without a session", () => {
    it("answers 401 on every route", async () => {
      const id = crypto.randomUUID();
      const answers = await Promise.all([
        call(list, "GET", "/api/phone-numbers"),
        call(create, "POST", "/api/phone-numbers", { body: { friendlyName: "x", isActive: true } }),
        call(getAvailable, "GET", "/api/phone-numbers/available?areaCode=415"),
        call(getOne, "GET", `/api/phone-numbers/${id}`, params(id)),
        call(patchOne, "PATCH", `/api/phone-numbers/${id}`, { body: { friendlyName: "x" }, ...params(id) }),
        call(deleteOne, "DELETE", `/api/phone-numbers/${id}`, params(id)),
      ]);
      for (const res of answers) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: "Unauthorized" });
      }
    });
  });

  describe("POST /api/phone-numbers on the free plan", () => {
    let created: { id: string; phoneNumber: string };

    it("provisions the first available number for the contract's bare {friendlyName, isActive}", async () => {
      const res = await call(create, "POST", "/api/phone-numbers", {
        body: { friendlyName: "Main line", isActive: true },
        sessionId: alice.sessionId,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        phoneNumber: expect.stringMatching(/^\+1[2-9]\d{2}55501\d{2}$/),
        friendlyName: "Main line",
        isActive: true,
        twilioSid: expect.stringMatching(/^PN[0-9a-f]{32}$/),
        createdAt: expect.any(String),
        provider: "simulated",
        assistantId: null,
        assistantName: null,
        forwardTo: null,
        businessHours: null,
        streaming: false,
        routing: { mode: "assistant_first", ringTimeoutSeconds: 20, rules: [] },
        // Bought through Switchboard: nothing to prove, nothing forwarded yet.
        ownership: { status: "not_needed", code: null, checkedAt: null },
        forwardingTest: null,
      });
      expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
      created = res.body;
      expect((await rowsOf(alice)).map((r) => r.id)).toEqual([created.id]);
    });

    it("refuses a second number with 403 saying the limit and how to raise it", async () => {
      const res = await call(create, "POST", "/api/phone-numbers", {
        body: { friendlyName: "Second line", isActive: true },
        sessionId: alice.sessionId,
      });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("Your Free plan allows 1 phone number. Upgrade to Pro (5 phone numbers) in Billing to add more.");
      expect(await rowsOf(alice)).toHaveLength(1);
    });

    it("lists only the caller's organization's numbers", async () => {
      const mine = await call(list, "GET", "/api/phone-numbers", { sessionId: alice.sessionId });
      expect(mine.status).toBe(200);
      expect(mine.body.map((n: { id: string }) => n.id)).toEqual([created.id]);

      const theirs = await call(list, "GET", "/api/phone-numbers", { sessionId: bob.sessionId });
      expect(theirs.status).toBe(200);
      expect(theirs.body.map((n: { id: string }) => n.id)).not.toContain(created.id);
      expect(theirs.body.every((n: { phoneNumber: string }) => n.phoneNumber !== created.phoneNumber)).toBe(true);
    });

    it("reads one number, and 404s another organization's", async () => {
      const own = await call(getOne, "GET", `/api/phone-numbers/${created.id}`, { sessionId: alice.sessionId, ...params(created.id) });
      expect(own.status).toBe(200);
      expect(own.body.id).toBe(created.id);
      const other = await call(getOne, "GET", `/api/phone-numbers/${created.id}`, { sessionId: bob.sessionId, ...params(created.id) });
      expect(other.status).toBe(404);
      expect(other.body).toEqual({ message: "Phone number not found" });
    });
  });

  describe("validation", () => {
    it("answers 400 with field messages for a bad create", async () => {
      const cases: [unknown, string, string][] = [
        [{ friendlyName: "x", isActive: true, areaCode: "41" }, "areaCode", "Area code must be 3 digits, e.g. 415"],
        [{ friendlyName: "x", mode: "existing", phoneNumber: "415-555-0123" }, "phoneNumber", "with + and the country code"],
        [{ friendlyName: "x", mode: "existing" }, "phoneNumber", "Enter the number you already own"],
        [{ friendlyName: "  ", isActive: true }, "friendlyName", "Friendly name is required"],
        [{ friendlyName: "x", isActive: "yes" }, "isActive", "isActive must be true or false"],
      ];
      for (const [body, field, message] of cases) {
        const res = await call(create, "POST", "/api/phone-numbers", { body, sessionId: bob.sessionId });
        expect(res.status).toBe(400);
        expect(res.body.errors[field]).toContain(message);
        expect(res.body.message).toContain(field);
      }
      const malformed = await call(create, "POST", "/api/phone-numbers", { rawBody: "{", sessionId: bob.sessionId });
      expect(malformed.status).toBe(400);
      expect(await rowsOf(bob)).toHaveLength(0);
    });

    it("answers 400 for a bad area code in the search", async () => {
      const res = await call(getAvailable, "GET", "/api/phone-numbers/available?areaCode=4a5", { sessionId: bob.sessionId });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ areaCode: "Area code must be 3 digits, e.g. 415" });
    });
  });

  describe("on the Pro plan", () => {
    let carol: TestAccount;

    beforeAll(async () => {
      carol = await registerTestUser();
      await setTier(carol, "pro");
    });

    it("searches available numbers by area code and buys the one picked", async () => {
      const search = await call(getAvailable, "GET", "/api/phone-numbers/available?areaCode=907&limit=3", { sessionId: carol.sessionId });
      expect(search.status).toBe(200);
      expect(search.body.provider).toBe("simulated");
      expect(search.body.areaCode).toBe("907");
      expect(search.body.numbers).toHaveLength(3);
      for (const n of search.body.numbers) expect(n.phoneNumber).toMatch(/^\+190755501\d{2}$/);

      const picked = search.body.numbers[2].phoneNumber;
      const res = await call(create, "POST", "/api/phone-numbers", {
        body: { friendlyName: "Picked", isActive: true, mode: "new", phoneNumber: picked },
        sessionId: carol.sessionId,
      });
      expect(res.status).toBe(201);
      expect(res.body.phoneNumber).toBe(picked);

      const again = await call(getAvailable, "GET", "/api/phone-numbers/available?areaCode=907&limit=30", { sessionId: carol.sessionId });
      expect(again.body.numbers.map((n: { phoneNumber: string }) => n.phoneNumber)).not.toContain(picked);

      const taken = await call(create, "POST", "/api/phone-numbers", {
        body: { friendlyName: "Twice", mode: "new", phoneNumber: picked },
        sessionId: carol.sessionId,
      });
      expect(taken.status).toBe(409);
      expect(taken.body.errors.phoneNumber).toContain(picked);
    });

    it("provisions in the preferred area code", async () => {
      const res = await call(create, "POST", "/api/phone-numbers", {
        body: { friendlyName: "Alaska", isActive: false, areaCode: "907" },
        sessionId: carol.sessionId,
      });
      expect(res.status).toBe(201);
      expect(res.body.phoneNumber).toMatch(/^\+190755501\d{2}$/);
      expect(res.body.isActive).toBe(false);
    });

    it("brings an existing number, and refuses the same number twice with 409", async () => {
      const own = uniqueE164();
      const res = await call(create, "POST", "/api/phone-numbers", {
        body: { friendlyName: "Our old line", isActive: true, mode: "existing", phoneNumber: own },
        sessionId: carol.sessionId,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ phoneNumber: own, friendlyName: "Our old line", provider: "simulated" });

      for (const account of [carol, bob]) {
        const dup = await call(create, "POST", "/api/phone-numbers", {
          body: { friendlyName: "Again", isActive: true, mode: "existing", phoneNumber: own },
          sessionId: account.sessionId,
        });
        expect(dup.status).toBe(409);
        expect(dup.body.errors.phoneNumber).toContain(own);
      }
    });

    it("lists newest first", async () => {
      const res = await call(list, "GET", "/api/phone-numbers", { sessionId: carol.sessionId });
      expect(res.body.map((n: { friendlyName: string }) => n.friendlyName)).toEqual(["Our old line", "Alaska", "Picked"]);
      const times = res.body.map((n: { createdAt: string }) => Date.parse(n.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });
  });

  describe("PATCH /api/phone-numbers/{id}", () => {
    let dave: TestAccount;
    let numberId: string;

    beforeAll(async () => {
      dave = await registerTestUser();
      const res = await call(create, "POST", "/api/phone-numbers", {
        body: { friendlyName: "Front desk", isActive: true },
        sessionId: dave.sessionId,
      });
      numberId = res.body.id;
    });

    it("renames, deactivates, assigns an assistant and sets routing", async () => {
      const assistant = await addAssistant(dave, "Receptionist");
      const res = await call(patchOne, "PATCH", `/api/phone-numbers/${numberId}`, {
        body: {
          friendlyName: "Reception",
          isActive: false,
          assistantId: assistant.id,
          // Outside the simulated carrier's 555-01XX inventory, so it is never the number just provisioned.
          forwardTo: "+14155559876",
          businessHours: { timezone: "America/New_York", days: { mon: { open: "09:00", close: "17:00" }, sat: null } },
        },
        sessionId: dave.sessionId,
        ...params(numberId),
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: numberId,
        friendlyName: "Reception",
        isActive: false,
        assistantId: assistant.id,
        assistantName: "Receptionist",
        forwardTo: "+14155559876",
        businessHours: {
          timezone: "America/New_York",
          days: { mon: { open: "09:00", close: "17:00" }, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null },
        },
      });

      const cleared = await call(patchOne, "PATCH", `/api/phone-numbers/${numberId}`, {
        body: { isActive: true, assistantId: null, forwardTo: null, businessHours: null },
        sessionId: dave.sessionId,
        ...params(numberId),
      });
      expect(cleared.status).toBe(200);
      expect(cleared.body).toMatchObject({ friendlyName: "Reception", isActive: true, assistantId: null, assistantName: null, forwardTo: null, businessHours: null });
    });

    it("stores a forward-to number typed the usual ways in E.164", async () => {
      for (const typed of ["512-555-1234", "(512) 555 1234", "+1 512.555.1234"]) {
        const res = await call(patchOne, "PATCH", `/api/phone-numbers/${numberId}`, {
          body: { forwardTo: typed },
          sessionId: dave.sessionId,
          ...params(numberId),
        });
        expect(res.status).toBe(200);
        expect(res.body.forwardTo).toBe("+15125551234");
      }
      await call(patchOne, "PATCH", `/api/phone-numbers/${numberId}`, { body: { forwardTo: null }, sessionId: dave.sessionId, ...params(numberId) });
    });

    it("answers 400 with field messages", async () => {
      const cases: [unknown, string, string][] = [
        [{ forwardTo: "555-0123" }, "forwardTo", "area code"],
        [{ friendlyName: "" }, "friendlyName", "Friendly name is required"],
        [{ businessHours: { timezone: "Mars/Olympus", days: {} } }, "businessHours.timezone", "Unknown time zone"],
        [{ businessHours: { timezone: "UTC", days: { mon: { open: "17:00", close: "09:00" } } } }, "businessHours.days.mon.close", "Closing time must be after opening time"],
        [{ businessHours: { timezone: "UTC", days: { mon: { open: "9am", close: "17:00" } } } }, "businessHours.days.mon.open", "24-hour"],
        [{}, "body", "Nothing to update"],
      ];
      for (const [body, field, message] of cases) {
        const res = await call(patchOne, "PATCH", `/api/phone-numbers/${numberId}`, { body, sessionId: dave.sessionId, ...params(numberId) });
        expect(res.status).toBe(400);
        expect(res.body.errors[field]).toContain(message);
      }
    });

    it("rejects an assistant of another organization (and one that does not exist)", async () => {
      const foreign = await addAssistant(bob, "Bob's bot");
      for (const assistantId of [foreign.id, crypto.randomUUID()]) {
        const res = await call(patchOne, "PATCH", `/api/phone-numbers/${numberId}`, {
          body: { assistantId },
          sessionId: dave.sessionId,
          ...params(numberId),
        });
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({ assistantId: "Choose one of your organization's voice assistants" });
      }
      const [row] = await rowsOf(dave);
      expect(row.assistantId).toBeNull();
    });

    it("refuses forwarding a number to itself", async () => {
      const [row] = await rowsOf(dave);
      const res = await call(patchOne, "PATCH", `/api/phone-numbers/${numberId}`, {
        body: { forwardTo: row.phoneNumber },
        sessionId: dave.sessionId,
        ...params(numberId),
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.forwardTo).toContain("loop");
    });

    it("answers 404 for another organization's number and leaves it untouched", async () => {
      const [before] = await rowsOf(dave);
      const res = await call(patchOne, "PATCH", `/api/phone-numbers/${numberId}`, {
        body: { friendlyName: "Hijacked", isActive: false },
        sessionId: bob.sessionId,
        ...params(numberId),
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Phone number not found" });
      const [after] = await rowsOf(dave);
      expect(after).toEqual(before);
    });
  });

  describe("DELETE /api/phone-numbers/{id}", () => {
    it("answers 404 for another organization's number and leaves it in place", async () => {
      const erin = await registerTestUser();
      const made = await call(create, "POST", "/api/phone-numbers", { body: { friendlyName: "Keep", isActive: true }, sessionId: erin.sessionId });
      const res = await call(deleteOne, "DELETE", `/api/phone-numbers/${made.body.id}`, { sessionId: bob.sessionId, ...params(made.body.id) });
      expect(res.status).toBe(404);
      expect(await rowsOf(erin)).toHaveLength(1);
    });

    it("releases the number, forgets it, and frees the plan slot and the number", async () => {
      const frank = await registerTestUser();
      const made = await call(create, "POST", "/api/phone-numbers", {
        body: { friendlyName: "Temporary", isActive: true, areaCode: "808" },
        sessionId: frank.sessionId,
      });
      expect(made.status).toBe(201);
      const res = await call(deleteOne, "DELETE", `/api/phone-numbers/${made.body.id}`, { sessionId: frank.sessionId, ...params(made.body.id) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, id: made.body.id });
      expect(await rowsOf(frank)).toHaveLength(0);

      const again = await call(deleteOne, "DELETE", `/api/phone-numbers/${made.body.id}`, { sessionId: frank.sessionId, ...params(made.body.id) });
      expect(again.status).toBe(404);

      const search = await call(getAvailable, "GET", "/api/phone-numbers/available?areaCode=808&limit=30", { sessionId: frank.sessionId });
      expect(search.body.numbers.map((n: { phoneNumber: string }) => n.phoneNumber)).toContain(made.body.phoneNumber);
      const next = await call(create, "POST", "/api/phone-numbers", { body: { friendlyName: "Next", isActive: true }, sessionId: frank.sessionId });
      expect(next.status).toBe(201);
    });
  });

  describe("with Twilio (real SDK against the local fake)", () => {
    const accountSid = `AC${"e5".repeat(16)}`;
    const authToken = "fake-token";

    it("buys with webhooks, stores provider twilio, and releases on delete", async () => {
      const grace = await registerTestUser();
      const fake = await startFakeTwilio({
        accountSid,
        authToken,
        available: [{ phone_number: "+13035550142", locality: "Denver", region: "CO" }],
      });
      try {
        const provider = createTwilioProvider({ accountSid, authToken, httpClient: fakeTwilioHttpClient(fake.url) });
        const db = await getDb();
        const created = await createPhoneNumber(
          db,
          grace.organizationId,
          { friendlyName: "Denver", isActive: true, mode: "new", areaCode: "303" },
          { provider },
        );
        expect(created).toMatchObject({ phoneNumber: "+13035550142", provider: "twilio", twilioSid: fake.incoming[0].sid });
        expect(fake.incoming[0]).toMatchObject({
          voice_url: `${process.env.PUBLIC_URL}/api/telephony/voice`,
          sms_url: `${process.env.PUBLIC_URL}/api/telephony/sms`,
        });

        await deletePhoneNumber(db, grace.organizationId, created.id, { provider });
        expect(fake.incoming).toHaveLength(0);
        expect(fake.requests.at(-1)).toMatchObject({ method: "DELETE", path: expect.stringContaining(created.twilioSid!) });
        const [gone] = await db
          .select()
          .from(phoneNumbers)
          .where(and(eq(phoneNumbers.id, created.id), eq(phoneNumbers.organizationId, grace.organizationId)));
        expect(gone).toBeUndefined();
      } finally {
        await fake.close();
      }
    });

    it("brings a number Twilio does not know by starting Twilio's caller-ID verification call (a code to key in)", async () => {
      const heidi = await registerTestUser();
      const fake = await startFakeTwilio({ accountSid, authToken });
      try {
        const provider = createTwilioProvider({ accountSid, authToken, httpClient: fakeTwilioHttpClient(fake.url) });
        const created = await createPhoneNumber(
          await getDb(),
          heidi.organizationId,
          { friendlyName: "Not mine yet", isActive: true, mode: "existing", phoneNumber: "+13125550177" },
          { provider },
        );
        expect(fake.validationRequests).toHaveLength(1);
        expect(fake.validationRequests[0]).toMatchObject({ phone_number: "+13125550177", status_callback: expect.stringContaining(`/api/telephony/verification?numberId=${created.id}`) });
        expect(created.ownership).toEqual({ status: "pending", code: fake.validationRequests[0].validation_code, checkedAt: null });
      } finally {
        await fake.close();
      }
    });
  });
});
