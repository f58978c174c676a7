/**
 * Retention (issue 29 / 32): GET/PUT /api/settings/retention and the job that deletes what is past it,
 * per organization, with a log of what it deleted. Runs on both drivers.
 */
import crypto from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { GET as getRetentionRoute, PUT as putRetentionRoute } from "@/app/api/settings/retention/route";
import { audioClips, calls, messages, retentionDeletions } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { getBlobStore, setBlobStore } from "@/lib/platform/blob-store";
import { retentionApplyJob, retentionSweepJob } from "@/lib/compliance/retention/jobs";
import { applyRetention } from "@/lib/compliance/retention/service";
import { saveAudioClip } from "@/lib/phone/voice/audio-clips";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";
import { runJobsUntil } from "../helpers/jobs";

jest.setTimeout(120_000);
beforeAll(() => setBlobStore(null));
afterAll(async () => {
  await closeDb();
});

const DAY = 86_400_000;

describe("GET/PUT /api/settings/retention", () => {
  let owner: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    [owner, other] = [await registerTestUser(), await registerTestUser()];
  });

  it("keeps everything by default, and the speech cache 30 days", async () => {
    const res = await call(getRetentionRoute, "GET", "/api/settings/retention", { sessionId: owner.sessionId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ recordingsDays: null, transcriptsDays: null, textsDays: null, audioCacheDays: 30, deletions: [] });
  });

  it("saves the organization's days, replacing the whole setting, without touching another organization", async () => {
    const put = await call(putRetentionRoute, "PUT", "/api/settings/retention", {
      sessionId: owner.sessionId,
      body: { recordingsDays: 30, transcriptsDays: 0, textsDays: 365 },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ recordingsDays: 30, transcriptsDays: 0, textsDays: 365, audioCacheDays: 30 });
    const again = await call(putRetentionRoute, "PUT", "/api/settings/retention", { sessionId: owner.sessionId, body: { recordingsDays: 7, textsDays: null, audioCacheDays: null } });
    expect(again.body).toEqual({ recordingsDays: 7, transcriptsDays: null, textsDays: null, audioCacheDays: null });
    const read = await call(getRetentionRoute, "GET", "/api/settings/retention", { sessionId: owner.sessionId });
    expect(read.body).toMatchObject({ recordingsDays: 7, transcriptsDays: null, textsDays: null, audioCacheDays: null });
    const theirs = await call(getRetentionRoute, "GET", "/api/settings/retention", { sessionId: other.sessionId });
    expect(theirs.body).toMatchObject({ recordingsDays: null, audioCacheDays: 30 });
  });

  it("answers 400 naming the field for days that are not whole numbers ≥ 0, and 401 without a session", async () => {
    for (const [field, value] of [
      ["recordingsDays", -1],
      ["transcriptsDays", 1.5],
      ["textsDays", "7"],
      ["audioCacheDays", 100_000],
    ] as const) {
      const res = await call(putRetentionRoute, "PUT", "/api/settings/retention", { sessionId: owner.sessionId, body: { [field]: value } });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect((await call(getRetentionRoute, "GET", "/api/settings/retention")).status).toBe(401);
    expect((await call(putRetentionRoute, "PUT", "/api/settings/retention", { body: { textsDays: 1 } })).status).toBe(401);
  });
});

