/**
 * A2P 10DLC (docs/compliance.md#a2p-10dlc): the organization's messaging registration, submitted to
 * the simulated carrier (approved by a job after a delay) or to Twilio's API (its local fake); until
 * approved, texts to callers wait with the reason, and go out on approval.
 */
import { and, eq } from "drizzle-orm";
import { GET as getRegistrationRoute, POST as postRegistration } from "@/app/api/compliance/messaging-registration/route";
import { POST as replyRoute } from "@/app/api/messages/[id]/reply/route";
import { POST as smsHook } from "@/app/api/telephony/sms/route";
import { messages, providerCredentials, queuedTexts } from "@/db/schema";
import { storedMessaging } from "@/lib/appointments/messaging";
import { registrationReviewJob, reviewRegistration, submitRegistration } from "@/lib/compliance/messaging-registration";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { closeDb, getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { getJobQueue } from "@/lib/jobs/queue";
import { fakeTwilioHttpClient, startFakeTwilio } from "../fakes/twilio-server";
import { carrierPost, fakeSid } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, type Business } from "../helpers/phone";

jest.setTimeout(120_000);
afterAll(() => closeDb());

const CALLER = "+15555550188";

function registration(biz: Business) {
  return callRoute(getRegistrationRoute, "GET", "/api/compliance/messaging-registration", { sessionId: biz.account.sessionId });
}

describe("on the simulated carrier", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Registered Salon");
  });

  it("texts at once while no registration was submitted (the simulated carrier registers every organization)", async () => {
    expect((await registration(biz)).body).toMatchObject({ provider: "simulated", status: "not_submitted", queuedTexts: [] });
    const sent = await storedMessaging.sendSms(await getDb(), biz.account.organizationId, { to: CALLER, body: "Your appointment is confirmed." });
    expect(sent.status).toBe("sent");
  });

  it("holds texts to callers while a submitted registration waits, shows why, and sends them when the job approves it", async () => {
    const db = await getDb();
    const bad = await callRoute(postRegistration, "POST", "/api/compliance/messaging-registration", { sessionId: biz.account.sessionId, body: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.brandName).toBeDefined();
    const submitted = await callRoute(postRegistration, "POST", "/api/compliance/messaging-registration", { sessionId: biz.account.sessionId, body: { brandName: "Registered Salon LLC" } });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({ provider: "simulated", status: "pending", brandName: "Registered Salon LLC" });
    // The review is a job due after the simulated carrier's delay.
    const pending = await (await getJobQueue()).pending(registrationReviewJob.name);
    const review = pending.find((j) => (j.data as { organizationId: string }).organizationId === biz.account.organizationId);
    expect(review).toBeDefined();
    expect(review!.startAfter.getTime()).toBeGreaterThan(Date.now() + (env.SIMULATED_A2P_REVIEW_SECONDS - 5) * 1000);

    const held = await storedMessaging.sendSms(db, biz.account.organizationId, { to: CALLER, body: "Reminder: your haircut is tomorrow at 10." });
    expect(held).toMatchObject({ status: "queued", reason: expect.stringMatching(/A2P 10DLC.*awaiting approval/) });
    expect(await db.select().from(messages).where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.body, "Reminder: your haircut is tomorrow at 10.")))).toEqual([]);
    const shown = (await registration(biz)).body;
    expect(shown.queuedTexts).toEqual([expect.objectContaining({ to: CALLER, body: "Reminder: your haircut is tomorrow at 10.", origin: "appointment", reason: held.status === "queued" ? held.reason : "" })]);

    // The owner's own reply is refused with the reason rather than sent into a carrier block.
    const inbound = await carrierPost(
      smsHook,
      "/api/telephony/sms",
      { MessageSid: fakeSid("SM"), AccountSid: biz.accountSid, From: CALLER, To: biz.phoneNumber, Body: "Can I move it to Friday?", NumMedia: "0", ApiVersion: "2010-04-01" },
      biz.authToken,
    );
    expect(inbound.status).toBe(200);
    const [text] = await db.select().from(messages).where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.body, "Can I move it to Friday?")));
    const reply = await callRoute(replyRoute, "POST", `/api/messages/${text.id}/reply`, { sessionId: biz.account.sessionId, params: { id: text.id }, body: { body: "Yes, Friday at 10 works." } });
    expect(reply.status).toBe(409);
    expect(reply.body.message).toMatch(/A2P 10DLC/);

    // What the job does when it comes due: approve, and send what waited.
    await registrationReviewJob.handler({ organizationId: biz.account.organizationId }, { db, job: {} as never });
    const after = (await registration(biz)).body;
    expect(after).toMatchObject({ status: "approved", queuedTexts: [] });
    expect(Date.parse(after.approvedAt)).not.toBeNaN();
    const [out] = await db.select().from(messages).where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.body, "Reminder: your haircut is tomorrow at 10.")));
    expect(out).toMatchObject({ direction: "outbound", toNumber: CALLER });
    expect(["sent", "delivered"]).toContain(out.status);
    const [queued] = await db.select().from(queuedTexts).where(eq(queuedTexts.organizationId, biz.account.organizationId));
    expect(queued.messageId).toBe(out.id);
    expect((await callRoute(replyRoute, "POST", `/api/messages/${text.id}/reply`, { sessionId: biz.account.sessionId, params: { id: text.id }, body: { body: "Yes, Friday at 10 works." } })).status).toBe(201);
  });
});

describe("through Twilio's API", () => {
  it("registers the brand with the Trust Hub bundles and follows its status", async () => {
    const ACCOUNT = `AC${"b".repeat(32)}`;
    const fake = await startFakeTwilio({ accountSid: ACCOUNT, authToken: "tw-token-5678" });
    try {
      const biz = await business("Twilio Salon");
      const db = await getDb();
      await db.insert(providerCredentials).values({
        id: crypto.randomUUID(),
        organizationId: biz.account.organizationId,
        provider: "twilio",
        ciphertext: encryptSecret(JSON.stringify({ accountSid: ACCOUNT, authToken: "tw-token-5678" })),
        hint: "5678",
      });
      const deps = { twilioHttpClient: fakeTwilioHttpClient(fake.url) };
      await expect(submitRegistration(db, biz.account.organizationId, { brandName: "Twilio Salon", useCase: "CUSTOMER_CARE" }, deps)).rejects.toMatchObject({
        status: 400,
        errors: { customerProfileBundleSid: expect.any(String), a2pProfileBundleSid: expect.any(String) },
      });
      const bundle = (c: string) => `BU${c.repeat(32)}`;
      const view = await submitRegistration(db, biz.account.organizationId, { brandName: "Twilio Salon", useCase: "CUSTOMER_CARE", customerProfileBundleSid: bundle("1"), a2pProfileBundleSid: bundle("2") }, deps);
      expect(fake.brands).toHaveLength(1);
      expect(fake.brands[0]).toMatchObject({ customer_profile_bundle_sid: bundle("1"), a2p_profile_bundle_sid: bundle("2") });
      expect(view).toMatchObject({ provider: "twilio", status: "pending", brandSid: fake.brands[0].sid });
      await reviewRegistration(db, biz.account.organizationId, deps);
      expect((await registration(biz)).body.status).toBe("pending");
      fake.brands[0].status = "FAILED";
      fake.brands[0].failure_reason = "Brand name does not match the EIN";
      await reviewRegistration(db, biz.account.organizationId, deps);
      expect((await registration(biz)).body).toMatchObject({ status: "rejected", reason: "Brand name does not match the EIN" });
    } finally {
      await fake.close();
    }
  });
});
