import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { calls } from "@/db/schema";
import { env } from "@/lib/platform/env";

/**
 * What every CRM / notes card records about a call, read from the call itself (scoped to the
 * organization) when the delivery runs, so a retry sends the call as it stands then.
 */
export type CallRecord = {
  id: string;
  direction: "inbound" | "outbound";
  /** The other party: the caller on an inbound call, the number called on an outbound one. */
  contactNumber: string;
  businessNumber: string;
  callerName: string | null;
  startedAt: Date;
  durationSeconds: number;
  summary: string | null;
  actionItems: string[];
  outcome: string | null;
  outcomeLabel: string;
  recordingUrl: string | null;
  link: string;
};

const OUTCOME_LABELS: Record<string, string> = {
  answered_by_assistant: "Answered by the assistant",
  transferred: "Transferred",
  voicemail: "Voicemail",
  missed: "Missed",
  failed: "Failed",
  blocked: "Blocked",
};

export async function loadCallRecord(db: DbOrTx, organizationId: string, callId: string): Promise<CallRecord | null> {
  const [call] = await db
    .select()
    .from(calls)
    .where(and(eq(calls.id, callId), eq(calls.organizationId, organizationId)))
    .limit(1);
  if (!call) return null;
  const actionItems = Array.isArray(call.actionItems) ? (call.actionItems as unknown[]).map((a) => (typeof a === "string" ? a : JSON.stringify(a))) : [];
  return {
    id: call.id,
    direction: call.direction,
    contactNumber: call.direction === "inbound" ? call.fromNumber : call.toNumber,
    businessNumber: call.direction === "inbound" ? call.toNumber : call.fromNumber,
    callerName: call.callerName,
    startedAt: call.startedAt,
    durationSeconds: call.durationSeconds,
    summary: call.summary,
    actionItems,
    outcome: call.outcome,
    outcomeLabel: call.outcome ? (OUTCOME_LABELS[call.outcome] ?? call.outcome) : call.status,
    recordingUrl: call.recordingUrl ? new URL(call.recordingUrl, env.PUBLIC_URL).toString() : null,
    link: `${env.PUBLIC_URL.replace(/\/$/, "")}/call-history?call=${encodeURIComponent(call.id)}`,
  };
}