describe("the retention job", () => {
  let owner: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    [owner, other] = [await registerTestUser(), await registerTestUser()];
  });

  /** One organization's history: calls (old and new, summarized or not), texts, a voicemail recording, speech. */
  async function seed(organizationId: string) {
    const db = await getDb();
    const now = Date.now();
    const turn = [{ speaker: "caller", text: "Hi, I need a cleaning", at: new Date(now).toISOString() }];
    const callRow = (id: string, ageDays: number, analyzed: boolean, extra: Partial<typeof calls.$inferInsert> = {}) => ({
      id,
      organizationId,
      direction: "inbound" as const,
      fromNumber: "+15550100001",
      toNumber: "+15550100002",
      status: "completed" as const,
      startedAt: new Date(now - ageDays * DAY),
      transcript: turn as never,
      summary: "Wants a cleaning",
      analyzedAt: analyzed ? new Date(now - ageDays * DAY) : null,
      ...extra,
    });
    const store = getBlobStore();
    const oldVoicemail = await saveAudioClip(db, store, { organizationId, audio: Buffer.alloc(4000, 7), contentType: "audio/wav", durationMs: null, source: "voicemail" });
    const newVoicemail = await saveAudioClip(db, store, { organizationId, audio: Buffer.alloc(4000, 8), contentType: "audio/wav", durationMs: null, source: "voicemail" });
    const ids = { oldAnalyzed: crypto.randomUUID(), newAnalyzed: crypto.randomUUID(), inProgress: crypto.randomUUID() };
    await db.insert(calls).values([
      callRow(ids.oldAnalyzed, 40, true, { recordingUrl: `/api/audio/${oldVoicemail.id}`, voicemailTranscript: "Call me back" }),
      callRow(ids.newAnalyzed, 1, true, { recordingUrl: `/api/audio/${newVoicemail.id}` }),
      callRow(ids.inProgress, 0, false, { status: "in_progress" }),
    ]);
    const text = (ageDays: number) => ({
      id: crypto.randomUUID(),
      organizationId,
      direction: "inbound" as const,
      fromNumber: "+15550100001",
      toNumber: "+15550100002",
      body: "Can I move my appointment?",
      status: "received" as const,
      createdAt: new Date(now - ageDays * DAY),
    });
    const texts = [text(100), text(2)];
    await db.insert(messages).values(texts);
    const speech = await saveAudioClip(db, store, { organizationId, audio: Buffer.alloc(3000, 9), contentType: "audio/wav", durationMs: null, source: "call", cacheKey: "k" });
    await db.update(audioClips).set({ createdAt: new Date(now - 45 * DAY) }).where(eq(audioClips.id, speech.id));
    return { ids, oldVoicemail, newVoicemail, texts, speech };
  }

  it("deletes what is past each kind's days, logs it per organization, and finds nothing the second time", async () => {
    const db = await getDb();
    await call(putRetentionRoute, "PUT", "/api/settings/retention", {
      sessionId: owner.sessionId,
      body: { recordingsDays: 30, transcriptsDays: 0, textsDays: 30 },
    });
    const mine = await seed(owner.organizationId);
    const theirs = await seed(other.organizationId); // keeps everything but the 30-day speech cache

    const run = await applyRetention(db, getBlobStore(), owner.organizationId);
    expect(run).toEqual({ recordings: 1, transcripts: 2, texts: 1, audio_cache: 1 });

    const callsNow = await db.select().from(calls).where(inArray(calls.id, Object.values(mine.ids)));
    const byId = new Map(callsNow.map((c) => [c.id, c]));
    // 0 days: every summarized call's words are gone, the summary and the counts stay; the live call keeps its words.
    expect(byId.get(mine.ids.oldAnalyzed)).toMatchObject({ transcript: [], voicemailTranscript: null, summary: "Wants a cleaning", recordingUrl: null });
    expect(byId.get(mine.ids.newAnalyzed)).toMatchObject({ transcript: [], recordingUrl: `/api/audio/${mine.newVoicemail.id}` });
    expect(byId.get(mine.ids.inProgress)!.transcript).toHaveLength(1);
    // The 40-day-old recording is gone, bytes included; the 1-day-old one stays.
    expect(await db.select().from(audioClips).where(eq(audioClips.id, mine.oldVoicemail.id))).toEqual([]);
    expect(await getBlobStore().stat(mine.oldVoicemail.storageKey)).toBeNull();
    expect(await getBlobStore().stat(mine.newVoicemail.storageKey)).not.toBeNull();
    const textsNow = await db.select({ id: messages.id, body: messages.body }).from(messages).where(inArray(messages.id, mine.texts.map((t) => t.id)));
    expect(new Map(textsNow.map((t) => [t.id, t.body]))).toEqual(new Map([[mine.texts[0].id, ""], [mine.texts[1].id, "Can I move my appointment?"]]));
    expect(await getBlobStore().stat(mine.speech.storageKey)).toBeNull();

    const log = await db.select().from(retentionDeletions).where(eq(retentionDeletions.organizationId, owner.organizationId));
    expect(new Map(log.map((l) => [l.kind, l.count]))).toEqual(new Map([["recordings", 1], ["transcripts", 2], ["texts", 1], ["audio_cache", 1]]));
    const shown = await call(getRetentionRoute, "GET", "/api/settings/retention", { sessionId: owner.sessionId });
    expect(shown.body.deletions).toHaveLength(4);

    expect(await applyRetention(db, getBlobStore(), owner.organizationId)).toEqual({ recordings: 0, transcripts: 0, texts: 0, audio_cache: 0 });
    expect(await db.select().from(retentionDeletions).where(eq(retentionDeletions.organizationId, owner.organizationId))).toHaveLength(4);

    // The other organization was not touched by this organization's run.
    const [theirOld] = await db.select().from(calls).where(and(eq(calls.id, theirs.ids.oldAnalyzed), eq(calls.organizationId, other.organizationId)));
    expect(theirOld.transcript).toHaveLength(1);
    expect(await getBlobStore().stat(theirs.oldVoicemail.storageKey)).not.toBeNull();
  });

  it("runs through the job runner: the hourly sweep queues one job per organization, which applies its retention", async () => {
    const db = await getDb();
    const { enqueue } = await import("@/lib/platform/jobs/queue");
    await enqueue(null, retentionSweepJob, {});
    await runJobsUntil([retentionSweepJob, retentionApplyJob], async () => {
      const log = await db.select().from(retentionDeletions).where(eq(retentionDeletions.organizationId, other.organizationId));
      return log.some((l) => l.kind === "audio_cache");
    });
    const [theirOld] = await db.select().from(calls).where(eq(calls.organizationId, other.organizationId)).limit(1);
    expect(theirOld.transcript).toHaveLength(1); // keeps transcripts forever by default
  });
});
