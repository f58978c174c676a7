/**
 * Erasure that is complete (docs/compliance.md#erasure), on the simulated carrier: an owner's
 * recorded request and the caller's own "forget me" (by text, during a call) erase every record that
 * names the caller, keep the counts, and leave a certificate that downloads as CSV and JSON.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { GET as getCertificate } from "@/app/api/compliance/erasures/[id]/route";
import { GET as listCertificates } from "@/app/api/compliance/erasures/route";
import { POST as eraseRoute } from "@/app/api/contacts/[id]/erasure/route";
import { GET as listContacts } from "@/app/api/contacts/route";
import { POST as smsHook } from "@/app/api/telephony/sms/route";
import { POST as statusHook } from "@/app/api/telephony/status/route";
import { audioClips, calls, contacts, integrationConnections, messages, tasks, webhookDeliveries } from "@/db/schema";
import { createFilesystemBlobStore, getBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { closeDb, getDb } from "@/lib/platform/database";
import { saveAudioClip } from "@/lib/phone/voice/audio-clips";
import { carrierPost, fakeSid, find } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, callParams, callRow, say, startCall, type Business } from "../helpers/phone";

jest.setTimeout(120_000);

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-erasure-"));
beforeAll(() => setBlobStore(createFilesystemBlobStore(blobDir)));
afterAll(async () => {
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});

const CALLER = "+15555550123"; // callParams' caller
const OTHER = "+15555550166";

function text(biz: Business, from: string, body: string) {
  return carrierPost(
    smsHook,
    "/api/telephony/sms",
    { MessageSid: fakeSid("SM"), AccountSid: biz.accountSid, From: from, To: biz.phoneNumber, Body: body, NumMedia: "0", ApiVersion: "2010-04-01" },
    biz.authToken,
  );
}

async function endCall(biz: Business, callSid: string) {
  const res = await carrierPost(statusHook, "/api/telephony/status", callParams(biz, callSid, { CallStatus: "completed", CallDuration: "40" }), biz.authToken);
  expect(res.status).toBe(200);
}

/** A caller with a call (transcript and a recording), texts, a task, and a webhook delivery that quotes them. */
async function historyOf(biz: Business, from: string) {
  const db = await getDb();
  const { callSid, res } = await startCall(biz, fakeSid("CA"));
  if (from !== CALLER) throw new Error("startCall places calls from CALLER");
  await say(biz, callSid, find(res.verbs, "Gather")!.attrs.action, "Hi, this is Maria Lopez. What are your opening hours?");
  await endCall(biz, callSid);
  const call = await callRow(callSid);
  const clip = await saveAudioClip(db, getBlobStore(), { organizationId: biz.account.organizationId, audio: Buffer.from("RIFF-recording"), contentType: "audio/wav", durationMs: 1000, source: "recording" });
  await db.update(calls).set({ recordingUrl: `/api/audio/${clip.id}`, summary: "Maria Lopez asked about opening hours." }).where(eq(calls.id, call.id));
  expect((await text(biz, from, "Hi, this is Maria Lopez. Can someone call me back about my crown?")).status).toBe(200);
  const [connection] = await db
    .insert(integrationConnections)
    .values({ id: crypto.randomUUID(), organizationId: biz.account.organizationId, integration: "webhooks", config: { url: "https://example.com/hook" } })
    .returning();
  await db.insert(webhookDeliveries).values({ id: crypto.randomUUID(), organizationId: biz.account.organizationId, connectionId: connection.id, event: "call.completed", payload: { from, summary: "Maria Lopez asked about opening hours." } });
  return { callId: call.id, clip };
}

