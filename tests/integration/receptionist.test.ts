/**
 * The receptionist's follow-up through signed webhooks: a transfer nobody answers → the assistant
 * takes a message → a task → a text-back (never to an opted-out caller) → the owner's notice per the
 * notification switches; the daily recap at the organization's local time (a fixed clock);
 * caller memory and "forget me", which stays erased.
 */
import { and, eq } from "drizzle-orm";
import { DELETE as forgetMemory } from "@/app/api/contacts/[id]/memory/route";
import { GET as listContactsRoute } from "@/app/api/contacts/route";
import { GET as listEmailsRoute } from "@/app/api/emails/route";
import { GET as listNotificationsRoute } from "@/app/api/notifications/route";
import { PUT as putTextBack } from "@/app/api/phone-numbers/[id]/text-back/route";
import { GET as listRecapsRoute } from "@/app/api/recaps/route";
import { POST as runRecapRoute } from "@/app/api/recaps/run/route";
import { PUT as putRecapSettings } from "@/app/api/recaps/settings/route";
import { PUT as putNotifications } from "@/app/api/settings/notifications/route";
import { PATCH as patchTask } from "@/app/api/tasks/[id]/route";
import { GET as listTasksRoute } from "@/app/api/tasks/route";
import { POST as smsHook } from "@/app/api/telephony/sms/route";
import { POST as statusHook } from "@/app/api/telephony/status/route";
import { POST as dialHook } from "@/app/api/telephony/voice/dial/route";
import { assistantActions, callFollowUps, calls, contacts, emails, knowledgeGaps, messages, organizations, tasks } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { runDueRecaps } from "@/lib/receptionist/recaps";
import { finishCallJob } from "@/lib/channels/phone-line/voice/post-call";
import { carrierPost, fakeSid, find, pathOf } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { runJobsUntil } from "../helpers/jobs";
import { business, callParams, callRow, say, type Business } from "../helpers/phone";

jest.setTimeout(120_000);
afterAll(() => closeDb());

async function finished(callId: string) {
  await runJobsUntil([finishCallJob], async () => {
    const db = await getDb();
    const [row] = await db.select().from(callFollowUps).where(eq(callFollowUps.callId, callId));
    return Boolean(row?.notifiedAt);
  });
}

async function tasksOf(biz: Business, status = "all") {
  const res = await callRoute(listTasksRoute, "GET", `/api/tasks?status=${status}`, { sessionId: biz.account.sessionId });
  expect(res.status).toBe(200);
  return res.body;
}

function textFrom(biz: Business, from: string, body: string) {
  return carrierPost(
    smsHook,
    "/api/telephony/sms",
    { MessageSid: fakeSid("SM"), AccountSid: biz.accountSid, From: from, To: biz.phoneNumber, Body: body, NumMedia: "0", ApiVersion: "2010-04-01" },
    biz.authToken,
  );
}

/** A call where the transfer rings out and the caller leaves a message with the assistant. */
async function missedTransferWithMessage(biz: Business, from: string, message: string) {
  const callSid = fakeSid("CA");
  const params = (extra: Record<string, string> = {}) => callParams(biz, callSid, { From: from, CallerName: "", ...extra });
  const { POST: voiceHook } = await import("@/app/api/telephony/voice/route");
  const start = await carrierPost(voiceHook, "/api/telephony/voice", params(), biz.authToken);
  const turn = await say(biz, callSid, start.verbs[0].attrs.action, "Can I talk to a person please?", { From: from, CallerName: "" });
  const dial = find(turn.verbs, "Dial")!;
  expect(dial).toBeDefined();
  const noAnswer = await carrierPost(dialHook, pathOf(dial.attrs.action), params({ DialCallStatus: "no-answer", CallerName: "" }), biz.authToken);
  expect(noAnswer.verbs.map((v) => v.name)).toEqual(["Gather"]);
  const taken = await say(biz, callSid, noAnswer.verbs[0].attrs.action, message, { From: from, CallerName: "" });
  await say(biz, callSid, taken.verbs[0].attrs.action, "No, that's all. Bye!", { From: from, CallerName: "" });
  await carrierPost(statusHook, "/api/telephony/status", params({ CallStatus: "completed", CallDuration: "70" }), biz.authToken);
  const row = await callRow(callSid);
  await finished(row.id);
  return row;
}

