import "server-only";
import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { callerListEntries, calls } from "@/db/schema";
import { badRequest, notFound } from "@/lib/platform/http/errors";
import { SPAM } from "@/lib/platform/text/routing";
import { getCallPolicy } from "./policy";
import type { CallerListInput } from "./schema";
import { reportSpam, withdrawSpamReport } from "./spam";

/** The block and allow lists, and "Not spam" on a call. Every query is scoped to the organization. */

export type CallerListEntryDto = { id: string; phoneNumber: string; list: "block" | "allow"; note: string; source: "owner" | "not_spam"; createdAt: string };

function toDto(row: typeof callerListEntries.$inferSelect): CallerListEntryDto {
  return { id: row.id, phoneNumber: row.phoneNumber, list: row.list, note: row.note, source: row.source, createdAt: row.createdAt.toISOString() };
}

export async function listCallerEntries(db: DbOrTx, organizationId: string): Promise<{ entries: CallerListEntryDto[] }> {
  const rows = await db
    .select()
    .from(callerListEntries)
    .where(eq(callerListEntries.organizationId, organizationId))
    .orderBy(desc(callerListEntries.createdAt), desc(callerListEntries.id));
  return { entries: rows.map(toDto) };
}

/** Adds a number to the block (or allow) list; a number already listed moves to the list asked for. */
export async function addCallerEntry(db: DbOrTx, organizationId: string, input: CallerListInput, source: "owner" | "not_spam" = "owner"): Promise<CallerListEntryDto> {
  const [row] = await db
    .insert(callerListEntries)
    .values({ id: crypto.randomUUID(), organizationId, phoneNumber: input.phoneNumber, list: input.list, note: input.note, source })
    .onConflictDoUpdate({ target: [callerListEntries.organizationId, callerListEntries.phoneNumber], set: { list: input.list, note: input.note, source } })
    .returning();
  // Blocking a caller is a spam report the organization may share (hashed), when it opted in.
  if (input.list === "block" && (await getCallPolicy(db, organizationId)).shareSpamReports) await reportSpam(db, organizationId, input.phoneNumber);
  if (input.list === "allow") await withdrawSpamReport(db, organizationId, input.phoneNumber);
  return toDto(row);
}

/** DELETE /api/blocklist?id=… or ?phoneNumber=+1…. */
export async function removeCallerEntry(db: DbOrTx, organizationId: string, key: { id?: string | null; phoneNumber?: string | null }) {
  if (!key.id && !key.phoneNumber) throw badRequest("Name the entry to remove: id or phoneNumber", { id: "Required (or phoneNumber)" });
  if (key.phoneNumber && !/^\+[1-9]\d{7,14}$/.test(key.phoneNumber)) throw badRequest("phoneNumber must be in E.164 format, e.g. +14155550123", { phoneNumber: "Enter the number in E.164 format" });
  const where = key.id ? eq(callerListEntries.id, key.id) : eq(callerListEntries.phoneNumber, key.phoneNumber!);
  const [row] = await db
    .delete(callerListEntries)
    .where(and(eq(callerListEntries.organizationId, organizationId), where))
    .returning();
  if (!row) throw notFound("Block list entry");
  return { success: true as const, id: row.id };
}

/**
 * POST /api/calls/{id}/not-spam: the call is restored (no longer spam, shown with the others) and
 * the system learns — the caller goes on the allow list (scored 0 next time), and this
 * organization's shared report of the number is withdrawn.
 */
export async function markNotSpam(db: DbOrTx, organizationId: string, callId: string) {
  const [call] = await db.select().from(calls).where(and(eq(calls.id, callId), eq(calls.organizationId, organizationId)));
  if (!call) throw notFound("Call");
  const reasons = [...call.spamReasons.filter((r) => r !== SPAM.markedNotSpam), SPAM.markedNotSpam];
  await db.update(calls).set({ isSpam: false, spamReasons: reasons }).where(and(eq(calls.id, callId), eq(calls.organizationId, organizationId)));
  const entry = await addCallerEntry(db, organizationId, { phoneNumber: call.fromNumber, list: "allow", note: "Marked not spam" }, "not_spam");
  return { id: call.id, isSpam: false, spamScore: call.spamScore, spamReasons: reasons, allowListed: entry };
}
