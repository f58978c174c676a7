import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { audioClips, callRecordings } from "@/db/schema";
import { getBlobStore } from "@/lib/blob-store";

// Apart from ./recordings.ts, which reads consent (./consent.ts), while a withdrawn consent drops the recordings.
/** Removes these calls' recordings (no consent, erasure): the audio goes, the row says discarded. Returns how many were pending or stored. */
export async function dropCallRecordings(db: DbOrTx, organizationId: string, callIds: string[]): Promise<number> {
  if (!callIds.length) return 0;
  const rows = await db
    .select({ callId: callRecordings.callId, clipId: callRecordings.clipId, recordingSid: callRecordings.recordingSid })
    .from(callRecordings)
    .where(and(eq(callRecordings.organizationId, organizationId), inArray(callRecordings.callId, callIds), inArray(callRecordings.status, ["pending", "stored"])));
  if (!rows.length) return 0;
  await db
    .update(callRecordings)
    .set({ status: "discarded", clipId: null })
    .where(and(eq(callRecordings.organizationId, organizationId), inArray(callRecordings.callId, rows.map((r) => r.callId))));
  // A pending recording on the simulated carrier is already one of our clips (id = RecordingSid): it goes too.
  const clipIds = rows.flatMap((r) => [r.clipId, r.recordingSid]).filter((id): id is string => Boolean(id));
  await deleteClips(db, organizationId, clipIds);
  return rows.length;
}

/** Deletes recording clips (rows and blobs) of this organization. */
export async function deleteClips(db: DbOrTx, organizationId: string, clipIds: string[]): Promise<void> {
  if (!clipIds.length) return;
  const clips = await db.delete(audioClips).where(and(eq(audioClips.organizationId, organizationId), inArray(audioClips.id, clipIds), eq(audioClips.source, "recording"))).returning({ storageKey: audioClips.storageKey });
  for (const clip of clips) await getBlobStore().delete(clip.storageKey).catch(() => undefined);
}
