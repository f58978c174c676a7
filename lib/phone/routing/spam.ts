import "server-only";
import crypto from "node:crypto";
import { and, count, countDistinct, eq, gte, isNotNull, lt, ne, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { callerListEntries, calls, messages, spamReports } from "@/db/schema";
import { SPAM } from "@/lib/platform/text/routing";

/**
 * A call's spam score, 0–100, from signals a person can check (each one is a reason on the call):
 * the carrier's attestation (Twilio's StirVerstat), the organization's block and allow lists, many
 * short calls from the number, calls from neighbouring numbers (sequential spoofing), and reports
 * other organizations shared as hashed numbers. Robocall behaviour during the call (never speaking,
 * a recorded pitch) adds to it later (raiseCallSpam).
 */

export type SpamVerdict = { score: number; reasons: string[]; list: "block" | "allow" | null };

/** The shared reports hold only this hash of the number, never the number. */
const REPORT_PEPPER = "switchboard:spam-report:v1";
export function hashNumber(phoneNumber: string): string {
  return crypto.createHash("sha256").update(`${REPORT_PEPPER}:${phoneNumber}`).digest("hex");
}

export const SPAM_POINTS = {
  attestationB: 10,
  attestationC: 25,
  attestationFailed: 50,
  noAttestation: 20,
  shortCallEach: 15,
  shortCallMax: 45,
  neighbourEach: 15,
  neighbourMax: 45,
  reportEach: 25,
  reportMax: 50,
  silent: 40,
  recorded: 70,
  textBurstEach: 15,
  textBurstMax: 45,
  link: 20,
  shortLink: 35,
};

/** Twilio's StirVerstat → points and the reason; unknown or absent (the simulated carrier) → nothing. */
export function attestationSignal(verstat: string | undefined): { points: number; reason: string } | null {
  if (!verstat) return null;
  if (/^TN-Validation-Passed-A$/i.test(verstat)) return { points: 0, reason: SPAM.attestationA };
  if (/^TN-Validation-Passed-B$/i.test(verstat)) return { points: SPAM_POINTS.attestationB, reason: SPAM.attestationB };
  if (/^TN-Validation-Passed-C$/i.test(verstat)) return { points: SPAM_POINTS.attestationC, reason: SPAM.attestationC };
  if (/^TN-Validation-Failed/i.test(verstat)) return { points: SPAM_POINTS.attestationFailed, reason: SPAM.attestationFailed };
  if (/^No-TN-Validation$/i.test(verstat)) return { points: SPAM_POINTS.noAttestation, reason: SPAM.noAttestation };
  return null;
}

export async function listEntryFor(db: DbOrTx, organizationId: string, phoneNumber: string): Promise<"block" | "allow" | null> {
  const [row] = await db
    .select({ list: callerListEntries.list })
    .from(callerListEntries)
    .where(and(eq(callerListEntries.organizationId, organizationId), eq(callerListEntries.phoneNumber, phoneNumber)));
  return row?.list ?? null;
}

/** Points for a signal seen `n` times: `each` apiece, at most `max`. */
function capped(n: number, each: number, max: number): number {
  return Math.min(max, each * n);
}

/** A score and its reasons, added up signal by signal. */
function tally() {
  const sum = { score: 0, reasons: [] as string[] };
  return {
    sum,
    add(points: number, reason: string) {
      sum.score += points;
      sum.reasons.push(reason);
    },
    /** A signal seen `n` times counts from `min` on: `each` point apiece, at most `max`. */
    counted(n: number, min: number, each: number, max: number, reason: (n: number) => string) {
      if (n >= min) this.add(capped(n, each, max), reason(n));
    },
  };
}

/** How many other organizations shared a report of this number (as its hash). */
async function sharedReportCount(db: DbOrTx, organizationId: string, phoneNumber: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(spamReports)
    .where(and(eq(spamReports.numberHash, hashNumber(phoneNumber)), ne(spamReports.organizationId, organizationId)));
  return row.n;
}

/**
 * How many distinct neighbouring numbers (the same length, differing only in the last two
 * characters: sequential spoofing) appear in `source.fromNumber` among the rows `source.where`
 * selects. A number of 6 characters or fewer has no neighbours.
 */
async function neighbourCount(
  db: DbOrTx,
  source: { table: typeof calls | typeof messages; fromNumber: typeof calls.fromNumber | typeof messages.fromNumber; where: SQL | undefined },
  phoneNumber: string,
): Promise<number> {
  if (phoneNumber.length <= 6) return 0;
  const prefix = phoneNumber.slice(0, -2);
  const { fromNumber } = source;
  const [row] = await db
    .select({ n: countDistinct(fromNumber) })
    .from(source.table)
    .where(
      and(
        source.where,
        ne(fromNumber, phoneNumber),
        sql`left(${fromNumber}, ${prefix.length}) = ${prefix}`,
        sql`length(${fromNumber}) = ${phoneNumber.length}`,
      ),
    );
  return row.n;
}

export async function scoreCaller(
  db: DbOrTx,
  input: { organizationId: string; caller: string; stirVerstat?: string; now: Date; callId?: string },
): Promise<SpamVerdict> {
  const { organizationId, caller, now } = input;
  const list = await listEntryFor(db, organizationId, caller);
  if (list === "allow") return { score: 0, reasons: [SPAM.allowList], list };
  if (list === "block") return { score: 100, reasons: [SPAM.blockList], list };

  const hourAgo = new Date(now.getTime() - 3600_000);
  const tenMinutesAgo = new Date(now.getTime() - 600_000);
  const [[short], neighbours, reports] = await Promise.all([
    db
      .select({ n: count() })
      .from(calls)
      .where(
        and(
          eq(calls.organizationId, organizationId),
          eq(calls.fromNumber, caller),
          gte(calls.startedAt, hourAgo),
          isNotNull(calls.endedAt),
          lt(calls.durationSeconds, 15),
          input.callId ? ne(calls.id, input.callId) : undefined,
        ),
      ),
    neighbourCount(db, { table: calls, fromNumber: calls.fromNumber, where: and(eq(calls.organizationId, organizationId), gte(calls.startedAt, tenMinutesAgo)) }, caller),
    sharedReportCount(db, organizationId, caller),
  ]);

  const verdict = tally();
  const attestation = attestationSignal(input.stirVerstat);
  if (attestation) verdict.add(attestation.points, attestation.reason);
  verdict.counted(short.n, 2, SPAM_POINTS.shortCallEach, SPAM_POINTS.shortCallMax, SPAM.shortCalls);
  verdict.counted(neighbours, 2, SPAM_POINTS.neighbourEach, SPAM_POINTS.neighbourMax, SPAM.neighbours);
  verdict.counted(reports, 1, SPAM_POINTS.reportEach, SPAM_POINTS.reportMax, SPAM.reported);
  return { score: Math.min(100, verdict.sum.score), reasons: verdict.sum.reasons, list: null };
}

/** Link shorteners hide where a link leads: a common mark of text spam. */
const SHORTENERS = /\b(?:bit\.ly|tinyurl\.com|t\.co|goo\.gl|ow\.ly|is\.gd|buff\.ly|rebrand\.ly|cutt\.ly|shorturl\.at|rb\.gy|t\.ly)\/\S+/i;
const LINK = /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+\.(?:com|net|org|info|biz|xyz|top|click|link|shop|online)\/\S*/i;

/** The link signal of a text's words, if any. */
export function linkSignal(body: string): { points: number; reason: string } | null {
  if (SHORTENERS.test(body)) return { points: SPAM_POINTS.shortLink, reason: SPAM.shortLink };
  if (LINK.test(body)) return { points: SPAM_POINTS.link, reason: SPAM.link };
  return null;
}

/**
 * An inbound text's spam score, 0–100, before the assistant reads it (the block and allow lists are
 * checked first by the SMS webhook): many texts from the number in the last 10 minutes, texts from
 * neighbouring numbers (sequential spoofing), reports other organizations shared, and links —
 * shortened ones most. The assistant's reading ("a sales pitch") adds to it afterwards.
 */
export async function scoreTexter(
  db: DbOrTx,
  input: { organizationId: string; sender: string; body: string; now: Date; messageId?: string },
): Promise<{ score: number; reasons: string[] }> {
  const { organizationId, sender, now } = input;
  const tenMinutesAgo = new Date(now.getTime() - 600_000);
  const inbound = and(eq(messages.organizationId, organizationId), eq(messages.direction, "inbound"), gte(messages.createdAt, tenMinutesAgo));
  const [[burst], neighbours, reports] = await Promise.all([
    db
      .select({ n: count() })
      .from(messages)
      .where(and(inbound, eq(messages.fromNumber, sender), input.messageId ? ne(messages.id, input.messageId) : undefined)),
    neighbourCount(db, { table: messages, fromNumber: messages.fromNumber, where: inbound }, sender),
    sharedReportCount(db, organizationId, sender),
  ]);
  const verdict = tally();
  verdict.counted(burst.n, 5, SPAM_POINTS.textBurstEach, SPAM_POINTS.textBurstMax, SPAM.textBurst);
  verdict.counted(neighbours, 2, SPAM_POINTS.neighbourEach, SPAM_POINTS.neighbourMax, SPAM.neighbourTexts);
  verdict.counted(reports, 1, SPAM_POINTS.reportEach, SPAM_POINTS.reportMax, SPAM.reported);
  const link = linkSignal(input.body);
  if (link) verdict.add(link.points, link.reason);
  return { score: Math.min(100, verdict.sum.score), reasons: verdict.sum.reasons };
}

/** Shares "this number is spam" with the other organizations, when this one opted in (hashed). */
export async function reportSpam(db: DbOrTx, organizationId: string, phoneNumber: string): Promise<void> {
  await db.insert(spamReports).values({ numberHash: hashNumber(phoneNumber), organizationId }).onConflictDoNothing();
}

export async function withdrawSpamReport(db: DbOrTx, organizationId: string, phoneNumber: string): Promise<void> {
  await db.delete(spamReports).where(and(eq(spamReports.numberHash, hashNumber(phoneNumber)), eq(spamReports.organizationId, organizationId)));
}
