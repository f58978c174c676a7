/**
 * HIPAA mode (docs/compliance.md#hipaa-mode): on by default for a dental business; providers without
 * a BAA give way to the offline ones; owner alerts and e-mails carry no health details; who opened
 * which transcript or recording is logged and exports as CSV; idle sessions end.
 */
import { and, eq } from "drizzle-orm";
import { GET as getAccessLog } from "@/app/api/compliance/access-log/route";
import { GET as getAudio } from "@/app/api/audio/[id]/route";
import { GET as getCall } from "@/app/api/calls/[id]/route";
import { GET as getSettings, PUT as putSettings } from "@/app/api/settings/compliance/route";
import { PUT as putNotifications } from "@/app/api/settings/notifications/route";
import { calls, emails, notifications, providerCredentials, sessions } from "@/db/schema";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createFilesystemBlobStore, getBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { encryptSecret } from "@/lib/platform/crypto/secret-box";
import { closeDb, getDb } from "@/lib/platform/database";
import { resolveCredential } from "@/lib/workspace/provider-selection/credentials";
import { notifyOwners } from "@/lib/receptionist/notify";
import { saveAudioClip } from "@/lib/phone/voice/audio-clips";
import { registerTestUser } from "../helpers/accounts";
import { find } from "../helpers/carrier";
import { call as callRoute } from "../helpers/http";
import { business, callRow, say, startCall, type Business } from "../helpers/phone";

jest.setTimeout(120_000);

const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-hipaa-"));
beforeAll(() => setBlobStore(createFilesystemBlobStore(blobDir)));
afterAll(async () => {
  setBlobStore(null);
  fs.rmSync(blobDir, { recursive: true, force: true });
  await closeDb();
});

function settings(biz: Business, body: unknown) {
  return callRoute(putSettings, "PUT", "/api/settings/compliance", { sessionId: biz.account.sessionId, body });
}

describe("HIPAA mode", () => {
  let dental: Business;
  beforeAll(async () => {
    dental = await business("Bright Smiles Dental", { notice: true });
  });

  it("is on by default for a dental business, off for others, and an owner can switch it", async () => {
    const on = await callRoute(getSettings, "GET", "/api/settings/compliance", { sessionId: dental.account.sessionId });
    expect(on.body).toMatchObject({ hipaaMode: true, hipaaModeDefault: true, baaProviders: [] });
    const bikes = await registerTestUser();
    const off = await callRoute(getSettings, "GET", "/api/settings/compliance", { sessionId: bikes.sessionId });
    expect(off.body).toMatchObject({ hipaaMode: false, hipaaModeDefault: false });
    const switched = await callRoute(putSettings, "PUT", "/api/settings/compliance", { sessionId: bikes.sessionId, body: { hipaaMode: true } });
    expect(switched.body.hipaaMode).toBe(true);
  });

  it("uses a provider's saved key only when the business has a BAA with it", async () => {
    const db = await getDb();
    await db.insert(providerCredentials).values({
      id: crypto.randomUUID(),
      organizationId: dental.account.organizationId,
      provider: "anthropic",
      ciphertext: encryptSecret(JSON.stringify({ apiKey: "sk-ant-test-key" })),
      hint: "-key",
    });
    expect(await resolveCredential(db, dental.account.organizationId, "anthropic")).toBeNull(); // the local responder answers
    expect(await resolveCredential(db, dental.account.organizationId, "anthropic", { allProviders: true })).not.toBeNull(); // the API-keys screen still shows it
    expect((await settings(dental, { baaProviders: ["anthropic"] })).status).toBe(200);
    expect((await resolveCredential(db, dental.account.organizationId, "anthropic"))?.secret).toEqual({ apiKey: "sk-ant-test-key" });
    expect((await settings(dental, { baaProviders: [] })).status).toBe(200);
  });

  it("sends owner alerts and e-mails without health details", async () => {
    const db = await getDb();
    await callRoute(putNotifications, "PUT", "/api/settings/notifications", { sessionId: dental.account.sessionId, body: { emailNotifications: true } });
    await notifyOwners(db, {
      organizationId: dental.account.organizationId,
      kind: "call.voicemail",
      title: "Voicemail from Maria Lopez (+15555550123)",
      body: "My crown fell out and my gum is bleeding",
      link: "/call-history",
    });
    const [alert] = await db.select().from(notifications).where(eq(notifications.organizationId, dental.account.organizationId));
    expect(alert).toMatchObject({ title: "New voicemail from a patient — open Switchboard", body: "", link: "/call-history" });
    const [mail] = await db.select().from(emails).where(eq(emails.organizationId, dental.account.organizationId));
    expect(mail.subject).toBe("New voicemail from a patient — open Switchboard");
    expect(`${mail.text} ${mail.html}`).not.toMatch(/Maria|crown|bleeding|5555550123/);
  });

  it("logs who opened which transcript and recording, exportable as CSV", async () => {
    const db = await getDb();
    const { callSid, res } = await startCall(dental);
    await say(dental, callSid, find(res.verbs, "Gather")!.attrs.action, "What are your opening hours?");
    const row = await callRow(callSid);
    const clip = await saveAudioClip(db, getBlobStore(), { organizationId: dental.account.organizationId, audio: Buffer.from("RIFF-recording"), contentType: "audio/wav", durationMs: 1000, source: "recording" });
    await db.update(calls).set({ recordingUrl: `/api/audio/${clip.id}` }).where(eq(calls.id, row.id));

    expect((await callRoute(getCall, "GET", `/api/calls/${row.id}`, { sessionId: dental.account.sessionId, params: { id: row.id } })).status).toBe(200);
    expect((await callRoute(getAudio, "GET", `/api/audio/${clip.id}`, { sessionId: dental.account.sessionId, params: { id: clip.id } })).status).toBe(200);

    const log = await callRoute(getAccessLog, "GET", "/api/compliance/access-log", { sessionId: dental.account.sessionId });
    expect(log.body.entries.map((e: { resource: string; callId: string; userEmail: string }) => [e.resource, e.callId, e.userEmail])).toEqual([
      ["recording", row.id, dental.account.email],
      ["transcript", row.id, dental.account.email],
    ]);
    const csv = await callRoute(getAccessLog, "GET", "/api/compliance/access-log?format=csv", { sessionId: dental.account.sessionId });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = csv.text.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(lines[0]).toBe("at,user_email,user_id,resource,call_id,action,detail");
    expect(lines.slice(1).map((l) => l.split(",")[3])).toEqual(["recording", "transcript"]);
    // Another organization sees none of it.
    const other = await registerTestUser();
    expect((await callRoute(getAccessLog, "GET", "/api/compliance/access-log", { sessionId: other.sessionId })).body.entries).toEqual([]);
  });

  it("ends a session after inactivity", async () => {
    const db = await getDb();
    const ok = await callRoute(getSettings, "GET", "/api/settings/compliance", { sessionId: dental.account.sessionId });
    expect(ok.status).toBe(200);
    const token = dental.account.sessionId.slice(0, dental.account.sessionId.lastIndexOf("."));
    await db.update(sessions).set({ updatedAt: new Date(Date.now() - 16 * 60_000) }).where(eq(sessions.token, token));
    const idle = await callRoute(getSettings, "GET", "/api/settings/compliance", { sessionId: dental.account.sessionId });
    expect(idle.status).toBe(401);
    expect(await db.select().from(sessions).where(and(eq(sessions.token, token)))).toEqual([]);
  });
});
