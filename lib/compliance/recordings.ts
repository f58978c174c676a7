import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { audioClips, callRecordings, calls } from "@/db/schema";
import { getBlobStore } from "@/lib/platform/blob-store";
import { badRequest, notFound } from "@/lib/platform/http/errors";
import { enqueue } from "@/lib/platform/jobs/queue";
import { defineJob } from "@/lib/platform/jobs/types";
import { getTelephonyProviderFor } from "@/lib/workspace/provider-selection/telephony";
import type { TelephonyProvider } from "@/lib/platform/providers/telephony/interface";
import { emptyVoiceTwiml } from "@/lib/phone/telephony/twiml";
import { twimlResponse, verifyForCall, type CarrierRequest } from "@/lib/phone/telephony/webhook";
import { saveAudioClip } from "@/lib/phone/voice/audio-clips";
import { consentFor } from "./consent";
import { dropCallRecordings } from "./recording-drop";
import { queueCarrierRecordingDeletion } from "./recording-deletion";
import { logRecordAccess } from "./hipaa";

/**
 * Whole-call recordings (docs/compliance.md#recordings): `<Start><Recording>` (Twilio, and the simulated carrier) begins after the
 * notice; its status callback lands here; a job fetches the audio into the blob store only when the
 * call's consent holds (otherwise the recording is discarded). Played and downloaded through
 * GET /api/calls/{id}/recording (each opening logged); erased with the caller; dropped without consent.
 */

export type CallRecordingView = { status: "pending" | "stored" | "discarded"; durationSeconds: number | null; url: string | null; downloadUrl: string | null };

/** POST /api/telephony/voice/call-recording: Twilio's recording status callback (signed). */
export async function receiveCallRecording(db: Db, req: CarrierRequest): Promise<Response> {
  const { CallSid: callSid, RecordingSid: recordingSid, RecordingStatus: status } = req.params;
  if (!callSid || !recordingSid) throw badRequest("CallSid and RecordingSid are required", { ...(callSid ? {} : { CallSid: "Required" }), ...(recordingSid ? {} : { RecordingSid: "Required" }) });
  const [call] = await db.select({ id: calls.id, organizationId: calls.organizationId, provider: calls.provider }).from(calls).where(eq(calls.providerCallSid, callSid));
  if (!call) throw notFound("Call");
  await verifyForCall(db, req, call);
  if (status && status !== "completed") return twimlResponse(emptyVoiceTwiml());
  const duration = Number(req.params.RecordingDuration);
  const [row] = await db
    .insert(callRecordings)
    .values({ callId: call.id, organizationId: call.organizationId, recordingSid, durationSeconds: Number.isFinite(duration) ? Math.round(duration) : null })
    .onConflictDoNothing({ target: callRecordings.callId })
    .returning();
  if (row) await enqueue(db, storeRecordingJob, { callId: call.id, organizationId: call.organizationId });
  return twimlResponse(emptyVoiceTwiml());
}

