import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { audioClips, callRecordings, calls, retentionDeletions, retentionSettings, type RetentionKind } from "@/db/schema";
import type { BlobStore } from "@/lib/platform/blob-store";
import { queueCarrierRecordingDeletion } from "@/lib/compliance/recording-deletion";
import { AUDIO_CACHE_DEFAULT_DAYS, type RetentionInput, type RetentionSettings } from "./schema";

const DEFAULTS: RetentionSettings = { recordingsDays: null, transcriptsDays: null, textsDays: null, audioCacheDays: AUDIO_CACHE_DEFAULT_DAYS };

/** The organization's retention: its saved row, else the defaults (everything kept, the speech cache 30 days). */
export async function getRetention(db: DbOrTx, organizationId: string): Promise<RetentionSettings> {
  const [row] = await db.select().from(retentionSettings).where(eq(retentionSettings.organizationId, organizationId));
  if (!row) return { ...DEFAULTS };
  return { recordingsDays: row.recordingsDays, transcriptsDays: row.transcriptsDays, textsDays: row.textsDays, audioCacheDays: row.audioCacheDays };
}

/** Replaces the organization's retention (absent fields take their defaults). */
export async function saveRetention(db: DbOrTx, ctx: { organizationId: string; userId: string }, input: RetentionInput): Promise<RetentionSettings> {
  const value: RetentionSettings = {
    recordingsDays: input.recordingsDays ?? null,
    transcriptsDays: input.transcriptsDays ?? null,
    textsDays: input.textsDays ?? null,
    audioCacheDays: input.audioCacheDays === undefined ? AUDIO_CACHE_DEFAULT_DAYS : input.audioCacheDays,
  };
  const now = new Date();
  await db
    .insert(retentionSettings)
    .values({ organizationId: ctx.organizationId, ...value, updatedAt: now, updatedBy: ctx.userId })
    .onConflictDoUpdate({ target: retentionSettings.organizationId, set: { ...value, updatedAt: now, updatedBy: ctx.userId } });
  return value;
}

/** The latest deletions of the organization (what the retention job removed, newest first). */
export async function listRetentionDeletions(db: DbOrTx, organizationId: string, limit = 50) {
  return db
    .select({ kind: retentionDeletions.kind, count: retentionDeletions.count, deletedAt: retentionDeletions.deletedAt })
    .from(retentionDeletions)
    .where(eq(retentionDeletions.organizationId, organizationId))
    .orderBy(desc(retentionDeletions.deletedAt))
    .limit(limit);
}

/** Rows handled per statement: a run deletes in pieces, so no statement holds many locks for long. */
const BATCH = 500;

const cutoffOf = (days: number, now: Date) => new Date(now.getTime() - days * 86_400_000).toISOString();

type Rows<T> = { rows: T[] } | T[];
const rowsOf = <T>(result: Rows<T>): T[] => (Array.isArray(result) ? result : result.rows);

/**
 * Recordings (whole calls and voicemails) past retention: their clip rows and bytes, and the call's link to them.
 * 0 days: those of calls whose summary is written (analyzed_at); n days: those of calls (or clips)
 * older than n days.
 */
async function deleteRecordings(db: Db, store: BlobStore, organizationId: string, days: number, now: Date): Promise<number> {
  const callDue = days === 0 ? sql`c.analyzed_at is not null` : sql`c.started_at < ${cutoffOf(days, now)}`;
  const ageDue = days === 0 ? sql`false` : sql`a.created_at < ${cutoffOf(days, now)}`;
  let total = 0;
  for (;;) {
    const due = rowsOf(
      await db.execute<{ id: string; storage_key: string }>(sql`
        select a.id, a.storage_key from audio_clip a
        where a.organization_id = ${organizationId} and a.source in ('recording', 'voicemail')
          and (${ageDue} or exists (
            select 1 from "call" c
            where c.organization_id = ${organizationId} and ${callDue}
              and (c.recording_url = '/api/audio/' || a.id or c.recording_sid = a.id
                or exists (select 1 from call_recording r where r.call_id = c.id and (r.clip_id = a.id or r.recording_sid = a.id)))))
        limit ${BATCH}`),
    );
    if (due.length === 0) return total;
    for (const clip of due) await store.delete(clip.storage_key);
    const ids = due.map((d) => d.id);
    // Twilio keeps its own copy of what we stored (the whole call, a voicemail): deleted there too (a job).
    const atTwilio = [
      ...(await db
        .select({ callId: callRecordings.callId, recordingSid: callRecordings.recordingSid })
        .from(callRecordings)
        .innerJoin(calls, and(eq(calls.id, callRecordings.callId), eq(calls.organizationId, callRecordings.organizationId)))
        .where(and(eq(callRecordings.organizationId, organizationId), eq(calls.provider, "twilio"), inArray(callRecordings.clipId, ids)))),
      ...(await db
        .select({ callId: calls.id, recordingSid: calls.recordingSid })
        .from(calls)
        .where(and(eq(calls.organizationId, organizationId), eq(calls.provider, "twilio"), inArray(calls.recordingUrl, ids.map((id) => `/api/audio/${id}`))))),
    ];
    await db.transaction(async (tx) => {
      await tx
        .update(calls)
        .set({ recordingUrl: null })
        .where(and(eq(calls.organizationId, organizationId), inArray(calls.recordingUrl, ids.map((id) => `/api/audio/${id}`))));
      // Whole-call recordings (lib/compliance/recordings.ts) say they are gone rather than point at nothing.
      await tx
        .update(callRecordings)
        .set({ status: "discarded", clipId: null })
        .where(and(eq(callRecordings.organizationId, organizationId), or(inArray(callRecordings.clipId, ids), inArray(callRecordings.recordingSid, ids))));
      await tx.delete(audioClips).where(and(eq(audioClips.organizationId, organizationId), inArray(audioClips.id, ids)));
    });
    for (const r of atTwilio) {
      if (r.recordingSid) await queueCarrierRecordingDeletion(db, { organizationId, callId: r.callId, recordingSid: r.recordingSid, provider: "twilio", reason: "retention" });
    }
    total += due.length;
    if (due.length < BATCH) return total;
  }
}

