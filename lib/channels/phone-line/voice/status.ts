import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { calls } from "@/db/schema";
import { badRequest } from "@/lib/platform/http/errors";
import { enqueue } from "@/lib/platform/jobs/queue";
import { findNumber, twimlResponse, type CarrierRequest } from "@/lib/phone/telephony/webhook";
import { finishCallJob } from "./post-call";
import type { CallRow } from "./runtime";
import { EMPTY_RESPONSE, authenticateCallWebhook, recordArrival } from "./step";

type CallStatus = CallRow["status"];

const STATUS_RANK: Record<CallStatus, number> = { ringing: 0, in_progress: 1, completed: 2, missed: 2, voicemail: 2, failed: 2 };

/** Twilio's CallStatus → the call's status (queued/initiated count as ringing). */
export function callStatusFromCarrier(status: string | undefined): CallStatus | null {
  switch (status) {
    case "queued":
    case "initiated":
    case "ringing":
      return "ringing";
    case "in-progress":
    case "answered":
      return "in_progress";
    case "completed":
      return "completed";
    case "busy":
    case "no-answer":
    case "canceled":
      return "missed";
    case "failed":
      return "failed";
    default:
      return null;
  }
}

function isTerminal(status: CallStatus): boolean {
  return STATUS_RANK[status] === 2;
}

/**
 * POST statusCallbackUrl: ringing → in-progress → completed / busy / no-answer / failed, with
 * CallDuration. A callback never moves a call backwards (a late "ringing" after "completed" is
 * ignored); a later terminal callback only refines the end time and duration. Becoming terminal
 * queues the post-call job.
 */
export async function callStatus(db: Db, req: CarrierRequest): Promise<Response> {
  const empty = () => twimlResponse(EMPTY_RESPONSE);
  const next = callStatusFromCarrier(req.params.CallStatus);
  if (!next) throw badRequest(`Unknown CallStatus "${req.params.CallStatus ?? ""}"`, { CallStatus: "Unknown call status" });
  let { call } = await authenticateCallWebhook(db, req);
  if (!call) {
    // A status for a call the voice webhook has not seen (it arrived first, or the call never reached us).
    const number = await findNumber(db, req.params.To);
    if (!number || !req.params.CallSid || !req.params.From) return empty();
    await recordArrival(db, number, req.params, { callSid: req.params.CallSid, from: req.params.From });
    [call] = await db.select().from(calls).where(and(eq(calls.providerCallSid, req.params.CallSid), eq(calls.organizationId, number.organizationId)));
    if (!call) return empty();
  }

  const duration = req.params.CallDuration !== undefined ? Math.max(0, Math.round(Number(req.params.CallDuration) || 0)) : null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = call.status;
    if (STATUS_RANK[next] < STATUS_RANK[current]) return empty();
    const becomesTerminal = isTerminal(next) && !isTerminal(current);
    const set: Partial<typeof calls.$inferInsert> = { carrierStatus: req.params.CallStatus };
    if (STATUS_RANK[next] > STATUS_RANK[current]) set.status = next;
    if (isTerminal(next)) {
      const endedAt = new Date();
      set.endedAt = becomesTerminal || !call.endedAt ? endedAt : call.endedAt;
      if (duration !== null) set.durationSeconds = duration;
      else if (becomesTerminal) set.durationSeconds = Math.max(0, Math.round((endedAt.getTime() - call.startedAt.getTime()) / 1000));
      if (becomesTerminal) {
        set.mode = "ended";
        if (next === "missed") set.outcome = "missed";
        if (next === "failed" && !call.outcome) set.outcome = "failed";
      }
    }
    const [updated] = await db
      .update(calls)
      .set(set)
      .where(and(eq(calls.id, call.id), eq(calls.organizationId, call.organizationId), eq(calls.status, current)))
      .returning();
    if (updated) {
      if (isTerminal(updated.status)) await enqueue(db, finishCallJob, { callId: call.id, organizationId: call.organizationId }, { singletonKey: `call-finish:${call.id}` });
      return empty();
    }
    // Another request changed the status meanwhile: read it again and decide again.
    [call] = await db.select().from(calls).where(eq(calls.id, call.id));
    if (!call) return empty();
  }
  return empty();
}
