import "server-only";
import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, recaps, users } from "@/db/schema";
import { appSecret } from "@/lib/platform/crypto/app-secret";
import { env } from "@/lib/platform/env";
import { forbidden, HttpError, notFound, unauthorized } from "@/lib/platform/http/errors";
import { RECAP_REPLY } from "@/lib/platform/text/receptionist";
import { escapeHtml, sendEmail } from "@/lib/platform/outbound/mail";
import type { InboundEmailInput } from "./schema";
import { updateTask } from "@/lib/phone/callers/tasks";

/**
 * Answering the daily recap by e-mail: the recap numbers its new tasks, and a reply saying "done 2"
 * (or "done 1, 3", "done 2 and 4") marks those tasks done. The inbound-mail service (Postmark,
 * SendGrid Inbound Parse, Mailgun routes… anything that can POST JSON) calls
 * `POST /api/emails/inbound` with `Authorization: Bearer $INBOUND_EMAIL_SECRET`. Which recap — and
 * so which organization — comes only from a signed reference (`recap-<id>-<hmac>`) in the address
 * the reply was sent to (the recap's Reply-To, `INBOUND_EMAIL_ADDRESS` plus-addressed) or in the
 * quoted recap; the sender must be an active member of that organization; the task numbers map to
 * the task ids stored in that recap's content, and every update is scoped to the organization.
 */

const REFERENCE = /recap-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-([0-9a-f]{20})/gi;

function signature(recapId: string): string {
  return crypto.createHmac("sha256", appSecret()).update(`recap-reply:${recapId.toLowerCase()}`).digest("hex").slice(0, 20);
}

/** The signed reference of a recap (lower-case hex only: mail systems may lower-case addresses). */
export function recapReference(recapId: string): string {
  return `recap-${recapId.toLowerCase()}-${signature(recapId)}`;
}

/** Whether replies can reach the app (the inbound route is on). */
export function recapRepliesEnabled(): boolean {
  return Boolean(env.INBOUND_EMAIL_SECRET);
}

/** The Reply-To of a recap e-mail: INBOUND_EMAIL_ADDRESS plus-addressed with the reference, or none. */
export function recapReplyAddress(recapId: string): string | undefined {
  if (!recapRepliesEnabled() || !env.INBOUND_EMAIL_ADDRESS) return undefined;
  const [local, domain] = env.INBOUND_EMAIL_ADDRESS.split("@");
  return `${local}+${recapReference(recapId)}@${domain}`;
}

/** The first recap reference with a valid signature found in these texts, or null. */
export function recapIdFrom(...texts: (string | undefined)[]): string | null {
  for (const text of texts) {
    for (const m of (text ?? "").matchAll(REFERENCE)) {
      const id = m[1].toLowerCase();
      const given = Buffer.from(m[2].toLowerCase());
      const expected = Buffer.from(signature(id));
      if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) return id;
    }
  }
  return null;
}

/**
 * The task numbers the reply marks done. Only the reply's own words count: quoted lines ("> …")
 * and everything from the "On … wrote:" line or the quoted recap on are ignored.
 */
export function doneNumbers(text: string): number[] {
  const own: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*>/.test(line)) continue;
    if (/^\s*On .+wrote:\s*$/i.test(line) || /^-{2,}\s*Original Message/i.test(line) || /^\s*Daily recap for /.test(line)) break;
    own.push(line);
  }
  const numbers = new Set<number>();
  for (const line of own) {
    const m = line.match(/^\s*(?:done|did|finished|complete[d]?)\b[\s:#-]*((?:#?\d{1,3}(?:\s*(?:,|and|&|\s)\s*)?)+)/i);
    if (!m) continue;
    for (const n of m[1].match(/\d{1,3}/g) ?? []) numbers.add(Number(n));
  }
  return [...numbers].filter((n) => n > 0).sort((a, b) => a - b);
}

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/** The inbound route's gate: off (503) without INBOUND_EMAIL_SECRET, 401 without the right bearer. */
export function authorizeInbound(authorization: string | null) {
  if (!env.INBOUND_EMAIL_SECRET) throw new HttpError(503, "Inbound e-mail is off: set INBOUND_EMAIL_SECRET on the server to use it.");
  const token = authorization?.match(/^Bearer (.+)$/)?.[1] ?? "";
  if (!sameSecret(token, env.INBOUND_EMAIL_SECRET)) throw unauthorized();
}

function addressOf(from: string): string {
  return (from.match(/<([^>]+)>/)?.[1] ?? from).trim().toLowerCase();
}

const taskIdOf = (link: string) => new URL(link, "http://x").searchParams.get("task");

export type RecapReplyResult = {
  recapId: string;
  done: { number: number; taskId: string; title: string }[];
  /** Numbers the recap does not have (or whose task is gone). */
  unknown: number[];
};

/** A reply to a recap e-mail: marks the numbered tasks done, answers the sender with what it did. */
export async function handleRecapReply(db: Db, input: InboundEmailInput, now = new Date()): Promise<RecapReplyResult> {
  const recapId = recapIdFrom(input.to, input.text, input.subject);
  if (!recapId) throw notFound("Recap");
  const [recap] = await db.select().from(recaps).where(eq(recaps.id, recapId));
  if (!recap) throw notFound("Recap");
  const organizationId = recap.organizationId;
  const sender = addressOf(input.from);
  const [member] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.organizationId, organizationId), eq(users.status, "active"), sql`lower(${users.email}) = ${sender}`));
  if (!member) throw forbidden("Only a member of the organization can answer its recap.");

  const lines = recap.content.newTasks.lines;
  const result: RecapReplyResult = { recapId, done: [], unknown: [] };
  for (const number of doneNumbers(input.text)) {
    const line = lines[number - 1];
    const taskId = line ? taskIdOf(line.link) : null;
    if (!taskId) {
      result.unknown.push(number);
      continue;
    }
    try {
      const task = await updateTask(db, organizationId, taskId, { status: "done" }, now);
      result.done.push({ number, taskId, title: task.title });
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) result.unknown.push(number);
      else throw error;
    }
  }

  const [org] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
  const text = RECAP_REPLY.answer(result.done, result.unknown);
  await sendEmail(db, {
    organizationId,
    to: member.email,
    kind: "recap_reply",
    subject: RECAP_REPLY.subject(org?.name ?? "your business", recap.date),
    text,
    html: `<p>${text.split("\n").map(escapeHtml).join("<br>")}</p>`,
  });
  return result;
}
