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
    .select({ callId: callRecordings.callId, clipId: callRecordings.clipId })
    .from(callRecordings)
    .where(and(eq(callRecordings.organizationId, organizationId), inArray(callRecordings.callId, callIds), inArray(callRecordings.status, ["pending", "stored"])));
  if (!rows.length) return 0;
  await db
    .update(callRecordings)
    .set({ status: "discarded", clipId: null })
    .where(and(eq(callRecordings.organizationId, organizationId), inArray(callRecordings.callId, rows.map((r) => r.callId))));
  const clipIds = rows.map((r) => r.clipId).filter((id): id is string => Boolean(id));
  if (clipIds.length) {
    const clips = await db.delete(audioClips).where(and(eq(audioClips.organizationId, organizationId), inArray(audioClips.id, clipIds))).returning({ storageKey: audioClips.storageKey });
    for (const clip of clips) await getBlobStore().delete(clip.storageKey).catch(() => undefined);
  }
  return rows.length;
}
