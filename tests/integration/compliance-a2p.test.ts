/**
 * A2P 10DLC (docs/compliance.md#a2p-10dlc): the organization's messaging registration, submitted to
 * the simulated carrier (approved by a job after a delay) or to Twilio's API (its local fake); until
 * approved, texts to callers wait with the reason, and go out on approval.
 */
import { and, eq } from "drizzle-orm";
import { GET as getRegistrationRoute, POST as postRegistration } from "@/app/api/compliance/messaging-registration/route";
import { POST as replyRoute } from "@/app/api/messages/[id]/reply/route";
import { GET as getMessage } from "@/app/api/messages/[id]/route";
import { assistantActions, messages, messagingRegistrations, phoneNumbers, queuedTexts } from "@/db/schema";
import { storedMessaging } from "@/lib/scheduling/messaging";
import { a2pApplies, registrationReviewJob, releaseQueuedTextsJob, reviewRegistration, submitRegistration } from "@/lib/compliance/messaging-registration";
import { closeDb, getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { enqueue, getJobQueue } from "@/lib/platform/jobs/queue";
import { runDueJobs } from "@/lib/platform/jobs/runner";
import { sendOptOutConfirmation, sendText } from "@/lib/phone/messages/send-text";
import { SMS_TEXTS } from "@/lib/channels/phone-line/sms";
import { fakeTwilioHttpClient, startFakeTwilio } from "../fakes/twilio-server";
import { call as callRoute } from "../helpers/http";
import { business, saveTwilioKeys, textFrom, type Business } from "../helpers/phone";

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
    const inbound = await textFrom(biz, CALLER, "Can I move it to Friday?");
    expect(inbound.status).toBe(200);
    // The assistant's reply is not put in the TwiML (carriers would block it): it waits, with the reason.
    expect(inbound.verbs).toEqual([]);
    const [text] = await db.select().from(messages).where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.body, "Can I move it to Friday?")));
    const heldReply = (await registration(biz)).body.queuedTexts.find((q: { origin: string }) => q.origin === "sms_reply");
    expect(heldReply).toMatchObject({ to: CALLER, body: expect.any(String), reason: expect.stringMatching(/A2P 10DLC/) });
    expect(await db.select().from(messages).where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.replyToId, text.id)))).toEqual([]);
    // The owner sees it in the thread, waiting, with why; and on the text, the held reply.
    const detail = await callRoute(getMessage, "GET", `/api/messages/${text.id}`, { sessionId: biz.account.sessionId, params: { id: text.id } });
    // (the appointment reminder to the same contact from the same number waits there too)
    expect(detail.body.thread.held.map((h: { body: string }) => h.body)).toEqual(["Reminder: your haircut is tomorrow at 10.", heldReply.body]);
    expect(detail.body.thread.held[1].reason).toBe(heldReply.reason);
    const [heldAction] = await db.select().from(assistantActions).where(and(eq(assistantActions.messageId, text.id), eq(assistantActions.type, "reply_held")));
    expect(heldAction.detail).toMatchObject({ contact: CALLER, reason: heldReply.reason });
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
    const queued = await db.select().from(queuedTexts).where(eq(queuedTexts.organizationId, biz.account.organizationId));
    expect(queued.find((q) => q.origin === "appointment")!.messageId).toBe(out.id);
    // The held reply went into the thread as the assistant's answer to the text it replies to.
    const [answered] = await db.select().from(messages).where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.replyToId, text.id)));
    expect(answered).toMatchObject({ direction: "outbound", toNumber: CALLER, body: heldReply.body, sentBy: "assistant", threadId: text.threadId });
    expect((await callRoute(getMessage, "GET", `/api/messages/${text.id}`, { sessionId: biz.account.sessionId, params: { id: text.id } })).body.thread.held).toEqual([]);
    expect((await callRoute(replyRoute, "POST", `/api/messages/${text.id}/reply`, { sessionId: biz.account.sessionId, params: { id: text.id }, body: { body: "Yes, Friday at 10 works." } })).status).toBe(201);
  });
});

