import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { calls } from "@/db/schema";
import { badRequest } from "@/lib/platform/http/errors";
import { enqueue } from "@/lib/platform/jobs/queue";
import { recordAction } from "@/lib/phone/telephony/actions";
import { hangupTwiml } from "@/lib/phone/telephony/twiml";
import { twimlResponse, type CarrierRequest } from "@/lib/phone/telephony/webhook";
import { processVoicemailJob } from "./post-call";
import type { VoiceDeps } from "./runtime";
import { LINES } from "./lines";
import { EMPTY_RESPONSE, authenticateCallWebhook, line, openStep, respond, turn } from "./step";

// ─── A voicemail ─────────────────────────────────────────────────────────────────────────────

/** POST record?step=N: the voicemail is recorded (the file itself is announced by the recording callback). */
export async function finishRecording(db: Db, req: CarrierRequest, step: number, deps: VoiceDeps = {}): Promise<Response> {
  const opened = await openStep(db, req, step, deps);
  if (opened instanceof Response) return opened;
  const { call, claimed, runtime } = opened;
  const duration = Number(req.params.RecordingDuration ?? 0) || 0;
  const recordingSid = req.params.RecordingSid || null;
  if (!recordingSid || duration <= 0) {
    return respond(runtime, req, step, {
      xml: hangupTwiml([{ say: "No message was recorded. Goodbye." }]),
      ended: { status: "completed", outcome: claimed.failureClass ? "failed" : (claimed.outcome ?? "answered_by_assistant") },
    });
  }
  await recordAction(db, { organizationId: call.organizationId, callId: call.id, type: "voicemail_recorded", detail: { recordingSid, durationSeconds: duration } });
  const spoken = await line(runtime, LINES.recorded);
  return respond(runtime, req, step, {
    xml: hangupTwiml([spoken.prompt]),
    turns: [turn("assistant", LINES.recorded)],
    extra: {
      recordingSid,
      transcriptionStatus: sql`coalesce(${calls.transcriptionStatus}, 'pending')` as unknown as "pending",
    },
    ended: { status: "voicemail", outcome: "voicemail" },
    timing: { ttsMs: spoken.ttsMs },
  });
}

/**
 * POST recordingStatusCallback: the recording file is ready (RecordingStatus completed) → the
 * voicemail job fetches, stores and transcribes it, once per RecordingSid.
 */
export async function recordingStatus(db: Db, req: CarrierRequest): Promise<Response> {
  const { call } = await authenticateCallWebhook(db, req);
  if (!call) return twimlResponse(EMPTY_RESPONSE);
  const { RecordingSid: recordingSid, RecordingStatus: status } = req.params;
  if (!recordingSid) throw badRequest("RecordingSid is required", { RecordingSid: "Required" });
  if (status === "completed") {
    await db
      .update(calls)
      .set({ recordingSid, transcriptionStatus: sql`coalesce(${calls.transcriptionStatus}, 'pending')` as unknown as "pending" })
      .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId)));
    await enqueue(
      db,
      processVoicemailJob,
      { callId: call.id, organizationId: call.organizationId, recordingSid, durationSeconds: Number(req.params.RecordingDuration ?? 0) || 0 },
      { singletonKey: `voicemail:${recordingSid}` },
    );
  } else if (status === "failed" || status === "absent") {
    await db
      .update(calls)
      .set({ transcriptionStatus: "failed", transcriptionNote: "The carrier could not record the message." })
      .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId)));
  }
  return twimlResponse(EMPTY_RESPONSE);
}
