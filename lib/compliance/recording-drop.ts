import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { audioClips, callRecordings, calls } from "@/db/schema";
import { getBlobStore } from "@/lib/platform/blob-store";
import { queueCarrierRecordingDeletion, type CarrierRecordingDeletion } from "./recording-deletion";

// Apart from ./recordings.ts, which reads consent (./consent.ts), while a withdrawn consent drops the recordings.
/**
 * Removes these calls' recordings (no consent, erasure): our copy goes now, the row says discarded,
 * and the carrier's copy is deleted by a job (./recording-deletion.ts; on the simulated carrier that
 * copy is one of our clips, id = RecordingSid). Returns how many were pending or stored.
 */
export async function dropCallRecordings(db: DbOrTx, organizationId: string, callIds: string[], reason: CarrierRecordingDeletion["reason"] = "erasure"): Promise<number> {
  if (!callIds.length) return 0;
  const rows = await db
    .select({ callId: callRecordings.callId, clipId: callRecordings.clipId, recordingSid: callRecordings.recordingSid, provider: calls.provider })
    .from(callRecordings)
    .innerJoin(calls, and(eq(calls.id, callRecordings.callId), eq(calls.organizationId, callRecordings.organizationId)))
    .where(and(eq(callRecordings.organizationId, organizationId), inArray(callRecordings.callId, callIds), inArray(callRecordings.status, ["pending", "stored"])));
  if (!rows.length) return 0;
  await db
    .update(callRecordings)
    .set({ status: "discarded", clipId: null })
    .where(and(eq(callRecordings.organizationId, organizationId), inArray(callRecordings.callId, rows.map((r) => r.callId))));
  await deleteClips(db, organizationId, rows.map((r) => r.clipId).filter((id): id is string => Boolean(id)));
  for (const r of rows) await queueCarrierRecordingDeletion(db, { organizationId, callId: r.callId, recordingSid: r.recordingSid, provider: r.provider ?? "simulated", reason });
  return rows.length;
}

/** Deletes recording clips (rows and blobs) of this organization. */
export async function deleteClips(db: DbOrTx, organizationId: string, clipIds: string[]): Promise<void> {
  if (!clipIds.length) return;
  const clips = await db.delete(audioClips).where(and(eq(audioClips.organizationId, organizationId), inArray(audioClips.id, clipIds), eq(audioClips.source, "recording"))).returning({ storageKey: audioClips.storageKey });
  for (const clip of clips) await getBlobStore().delete(clip.storageKey).catch(() => undefined);
}