describe("an owner's erasure request", () => {
  let biz: Business;
  let certificateId: string;
  beforeAll(async () => {
    biz = await business("Erasing Dental");
  });

  it("erases every record naming the caller, keeps the counts and the other callers, and answers a certificate", async () => {
    const db = await getDb();
    const { callId, clip } = await historyOf(biz, CALLER);
    expect((await text(biz, OTHER, "Do you take walk-ins?")).status).toBe(200);
    const callsBefore = await db.select({ id: calls.id }).from(calls).where(eq(calls.organizationId, biz.account.organizationId));
    const textsBefore = await db.select({ id: messages.id }).from(messages).where(eq(messages.organizationId, biz.account.organizationId));
    const openTask = await db.select().from(tasks).where(and(eq(tasks.organizationId, biz.account.organizationId), eq(tasks.contactNumber, CALLER)));
    expect(openTask.length).toBeGreaterThan(0);

    const list = await callRoute(listContacts, "GET", "/api/contacts", { sessionId: biz.account.sessionId });
    const contact = list.body.contacts.find((c: { phone: string }) => c.phone === CALLER);
    expect(contact.name).toBe("Maria Lopez");

    const refused = await callRoute(eraseRoute, "POST", `/api/contacts/${contact.id}/erasure`, { sessionId: biz.account.sessionId, params: { id: contact.id }, body: {} });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.confirm).toBeDefined();

    const res = await callRoute(eraseRoute, "POST", `/api/contacts/${contact.id}/erasure`, { sessionId: biz.account.sessionId, params: { id: contact.id }, body: { confirm: true } });
    expect(res.status).toBe(201);
    certificateId = res.body.id;
    expect(res.body).toMatchObject({ subject: "•••• 0123", requestedVia: "owner", requestedBy: biz.account.id });
    expect(res.body.erased).toMatchObject({ calls: 1, transcripts: 1, recordings: 1, contacts: 1, webhookPayloads: 1 });
    expect(res.body.erased.texts).toBeGreaterThanOrEqual(2); // the text and the assistant's reply
    expect(res.body.erased.tasks).toBe(openTask.length);

    // What named the caller is gone …
    const [call] = await db.select().from(calls).where(eq(calls.id, callId));
    expect(call).toMatchObject({ transcript: [], summary: null, recordingUrl: null, fromNumber: "erased", callerName: null });
    expect(await db.select().from(audioClips).where(eq(audioClips.id, clip.id))).toEqual([]);
    expect(fs.existsSync(path.join(blobDir, clip.storageKey))).toBe(false);
    const texts = await db.select().from(messages).where(eq(messages.organizationId, biz.account.organizationId));
    expect(texts.filter((m) => m.fromNumber === CALLER || m.toNumber === CALLER)).toEqual([]);
    expect(texts.filter((m) => /Maria|crown/.test(m.body))).toEqual([]);
    const erasedTasks = await db.select().from(tasks).where(and(eq(tasks.organizationId, biz.account.organizationId), eq(tasks.contactNumber, "erased")));
    expect(erasedTasks).toHaveLength(openTask.length);
    expect(erasedTasks.every((t) => t.detail === "" && t.contactName === null && !/Maria|crown/.test(t.title))).toBe(true);
    const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.organizationId, biz.account.organizationId));
    expect(delivery.payload).toEqual({ erased: true });
    const [row] = await db.select().from(contacts).where(eq(contacts.id, contact.id));
    expect(row).toMatchObject({ name: null, preferences: [] });
    expect(row.forgottenAt).not.toBeNull();
    // … the counts are kept, and the other caller is untouched.
    expect(await db.select({ id: calls.id }).from(calls).where(eq(calls.organizationId, biz.account.organizationId))).toHaveLength(callsBefore.length);
    expect(await db.select({ id: messages.id }).from(messages).where(eq(messages.organizationId, biz.account.organizationId))).toHaveLength(textsBefore.length);
    expect(texts.some((m) => m.fromNumber === OTHER && m.body === "Do you take walk-ins?")).toBe(true);
  });

  it("downloads the certificate as CSV (opens in a spreadsheet) and as JSON", async () => {
    const csv = await callRoute(getCertificate, "GET", `/api/compliance/erasures/${certificateId}?format=csv`, { sessionId: biz.account.sessionId, params: { id: certificateId } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="erasure-certificate-.+\.csv"/);
    const lines = csv.text.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe("certificate,erased_at,subject,subject_sha256,requested_via,requested_by,what,rows_erased");
    expect(lines.some((l) => l.startsWith(certificateId) && l.includes(",owner,") && l.endsWith(",transcripts,1"))).toBe(true);
    const json = await callRoute(getCertificate, "GET", `/api/compliance/erasures/${certificateId}?format=json`, { sessionId: biz.account.sessionId, params: { id: certificateId } });
    expect(json.headers.get("content-disposition")).toContain(".json");
    expect(json.body.erased.recordings).toBe(1);
    const all = await callRoute(listCertificates, "GET", "/api/compliance/erasures", { sessionId: biz.account.sessionId });
    expect(all.body.certificates.map((c: { id: string }) => c.id)).toContain(certificateId);
  });

  it("keeps other organizations out", async () => {
    const other = await business("Nosy Bikes");
    const db = await getDb();
    const [contact] = await db.select().from(contacts).where(eq(contacts.organizationId, biz.account.organizationId));
    expect((await callRoute(eraseRoute, "POST", `/api/contacts/${contact.id}/erasure`, { sessionId: other.account.sessionId, params: { id: contact.id }, body: { confirm: true } })).status).toBe(404);
    expect((await callRoute(getCertificate, "GET", `/api/compliance/erasures/${certificateId}`, { sessionId: other.account.sessionId, params: { id: certificateId } })).status).toBe(404);
    expect((await callRoute(listCertificates, "GET", "/api/compliance/erasures")).status).toBe(401);
  });
});

describe("the caller's own \"forget me\"", () => {
  it("by text erases their texts and writes a certificate requested by the caller", async () => {
    const biz = await business("Texted Dental");
    expect((await text(biz, OTHER, "Hi, this is Sam Reed. Do you do whitening?")).status).toBe(200);
    const forget = await text(biz, OTHER, "Please delete my data");
    expect(forget.status).toBe(200);
    const db = await getDb();
    const left = await db.select().from(messages).where(eq(messages.organizationId, biz.account.organizationId));
    expect(left.filter((m) => /Sam Reed|whitening/.test(m.body))).toEqual([]);
    const all = await callRoute(listCertificates, "GET", "/api/compliance/erasures", { sessionId: biz.account.sessionId });
    expect(all.body.certificates).toHaveLength(1);
    expect(all.body.certificates[0]).toMatchObject({ requestedVia: "caller_text", requestedBy: null, subject: "•••• 0166" });
  });

  it("during a call erases that call too once it ends", async () => {
    const biz = await business("Spoken Dental");
    const { callSid, res } = await startCall(biz);
    const t1 = await say(biz, callSid, find(res.verbs, "Gather")!.attrs.action, "Hi, this is Maria Lopez. Do you do whitening?");
    const t2 = await say(biz, callSid, find(t1.verbs, "Gather")!.attrs.action, "Actually, forget me please.");
    expect(t2.status).toBe(200);
    await say(biz, callSid, find(t2.verbs, "Gather")!.attrs.action, "Thanks, bye.");
    await endCall(biz, callSid);
    const call = await callRow(callSid);
    expect(call.transcript).toEqual([]);
    expect(call.fromNumber).toBe("erased");
    const all = await callRoute(listCertificates, "GET", "/api/compliance/erasures", { sessionId: biz.account.sessionId });
    expect(all.body.certificates[0]).toMatchObject({ requestedVia: "caller_call" });
  });
});
