import { eq } from "drizzle-orm";
import { POST as forwardingTest } from "@/app/api/phone-numbers/[id]/forwarding-test/route";
import { POST as answer } from "@/app/api/phone-numbers/[id]/ownership/answer/route";
import { POST as restart } from "@/app/api/phone-numbers/[id]/ownership/route";
import { GET as getOne } from "@/app/api/phone-numbers/[id]/route";
import { POST as create } from "@/app/api/phone-numbers/route";
import { POST as verificationHook } from "@/app/api/telephony/verification/route";
import { calls } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { simulatedAccount } from "@/lib/phone/telephony/account";
import { twilioSignature } from "@/lib/phone/telephony/signature";
import { registerTestUser } from "../helpers/accounts";
import { call } from "../helpers/http";

afterAll(() => closeDb());
jest.setTimeout(60_000);

/** Issue 30: a brought-in number is verified with a call and a code, then "Test forwarding" proves calls arrive. */

const own = () => `+1312555${String(Math.floor(1000 + Math.random() * 8999))}`;

describe("a brought-in number on the simulated carrier", () => {
  it("is pending until the code is keyed in; a wrong code fails, a new call gives a new code, the right one verifies", async () => {
    const owner = await registerTestUser();
    const res = await call(create, "POST", "/api/phone-numbers", { sessionId: owner.sessionId, body: { friendlyName: "Our old line", isActive: true, mode: "existing", phoneNumber: own() } });
    expect(res.status).toBe(201);
    expect(res.body.ownership).toMatchObject({ status: "pending", code: expect.stringMatching(/^\d{6}$/) });
    const id = res.body.id as string;

    // Forwarding cannot be tested before the number is verified.
    expect((await call(forwardingTest, "POST", `/api/phone-numbers/${id}/forwarding-test`, { sessionId: owner.sessionId, params: { id } })).status).toBe(409);

    const wrongDigits = res.body.ownership.code === "111111" ? "222222" : "111111";
    const wrong = await call(answer, "POST", `/api/phone-numbers/${id}/ownership/answer`, { sessionId: owner.sessionId, params: { id }, body: { digits: wrongDigits } });
    expect(wrong.body).toEqual({ status: "failed" });
    expect((await call(getOne, "GET", `/api/phone-numbers/${id}`, { sessionId: owner.sessionId, params: { id } })).body.ownership).toMatchObject({ status: "failed", code: null });

    const again = await call(restart, "POST", `/api/phone-numbers/${id}/ownership`, { sessionId: owner.sessionId, params: { id } });
    expect(again.body).toMatchObject({ status: "pending", code: expect.stringMatching(/^\d{6}$/) });
    const bad = await call(answer, "POST", `/api/phone-numbers/${id}/ownership/answer`, { sessionId: owner.sessionId, params: { id }, body: { digits: "12ab" } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty("digits");
    const right = await call(answer, "POST", `/api/phone-numbers/${id}/ownership/answer`, { sessionId: owner.sessionId, params: { id }, body: { digits: again.body.code } });
    expect(right.body).toEqual({ status: "verified" });

    // Another organization cannot answer for it.
    const stranger = await registerTestUser();
    expect((await call(restart, "POST", `/api/phone-numbers/${id}/ownership`, { sessionId: stranger.sessionId, params: { id } })).status).toBe(404);
  });

  it("Test forwarding places a call to the number and reports that it arrived on the voice webhook, without a call record", async () => {
    const owner = await registerTestUser();
    const phoneNumber = own();
    const res = await call(create, "POST", "/api/phone-numbers", { sessionId: owner.sessionId, body: { friendlyName: "Main line", isActive: true, mode: "existing", phoneNumber } });
    const id = res.body.id as string;
    await call(answer, "POST", `/api/phone-numbers/${id}/ownership/answer`, { sessionId: owner.sessionId, params: { id }, body: { digits: res.body.ownership.code } });

    const test = await call(forwardingTest, "POST", `/api/phone-numbers/${id}/forwarding-test`, { sessionId: owner.sessionId, params: { id } });
    expect(test.status).toBe(200);
    const after = await call(getOne, "GET", `/api/phone-numbers/${id}`, { sessionId: owner.sessionId, params: { id } });
    expect(after.body.forwardingTest).toMatchObject({ arrived: true, arrivedAt: expect.any(String) });
    const db = await getDb();
    expect(await db.select().from(calls).where(eq(calls.toNumber, phoneNumber))).toHaveLength(0);
  });
});

describe("POST /api/telephony/verification (Twilio's caller-ID verification callback)", () => {
  it("verifies only with the account's signature", async () => {
    const owner = await registerTestUser();
    const res = await call(create, "POST", "/api/phone-numbers", { sessionId: owner.sessionId, body: { friendlyName: "Shop", isActive: true, mode: "existing", phoneNumber: own() } });
    const id = res.body.id as string;
    const url = `http://localhost:3000/api/telephony/verification?numberId=${id}`;
    const account = await simulatedAccount(await getDb(), owner.organizationId);
    const params = { AccountSid: account.accountSid, VerificationStatus: "success", To: res.body.phoneNumber };
    const form = new URLSearchParams(params).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded" };

    const forged = await call(verificationHook, "POST", `/api/telephony/verification?numberId=${id}`, { rawBody: form, headers: { ...headers, "x-twilio-signature": twilioSignature("wrong-token", url, params) } });
    expect(forged.status).toBe(403);
    expect((await call(getOne, "GET", `/api/phone-numbers/${id}`, { sessionId: owner.sessionId, params: { id } })).body.ownership.status).toBe("pending");

    const signed = await call(verificationHook, "POST", `/api/telephony/verification?numberId=${id}`, { rawBody: form, headers: { ...headers, "x-twilio-signature": twilioSignature(account.authToken, url, params) } });
    expect(signed.status).toBe(200);
    expect((await call(getOne, "GET", `/api/phone-numbers/${id}`, { sessionId: owner.sessionId, params: { id } })).body.ownership.status).toBe("verified");
  });
});