describe("replies held for the registration", () => {
  it("a reply that waited is not sent to a contact who opted out meanwhile; their STOP confirmation is; the release is a job", async () => {
    const biz = await business("Waiting Salon");
    const db = await getDb();
    await submitRegistration(db, biz.account.organizationId, { brandName: "Waiting Salon LLC", useCase: "CUSTOMER_CARE" });
    const from = "+15555550177";
    const text = (body: string) => textFrom(biz, from, body);
    expect((await text("What are your opening hours?")).verbs).toEqual([]);
    expect((await text("STOP")).verbs).toEqual([]);
    const waiting = (await registration(biz)).body.queuedTexts;
    expect(waiting.map((q: { origin: string }) => q.origin)).toEqual(["sms_reply", "opt_out_confirmation"]);

    // Approved at once (as Twilio may answer): the release is queued as a job, not done in the request.
    await db.update(messagingRegistrations).set({ status: "approved", approvedAt: new Date() }).where(eq(messagingRegistrations.organizationId, biz.account.organizationId));
    await enqueue(db, releaseQueuedTextsJob, { organizationId: biz.account.organizationId });
    await runDueJobs({ definitions: [releaseQueuedTextsJob as never], schedules: false });
    const rows = await db.select().from(queuedTexts).where(eq(queuedTexts.organizationId, biz.account.organizationId));
    const reply = rows.find((q) => q.origin === "sms_reply")!;
    expect(reply).toMatchObject({ sentAt: null, messageId: null, cancelReason: `${from} opted out while the text waited: not sent.` });
    expect(reply.cancelledAt).not.toBeNull();
    const confirmation = rows.find((q) => q.origin === "opt_out_confirmation")!;
    const [sent] = await db.select().from(messages).where(eq(messages.id, confirmation.messageId!));
    expect(sent).toMatchObject({ toNumber: from, body: SMS_TEXTS.stopped, sentBy: "system", intent: "opt_out" });
    expect(await db.select().from(messages).where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.direction, "outbound")))).toHaveLength(1);
    expect((await registration(biz)).body.queuedTexts).toEqual([]);
  });

  it("an opt-out's confirmation from a call or an agent waits too, instead of being lost", async () => {
    const biz = await business("Waiting Clinic");
    const db = await getDb();
    await submitRegistration(db, biz.account.organizationId, { brandName: "Waiting Clinic LLC", useCase: "CUSTOMER_CARE" });
    const to = "+15555550179";
    await expect(sendOptOutConfirmation(db, biz.account.organizationId, { to, body: "Waiting Clinic: you're opted out." })).resolves.toMatchObject({ held: true, reason: expect.stringMatching(/A2P 10DLC/) });
    expect((await registration(biz)).body.queuedTexts).toEqual([expect.objectContaining({ to, origin: "opt_out_confirmation" })]);
    // A text someone types is refused with the reason instead (409), nothing queued.
    await expect(sendText(db, biz.account.organizationId, { to: "+15555550180", body: "Hello" })).rejects.toMatchObject({ status: 409 });
    expect((await registration(biz)).body.queuedTexts).toHaveLength(1);
  });

  it("applies to US 10-digit long codes only: a toll-free number answers at once", async () => {
    expect(a2pApplies({ phoneNumber: "+14155550100", provider: "twilio" })).toBe(true);
    expect(a2pApplies({ phoneNumber: "+14155550100", provider: "simulated" })).toBe(true);
    expect(a2pApplies({ phoneNumber: "+18885550100", provider: "twilio" })).toBe(false);
    expect(a2pApplies({ phoneNumber: "+442071234567", provider: "twilio" })).toBe(false);
    const biz = await business("Toll Free Salon");
    const db = await getDb();
    const tollFree = `+1888555${String(Date.now()).slice(-4)}`;
    await db.update(phoneNumbers).set({ phoneNumber: tollFree }).where(eq(phoneNumbers.id, biz.numberId));
    await submitRegistration(db, biz.account.organizationId, { brandName: "Toll Free Salon LLC", useCase: "CUSTOMER_CARE" });
    const res = await textFrom({ ...biz, phoneNumber: tollFree }, "+15555550178", "What are your opening hours?");
    expect(res.verbs.map((v) => v.name)).toEqual(["Message"]);
    expect((await registration(biz)).body.queuedTexts).toEqual([]);
  });
});

describe("through Twilio's API", () => {
  it("registers the brand with the Trust Hub bundles and follows its status", async () => {
    const ACCOUNT = `AC${"b".repeat(32)}`;
    const fake = await startFakeTwilio({ accountSid: ACCOUNT, authToken: "tw-token-5678" });
    try {
      const biz = await business("Twilio Salon");
      const db = await getDb();
      await saveTwilioKeys(biz, ACCOUNT, "tw-token-5678");
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
