import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { callConsents, calls } from "@/db/schema";
import { noticeFor, type Notice } from "./notice";
import { dropCallRecordings } from "./recording-drop";
import { queueCarrierRecordingDeletion } from "./recording-deletion";
import { complianceSettingsFor } from "./settings";
import { NOTICE_ON_RECORDING_STATES, partyState } from "./states";

/**
 * The consent record of a call (docs/compliance.md#consent): the notice is decided and written when
 * the call is answered, and the caller "stays on" when their first turn reaches us after it.
 *
 * Consent holds when the notice played and the caller stayed on past it, or when no notice was given
 * because none is required (one-party states, the owner switched it off): the business is then a
 * party to its own call. Without consent the call is answered but not kept: no transcript, no
 * recording (enforceConsent at the call's end).
 */

export type CallParties = { From?: string; To?: string; FromState?: string; ToState?: string };

/** The notice for an arriving call (pure inputs gathered here), recorded as the call's consent record. */
export async function recordCallNotice(
  db: DbOrTx,
  input: { organizationId: string; callId: string; params: CallParties; provider?: string | null },
): Promise<Notice & { record: boolean; recordNotice: boolean }> {
  const settings = await complianceSettingsFor(db, input.organizationId);
  const callerState = partyState(input.params.FromState, input.params.From);
  // The business's own saved or addressed state wins over what the carrier infers from its number.
  const businessState = settings.businessStateSource === "settings" || settings.businessStateSource === "address" ? settings.businessState : partyState(input.params.ToState, input.params.To);
  const notice = noticeFor({ callerState, businessState, settings });
  await db
    .insert(callConsents)
    .values({
      callId: input.callId,
      organizationId: input.organizationId,
      noticeText: notice.text,
      required: notice.required,
      strict: notice.strict,
      reasons: notice.reasons,
      callerState,
      businessState,
      playedAt: notice.text ? new Date() : null,
    })
    .onConflictDoNothing({ target: callConsents.callId });
  // Whole calls are recorded on both carriers (<Start><Recording>; the simulated carrier's client follows it too).
  const record = settings.recordCalls && (input.provider === "twilio" || input.provider === "simulated" || !input.provider);
  // Connecticut and Washington: the notice must itself be recorded (Conn. Gen. Stat. § 52-570d(a)(2), RCW
  // 9.73.030(3)), so the recording starts before it there (kept only if consent then holds, like every recording).
  const noticeOnRecording = [callerState, businessState].some((s) => s !== null && NOTICE_ON_RECORDING_STATES.has(s));
  return { ...notice, record, recordNotice: record && Boolean(notice.text) && noticeOnRecording };
}

/** The caller was heard after the notice (a Gather's answer): they stayed on. */
export async function markStayedOn(db: DbOrTx, callSid: string | undefined): Promise<void> {
  if (!callSid) return;
  const [call] = await db.select({ id: calls.id, organizationId: calls.organizationId }).from(calls).where(eq(calls.providerCallSid, callSid));
  if (!call) return;
  await markCallStayedOn(db, call.id, call.organizationId);
}

/** The same by call id: a streaming call's `setup` arrives once the `<Say>` before `<Connect>` has played. */
export async function markCallStayedOn(db: DbOrTx, callId: string, organizationId: string): Promise<void> {
  const call = { id: callId, organizationId };
  await db
    .update(callConsents)
    .set({ stayedOnAt: new Date() })
    .where(and(eq(callConsents.callId, call.id), eq(callConsents.organizationId, call.organizationId), isNull(callConsents.stayedOnAt)));
}

export type ConsentView = {
  noticeText: string | null;
  required: boolean;
  strict: boolean;
  reasons: string[];
  callerState: string | null;
  businessState: string | null;
  playedAt: string | null;
  stayedOn: boolean;
  stayedOnAt: string | null;
  /** Transcripts and recordings may be kept. */
  holds: boolean;
};

export function consentHolds(row: Pick<typeof callConsents.$inferSelect, "noticeText" | "required" | "stayedOnAt">): boolean {
  if (row.noticeText) return Boolean(row.stayedOnAt);
  return !row.required;
}

export async function consentFor(db: DbOrTx, organizationId: string, callId: string): Promise<ConsentView | null> {
  const [row] = await db.select().from(callConsents).where(and(eq(callConsents.callId, callId), eq(callConsents.organizationId, organizationId)));
  if (!row) return null;
  return {
    noticeText: row.noticeText,
    required: row.required,
    strict: row.strict,
    reasons: row.reasons,
    callerState: row.callerState,
    businessState: row.businessState,
    playedAt: row.playedAt?.toISOString() ?? null,
    stayedOn: Boolean(row.stayedOnAt),
    stayedOnAt: row.stayedOnAt?.toISOString() ?? null,
    holds: consentHolds(row),
  };
}

/**
 * At the call's end: without consent nothing of what was said is kept (transcript, recording,
 * voicemail text). Calls from before consent records existed have no row and are left alone.
 */
export async function enforceConsent(db: DbOrTx, callSid: string | undefined): Promise<boolean> {
  if (!callSid) return true;
  const [row] = await db
    .select({ id: calls.id, organizationId: calls.organizationId, provider: calls.provider, recordingSid: calls.recordingSid, consent: callConsents })
    .from(calls)
    .innerJoin(callConsents, eq(callConsents.callId, calls.id))
    .where(eq(calls.providerCallSid, callSid));
  if (!row || consentHolds(row.consent)) return true;
  await db
    .update(calls)
    .set({ transcript: [], recordingUrl: null, recordingSid: null, voicemailTranscript: null })
    .where(and(eq(calls.id, row.id), eq(calls.organizationId, row.organizationId)));
  // A voicemail's <Record> is the carrier's recording too: deleted there as well.
  if (row.recordingSid) await queueCarrierRecordingDeletion(db, { organizationId: row.organizationId, callId: row.id, recordingSid: row.recordingSid, provider: row.provider ?? "simulated", reason: "no_consent" });
  await dropCallRecordings(db, row.organizationId, [row.id], "no_consent");
  return false;
}