/** Fetches the carrier's recording into the blob store when consent holds; otherwise discards it. */
export async function storeCallRecording(db: Db, ref: { callId: string; organizationId: string }, deps: { provider?: TelephonyProvider } = {}): Promise<CallRecordingView["status"]> {
  const [row] = await db.select().from(callRecordings).where(and(eq(callRecordings.callId, ref.callId), eq(callRecordings.organizationId, ref.organizationId)));
  if (!row || row.status !== "pending") return row?.status ?? "discarded";
  const consent = await consentFor(db, ref.organizationId, ref.callId);
  const [call] = await db.select({ provider: calls.provider }).from(calls).where(and(eq(calls.id, ref.callId), eq(calls.organizationId, ref.organizationId)));
  // The simulated carrier keeps its recordings as this organization's audio clips (id = RecordingSid).
  const carrierClip = (call?.provider ?? "simulated") === "simulated" ? await simulatedCarrierClip(db, ref.organizationId, row.recordingSid) : null;
  if (consent && !consent.holds) {
    // Not kept here, and deleted at the carrier too (a job, retried; logged).
    await db.update(callRecordings).set({ status: "discarded" }).where(eq(callRecordings.callId, ref.callId));
    await queueCarrierRecordingDeletion(db, { organizationId: ref.organizationId, callId: ref.callId, recordingSid: row.recordingSid, provider: call?.provider ?? "simulated", reason: "no_consent" });
    return "discarded";
  }
  if (carrierClip) {
    // Already in our blob store: the call's recording is that clip (no second copy for erasure to miss).
    await db.update(callRecordings).set({ status: "stored", clipId: carrierClip.id }).where(eq(callRecordings.callId, ref.callId));
    return "stored";
  }
  const provider = deps.provider ?? (await getTelephonyProviderFor(db, ref.organizationId, call?.provider ?? "simulated"));
  if (!provider) throw new Error("The call's carrier credentials are gone: the recording cannot be fetched");
  const recording = await provider.fetchRecording(row.recordingSid);
  const clip = await saveAudioClip(db, getBlobStore(), {
    organizationId: ref.organizationId,
    audio: recording.audio,
    contentType: recording.contentType,
    durationMs: row.durationSeconds ? row.durationSeconds * 1000 : null,
    source: "recording",
  });
  await db.update(callRecordings).set({ status: "stored", clipId: clip.id }).where(eq(callRecordings.callId, ref.callId));
  return "stored";
}

export const storeRecordingJob = defineJob<{ callId: string; organizationId: string }>({
  name: "compliance.store-recording",
  retryLimit: 5,
  retryDelaySeconds: 30,
  async handler(data, { db }) {
    await storeCallRecording(db, data);
  },
});

export { dropCallRecordings };


async function simulatedCarrierClip(db: DbOrTx, organizationId: string, recordingSid: string): Promise<{ id: string } | null> {
  const [clip] = await db
    .select({ id: audioClips.id })
    .from(audioClips)
    .where(and(eq(audioClips.id, recordingSid), eq(audioClips.organizationId, organizationId), eq(audioClips.source, "recording")));
  return clip ?? null;
}

export async function callRecordingFor(db: DbOrTx, organizationId: string, callId: string): Promise<CallRecordingView | null> {
  const [row] = await db.select().from(callRecordings).where(and(eq(callRecordings.callId, callId), eq(callRecordings.organizationId, organizationId)));
  if (!row) return null;
  const stored = row.status === "stored";
  return { status: row.status, durationSeconds: row.durationSeconds, url: stored ? `/api/calls/${callId}/recording` : null, downloadUrl: stored ? `/api/calls/${callId}/recording?download=1` : null };
}

/** GET /api/calls/{id}/recording[?download=1]: the recording's audio (inline to play, or as a file); each opening is logged. */
export async function serveCallRecording(db: Db, ctx: { organizationId: string; userId: string; user: { email: string } }, callId: string, download: boolean): Promise<Response> {
  const [row] = await db
    .select({ clipId: callRecordings.clipId, storageKey: audioClips.storageKey, contentType: audioClips.contentType })
    .from(callRecordings)
    .innerJoin(audioClips, and(eq(audioClips.id, callRecordings.clipId), eq(audioClips.organizationId, callRecordings.organizationId)))
    .where(and(eq(callRecordings.callId, callId), eq(callRecordings.organizationId, ctx.organizationId), eq(callRecordings.status, "stored")));
  if (!row) throw notFound("Recording");
  const audio = await getBlobStore().get(row.storageKey);
  if (!audio) throw notFound("Recording");
  await logRecordAccess(db, { organizationId: ctx.organizationId, userId: ctx.userId, userEmail: ctx.user.email, resource: "recording", callId });
  const extension = row.contentType.includes("mpeg") ? "mp3" : "wav";
  return new Response(new Uint8Array(audio), {
    headers: {
      "content-type": row.contentType,
      "content-length": String(audio.length),
      "cache-control": "private, no-store",
      "content-disposition": download ? `attachment; filename="call-${callId}.${extension}"` : "inline",
    },
  });
}