describe("a transfer nobody answers → message → task → text-back → owner's notice", () => {
  let biz: Business;
  beforeAll(async () => {
    biz = await business("Harbor Cleaning", { forwardTo: "+15035550100" });
  });

  it("makes a task with who, what and the call, texts the caller back, and tells the owner in the app", async () => {
    const caller = "+15555550161";
    const row = await missedTransferWithMessage(biz, caller, "This is Maria Lopez, please call me back about a quote for a deep cleaning");
    const { tasks: list, counts } = await tasksOf(biz, "open");
    expect(counts.open).toBe(1);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      kind: "message",
      contactNumber: caller,
      contactName: "Maria Lopez",
      callId: row.id,
      link: `/call-history?call=${row.id}`,
      status: "open",
      // The ask that led to the transfer starts the message: whoever they asked for is part of it.
      detail: "Can I talk to a person please? — This is Maria Lopez, please call me back about a quote for a deep cleaning",
    });
    expect(list[0].title).toMatch(/^Call back Maria Lopez \(\+15555550161\) about: ".*quote for a deep cleaning"/);

    const db = await getDb();
    const texts = await db.select().from(messages).where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.toNumber, caller)));
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ direction: "outbound", intent: "text_back", status: "sent", fromNumber: biz.phoneNumber });
    expect(texts[0].body).toContain("Thanks for calling Harbor Cleaning");
    const actions = await db.select().from(assistantActions).where(and(eq(assistantActions.callId, row.id), eq(assistantActions.type, "texted_back")));
    expect(actions).toHaveLength(1);

    const inbox = await callRoute(listNotificationsRoute, "GET", "/api/notifications", { sessionId: biz.account.sessionId });
    expect(inbox.body.notifications).toHaveLength(1);
    expect(inbox.body.notifications[0]).toMatchObject({ kind: "call.message", title: "Maria Lopez (+15555550161) left a message with the assistant", link: "/tasks" });
    expect(inbox.body.notifications[0].body).toContain("A text-back went to +15555550161.");
    // A message is an alert e-mailed by default (issue 30): without SMTP it waits in the Outbox.
    const outbox = await callRoute(listEmailsRoute, "GET", "/api/emails", { sessionId: biz.account.sessionId });
    expect(outbox.body.smtpConfigured).toBe(false);
    expect(outbox.body.emails).toHaveLength(1);
    expect(outbox.body.emails[0]).toMatchObject({ kind: "call.message", status: "outbox", subject: "Maria Lopez (+15555550161) left a message with the assistant" });

    // Running the job again makes no second task, text or notice.
    const { finishCall } = await import("@/lib/channels/phone-line/voice/post-call");
    await finishCall(db, { callId: row.id, organizationId: row.organizationId });
    expect((await tasksOf(biz)).tasks).toHaveLength(1);
    expect(await db.select().from(messages).where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.toNumber, caller)))).toHaveLength(1);
  });

  it("PATCH /api/tasks/{id}: done, snoozed, assigned; bad input names the field; another organization gets 404", async () => {
    const [task] = (await tasksOf(biz, "all")).tasks;
    const patch = (body: unknown, sessionId = biz.account.sessionId) => callRoute(patchTask, "PATCH", `/api/tasks/${task.id}`, { sessionId, params: { id: task.id }, body });
    const snoozed = await patch({ status: "snoozed", snoozedUntil: new Date(Date.now() + 3_600_000).toISOString() });
    expect(snoozed.status).toBe(200);
    expect(snoozed.body.status).toBe("snoozed");
    expect((await tasksOf(biz, "open")).tasks).toHaveLength(0);
    const assigned = await patch({ assigneeId: biz.account.id });
    expect(assigned.body).toMatchObject({ assigneeId: biz.account.id, assigneeName: expect.any(String) });
    const done = await patch({ status: "done" });
    expect(done.body).toMatchObject({ status: "done", doneAt: expect.any(String), snoozedUntil: null });
    const bad = await patch({ status: "finished" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("status");
    const stranger = await patch({ assigneeId: "someone-else" });
    expect(stranger.status).toBe(400);
    expect(JSON.stringify(stranger.body)).toContain("assigneeId");
    const other = await business("Other Org");
    expect((await patch({ status: "open" }, other.account.sessionId)).status).toBe(404);
  });

  it("never texts back a caller who opted out, and a number with text-back off sends none", async () => {
    const caller = "+15555550162";
    expect((await textFrom(biz, caller, "STOP")).status).toBe(200);
    const db = await getDb();
    const missedSid = fakeSid("CA");
    await carrierPost(statusHook, "/api/telephony/status", callParams(biz, missedSid, { From: caller, CallStatus: "no-answer", CallerName: "" }), biz.authToken);
    const missed = await callRow(missedSid);
    await finished(missed.id);
    const [follow] = await db.select().from(callFollowUps).where(eq(callFollowUps.callId, missed.id));
    expect(follow.textBack).toBe("opted_out");
    const outbound = await db
      .select()
      .from(messages)
      .where(and(eq(messages.organizationId, biz.account.organizationId), eq(messages.toNumber, caller), eq(messages.intent, "text_back")));
    expect(outbound).toHaveLength(0);
    const missedTask = (await tasksOf(biz, "open")).tasks.find((t: { callId: string }) => t.callId === missed.id);
    expect(missedTask).toMatchObject({ kind: "callback", title: `Call back ${caller}: missed call` });

    const off = await callRoute(putTextBack, "PUT", `/api/phone-numbers/${biz.numberId}/text-back`, {
      sessionId: biz.account.sessionId,
      params: { id: biz.numberId },
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    const otherSid = fakeSid("CA");
    await carrierPost(statusHook, "/api/telephony/status", callParams(biz, otherSid, { From: "+15555550163", CallStatus: "busy", CallerName: "" }), biz.authToken);
    const other = await callRow(otherSid);
    await finished(other.id);
    const [f2] = await db.select().from(callFollowUps).where(eq(callFollowUps.callId, other.id));
    expect(f2.textBack).toBe("disabled");
    const badTemplate = await callRoute(putTextBack, "PUT", `/api/phone-numbers/${biz.numberId}/text-back`, {
      sessionId: biz.account.sessionId,
      params: { id: biz.numberId },
      body: { template: "" },
    });
    expect(badTemplate.status).toBe(400);
    expect(JSON.stringify(badTemplate.body)).toContain("template");
  });
});

describe("notification switches", () => {
  it("e-mail on → an e-mail in the outbox; call alerts off → no in-app notice and no e-mail", async () => {
    const biz = await business("Switch Dental");
    const db = await getDb();
    const set = (body: unknown) => callRoute(putNotifications, "PUT", "/api/settings/notifications", { sessionId: biz.account.sessionId, body });
    expect((await set({ emailNotifications: true, callAlerts: true })).status).toBe(200);
    const first = fakeSid("CA");
    await carrierPost(statusHook, "/api/telephony/status", callParams(biz, first, { From: "+15555550171", CallStatus: "no-answer", CallerName: "" }), biz.authToken);
    await finished((await callRow(first)).id);
    const outbox = await callRoute(listEmailsRoute, "GET", "/api/emails", { sessionId: biz.account.sessionId });
    expect(outbox.body.emails).toHaveLength(1);
    expect(outbox.body.emails[0]).toMatchObject({ to: biz.account.email, status: "outbox", subject: "Missed call from +15555550171" });
    expect(outbox.body.emails[0].html).toContain("/tasks");

    expect((await set({ callAlerts: false })).status).toBe(200);
    const second = fakeSid("CA");
    await carrierPost(statusHook, "/api/telephony/status", callParams(biz, second, { From: "+15555550172", CallStatus: "no-answer", CallerName: "" }), biz.authToken);
    await finished((await callRow(second)).id);
    const inbox = await callRoute(listNotificationsRoute, "GET", "/api/notifications", { sessionId: biz.account.sessionId });
    expect(inbox.body.notifications.map((n: { title: string }) => n.title)).toEqual(["Missed call from +15555550171"]);
    expect(await db.select().from(emails).where(eq(emails.organizationId, biz.account.organizationId))).toHaveLength(1);
    // The task is made regardless of the switches.
    expect((await db.select().from(tasks).where(eq(tasks.organizationId, biz.account.organizationId))).length).toBe(2);
  });
});

describe("daily recap", () => {
  it("is built at the organization's local time with every figure counted and linked, once per local date", async () => {
    const biz = await business("Recap Plumbing");
    const org = biz.account.organizationId;
    const db = await getDb();
    await db.update(organizations).set({ businessProfile: { timezone: "America/New_York" } }).where(eq(organizations.id, org));
    const settings = await callRoute(putRecapSettings, "PUT", "/api/recaps/settings", { sessionId: biz.account.sessionId, body: { localTime: "18:30" } });
    expect(settings.body).toEqual({ enabled: true, localTime: "18:30", timezone: "America/New_York" });
    expect((await callRoute(putRecapSettings, "PUT", "/api/recaps/settings", { sessionId: biz.account.sessionId, body: { localTime: "25:00" } })).status).toBe(400);
    await callRoute(putNotifications, "PUT", "/api/settings/notifications", { sessionId: biz.account.sessionId, body: { emailNotifications: true } });

    // 2026-07-14 18:30 in New York (EDT, UTC−4) is 22:30 UTC.
    const at = new Date("2026-07-14T22:30:00Z");
    const hoursBefore = (h: number) => new Date(at.getTime() - h * 3_600_000);
    const base = { organizationId: org, direction: "inbound" as const, toNumber: biz.phoneNumber, phoneNumberId: biz.numberId };
    const answered = crypto.randomUUID();
    const missed = crypto.randomUUID();
    const spam = crypto.randomUUID();
    await db.insert(calls).values([
      { ...base, id: answered, fromNumber: "+15555550181", status: "completed", outcome: "answered_by_assistant", startedAt: hoursBefore(2), summary: "Asked about opening hours." },
      { ...base, id: missed, fromNumber: "+15555550182", status: "missed", outcome: "missed", startedAt: hoursBefore(5) },
      { ...base, id: spam, fromNumber: "+15555550183", status: "completed", outcome: "answered_by_assistant", isSpam: true, startedAt: hoursBefore(1) },
      // Outside the 24 hours: not counted.
      { ...base, id: crypto.randomUUID(), fromNumber: "+15555550184", status: "missed", outcome: "missed", startedAt: hoursBefore(30) },
    ]);
    await db.insert(tasks).values({ id: crypto.randomUUID(), organizationId: org, kind: "callback", title: "Call back +15555550182: missed call", contactNumber: "+15555550182", callId: missed, sourceKey: `test:${missed}`, createdAt: hoursBefore(4) });
    await db.insert(knowledgeGaps).values({ id: crypto.randomUUID(), organizationId: org, question: "Do you fix boilers?", questionKey: "do you fix boilers", firstAskedAt: hoursBefore(3), lastAskedAt: hoursBefore(3) });

    // A minute before the chosen time: nothing; at it: the recap; again: no second one.
    expect(await runDueRecaps(db, new Date(at.getTime() - 60_000))).not.toContain(org);
    expect(await runDueRecaps(db, at)).toContain(org);
    expect(await runDueRecaps(db, new Date(at.getTime() + 60_000))).not.toContain(org);

    const list = await callRoute(listRecapsRoute, "GET", "/api/recaps", { sessionId: biz.account.sessionId });
    expect(list.body.recaps).toHaveLength(1);
    const recap = list.body.recaps[0];
    expect(recap.date).toBe("2026-07-14");
    expect(recap.deliveredTo).toEqual(expect.arrayContaining(["in_app", "email"]));
    const c = recap.content;
    expect(c.timezone).toBe("America/New_York");
    expect(c.answered).toMatchObject({ count: 1, link: "/call-history?type=call" });
    expect(c.answered.lines[0]).toEqual({ text: "+15555550181: answered by the assistant — Asked about opening hours.", link: `/call-history?call=${answered}` });
    expect(c.missed.count).toBe(1);
    expect(c.missed.lines[0].link).toBe(`/call-history?call=${missed}`);
    expect(c.spamBlocked).toMatchObject({ count: 1, lines: [{ text: "Call from +15555550183", link: `/call-history?call=${spam}` }] });
    expect(c.newTasks.count).toBe(1);
    expect(c.knowledgeGaps).toMatchObject({ count: 1, lines: [{ text: "Do you fix boilers?" }] });
    expect(c.bookings.count).toBe(0);

    const mail = await db.select().from(emails).where(and(eq(emails.organizationId, org), eq(emails.kind, "recap")));
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe("Daily recap for Recap Plumbing, 2026-07-14");
    expect(mail[0].html).toContain(`/call-history?call=${missed}`);
    expect(mail[0].text).toContain("Missed calls: 1");

    // Run now: today's recap for the real clock.
    const now = await callRoute(runRecapRoute, "POST", "/api/recaps/run", { sessionId: biz.account.sessionId });
    expect(now.status).toBe(201);
    expect(now.body.content.answered.count).toBe(0);
  });
});

describe("caller memory and forget-me", () => {
  it("welcomes a known caller back by name, and after forget-me never again, even when they give their name anew", async () => {
    const biz = await business("Memory Dental", { forwardTo: "+15035550100" });
    const caller = "+15555550191";
    await missedTransferWithMessage(biz, caller, "Hi, this is Maria, please call me back about Tuesday's cleaning. I prefer afternoon appointments.");

    const contactsRes = await callRoute(listContactsRoute, "GET", "/api/contacts", { sessionId: biz.account.sessionId });
    const contact = contactsRes.body.contacts.find((c: { phone: string }) => c.phone === caller);
    expect(contact).toMatchObject({ name: "Maria", forgotten: false, preferences: ["I prefer afternoon appointments"] });
    expect(contact.pastCalls).toHaveLength(1);
    expect(contact.openTasks).toHaveLength(1);

    const { POST: voiceHook } = await import("@/app/api/telephony/voice/route");
    const again = fakeSid("CA");
    await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, again, { From: caller, CallerName: "" }), biz.authToken);
    expect((await callRow(again)).transcript[0].text).toMatch(/^Welcome back, Maria\. Is this about Tuesday.s cleaning\?/);

    const erased = await callRoute(forgetMemory, "DELETE", `/api/contacts/${contact.id}/memory`, { sessionId: biz.account.sessionId, params: { id: contact.id } });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ name: null, preferences: [], forgotten: true, pastCalls: [], openTasks: [] });

    // She calls again and introduces herself: nothing is remembered.
    await missedTransferWithMessage(biz, caller, "Hi, this is Maria again, I prefer mornings now");
    const third = fakeSid("CA");
    await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, third, { From: caller, CallerName: "" }), biz.authToken);
    expect((await callRow(third)).transcript[0].text).not.toMatch(/Welcome back/);
    const db = await getDb();
    const [row] = await db.select().from(contacts).where(and(eq(contacts.organizationId, biz.account.organizationId), eq(contacts.phone, caller)));
    expect(row).toMatchObject({ name: null, preferences: [] });
    expect(row.forgottenAt).not.toBeNull();

    const other = await business("Other Memory");
    expect((await callRoute(forgetMemory, "DELETE", `/api/contacts/${contact.id}/memory`, { sessionId: other.account.sessionId, params: { id: contact.id } })).status).toBe(404);
  });

  it("a caller who texts “forget me” is erased and told so", async () => {
    const biz = await business("Text Forget");
    const caller = "+15555550192";
    await textFrom(biz, caller, "Hi, this is Tomas, do you open on Saturdays?");
    const db = await getDb();
    let [row] = await db.select().from(contacts).where(and(eq(contacts.organizationId, biz.account.organizationId), eq(contacts.phone, caller)));
    expect(row.name).toBe("Tomas");
    const res = await textFrom(biz, caller, "Please forget me");
    expect(res.text).toContain("erased what it remembered about you");
    [row] = await db.select().from(contacts).where(and(eq(contacts.organizationId, biz.account.organizationId), eq(contacts.phone, caller)));
    expect(row).toMatchObject({ name: null });
    await textFrom(biz, caller, "This is Tomas again");
    [row] = await db.select().from(contacts).where(and(eq(contacts.organizationId, biz.account.organizationId), eq(contacts.phone, caller)));
    expect(row.name).toBeNull();
  });
});
