import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, gte } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { calls, recordAccessLog } from "@/db/schema";
import { toCsv } from "./csv";

/**
 * HIPAA mode (docs/compliance.md#hipaa-mode): on by default for dental and medical businesses.
 * - Only providers the business holds a BAA with (its configured list) or the offline ones hear
 *   calls or read transcripts: a saved or environment key of any other is ignored.
 * - Owner alerts, recaps, Slack and e-mail carry no health details, only "New voicemail from a
 *   patient — open Switchboard".
 * - Every opening of a transcript or a recording is logged (exportable as CSV).
 * - Sessions expire after HIPAA_IDLE_MINUTES without a request.
 * The switch itself (hipaaStateOf, the providers it governs, the idle limit) is the organization's
 * mode: lib/identity/organizations/hipaa-mode.ts, below the sessions and the provider selection it rules.
 */

/** The alert an owner gets in HIPAA mode: what happened, never who or why. */
export function patientAlert(kind: string): { title: string; body: string } {
  const what = /voicemail/.test(kind)
    ? "New voicemail from a patient"
    : /missed/.test(kind)
      ? "Missed call from a patient"
      : /recap/.test(kind)
        ? "Your daily recap is ready"
        : /text|sms|message/.test(kind)
          ? "New message from a patient"
          : /task/.test(kind)
            ? "New task about a patient"
            : "New call from a patient";
  return { title: `${what} — open Switchboard`, body: "" };
}

export type AccessResource = "transcript" | "recording" | "voicemail";

/** Who opened which transcript or recording. */
export async function logRecordAccess(
  db: DbOrTx,
  input: { organizationId: string; userId: string | null; userEmail: string | null; resource: AccessResource; callId: string | null; action?: "opened" | "deleted"; detail?: string | null },
) {
  await db.insert(recordAccessLog).values({ id: crypto.randomUUID(), ...input });
}

export type AccessEntry = { at: string; userId: string | null; userEmail: string | null; resource: AccessResource; callId: string | null; action: "opened" | "deleted"; detail: string | null };

export async function listRecordAccess(db: DbOrTx, organizationId: string, since?: Date): Promise<{ entries: AccessEntry[] }> {
  const rows = await db
    .select()
    .from(recordAccessLog)
    .where(and(eq(recordAccessLog.organizationId, organizationId), since ? gte(recordAccessLog.createdAt, since) : undefined))
    .orderBy(desc(recordAccessLog.createdAt))
    .limit(10_000);
  return { entries: rows.map((r) => ({ at: r.createdAt.toISOString(), userId: r.userId, userEmail: r.userEmail, resource: r.resource, callId: r.callId, action: r.action, detail: r.detail })) };
}

export function accessLogCsv(entries: AccessEntry[]): string {
  return toCsv(
    ["at", "user_email", "user_id", "resource", "call_id", "action", "detail"],
    entries.map((e) => [e.at, e.userEmail, e.userId, e.resource, e.callId, e.action, e.detail]),
  );
}

/**
 * An owner's browser opened a stored clip (GET /api/audio/{id} with a session): when the clip is a
 * call's recording or voicemail, the access is logged. Byte-range continuations are not logged again.
 */
export async function logClipAccess(db: DbOrTx, session: { user: { id: string; email: string; organizationId: string } } | null, req: Request, clipId: string): Promise<void> {
  if (!session || new URL(req.url).searchParams.has("token")) return;
  const range = req.headers.get("range");
  if (range && !/^bytes=0-/.test(range)) return;
  const [call] = await db
    .select({ id: calls.id, status: calls.status })
    .from(calls)
    .where(and(eq(calls.organizationId, session.user.organizationId), eq(calls.recordingUrl, `/api/audio/${clipId}`)))
    .limit(1);
  if (!call) return;
  await logRecordAccess(db, { organizationId: session.user.organizationId, userId: session.user.id, userEmail: session.user.email, resource: call.status === "voicemail" ? "voicemail" : "recording", callId: call.id });
}