/** Transcripts (the conversation turns and a voicemail's words) of calls past retention; the summary stays. */
async function deleteTranscripts(db: Db, organizationId: string, days: number, now: Date): Promise<number> {
  const due = days === 0 ? sql`analyzed_at is not null` : sql`started_at < ${cutoffOf(days, now)}`;
  let total = 0;
  for (;;) {
    // The partial index call_org_transcript_kept_idx holds only calls that still have words to delete.
    const done = rowsOf(
      await db.execute<{ id: string }>(sql`
        update "call" set transcript = '[]'::jsonb, voicemail_transcript = null
        where id in (
          select id from "call"
          where organization_id = ${organizationId} and (transcript <> '[]'::jsonb or voicemail_transcript is not null) and ${due}
          limit ${BATCH})
        returning id`),
    );
    total += done.length;
    if (done.length < BATCH) return total;
  }
}

/** Texts past retention: their words are removed (body ''); the row stays for the counts. 0: every text. */
async function deleteTexts(db: Db, organizationId: string, days: number, now: Date): Promise<number> {
  const due = days === 0 ? sql`true` : sql`created_at < ${cutoffOf(days, now)}`;
  let total = 0;
  for (;;) {
    const done = rowsOf(
      await db.execute<{ id: string }>(sql`
        update message set body = ''
        where id in (select id from message where organization_id = ${organizationId} and body <> '' and ${due} limit ${BATCH})
        returning id`),
    );
    total += done.length;
    if (done.length < BATCH) return total;
  }
}

/** Synthesized speech (call lines, chat and voice-test replies) older than the cache's days. */
async function deleteAudioCache(db: Db, store: BlobStore, organizationId: string, days: number, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const due = await db
      .select({ id: audioClips.id, storageKey: audioClips.storageKey })
      .from(audioClips)
      .where(
        and(
          eq(audioClips.organizationId, organizationId),
          inArray(audioClips.source, ["call", "chat", "voice_test"]),
          sql`${audioClips.createdAt} < ${cutoffOf(days, now)}`,
        ),
      )
      .limit(BATCH);
    if (due.length === 0) return total;
    // The row first: from then on nobody is handed this clip's URL (a cached line is synthesized anew).
    await db.delete(audioClips).where(and(eq(audioClips.organizationId, organizationId), inArray(audioClips.id, due.map((d) => d.id))));
    for (const clip of due) await store.delete(clip.storageKey);
    total += due.length;
    if (due.length < BATCH) return total;
  }
}

export type RetentionRun = Record<RetentionKind, number>;

/**
 * Deletes what is past the organization's retention, and logs each kind it deleted anything of
 * (retention_deletion: organization, kind, count, when). Idempotent: a second run finds nothing.
 */
export async function applyRetention(db: Db, store: BlobStore, organizationId: string, now = new Date()): Promise<RetentionRun> {
  const settings = await getRetention(db, organizationId);
  const run: RetentionRun = { recordings: 0, transcripts: 0, texts: 0, audio_cache: 0 };
  if (settings.recordingsDays !== null) run.recordings = await deleteRecordings(db, store, organizationId, settings.recordingsDays, now);
  if (settings.transcriptsDays !== null) run.transcripts = await deleteTranscripts(db, organizationId, settings.transcriptsDays, now);
  if (settings.textsDays !== null) run.texts = await deleteTexts(db, organizationId, settings.textsDays, now);
  if (settings.audioCacheDays !== null) run.audio_cache = await deleteAudioCache(db, store, organizationId, settings.audioCacheDays, now);
  const logged = (Object.entries(run) as [RetentionKind, number][]).filter(([, n]) => n > 0);
  if (logged.length > 0) {
    await db.insert(retentionDeletions).values(logged.map(([kind, count]) => ({ id: crypto.randomUUID(), organizationId, kind, count, deletedAt: now })));
    console.info(`[retention] ${organizationId}: deleted ${logged.map(([kind, n]) => `${n} ${kind}`).join(", ")}`);
  }
  return run;
}

/**
 * The organizations a retention run must visit: every one with a saved setting, and every one with
 * speech clips (the cache has a default). Read from indexes, not from the calls.
 */
export async function organizationsWithRetention(db: DbOrTx): Promise<string[]> {
  const rows = rowsOf(
    await (db as Db).execute<{ id: string }>(sql`
      select organization_id as id from retention_setting
      union
      select id from organization o where exists (select 1 from audio_clip a where a.organization_id = o.id)`),
  );
  return rows.map((r) => r.id);
}
