import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { calls, contacts, messages, tasks } from "@/db/schema";
import { notFound } from "@/lib/platform/http/errors";
import { eraseCaller, type ErasureVia } from "@/lib/compliance/erasure";

/**
 * Caller memory, with consent (docs/receptionist.md#caller-memory): per contact the name and the
 * preferences they stated; past calls, texts and open tasks are read from their own tables. Offered
 * to the assistant on the next call. "Forget me" — said by the caller, or done by the owner — sets
 * `forgottenAt`, clears the name and preferences, and from then on nothing is remembered or offered
 * (records from before it are never read into memory again).
 */

export type CallerMemory = {
  contactId: string;
  phone: string;
  name: string | null;
  preferences: string[];
  pastCalls: { id: string; at: string; summary: string | null; outcome: string | null }[];
  pastTexts: { id: string; at: string; direction: "inbound" | "outbound"; body: string }[];
  openTasks: { id: string; title: string }[];
};

export { asksToBeForgotten } from "@/lib/agents/conversation/understanding/forget";

const NAME = /\b(?:[Mm]y name is|[Mm]y name's|[Tt]his is|[Ii]t's|I am|I'm)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\b/;
const NOT_NAMES = new Set(["Calling", "Just", "Looking", "Wondering", "Interested", "Here", "Trying", "Not", "Sorry", "Fine", "Good", "Great", "Ok", "Okay", "Still", "Having"]);

/** "Hi, this is Maria Lopez" → "Maria Lopez". Only a capitalised name after a self-introduction. */
export function statedName(text: string): string | null {
  const m = NAME.exec(text);
  if (!m) return null;
  const first = m[1].split(" ")[0];
  if (NOT_NAMES.has(first)) return null;
  return m[1];
}

const PREFERENCE = /\b(I (?:would |'d )?prefer [^.!?]+|(?:please )?(?:only )?(?:text|call|email|e-mail) me (?:in the|after|before|only|on|at|in) [^.!?]+)/gi;

/** The preferences the caller stated, in their words ("I prefer afternoon appointments"). */
export function statedPreferences(text: string): string[] {
  return [...text.matchAll(PREFERENCE)].map((m) => m[1].trim().slice(0, 200));
}

async function contactRow(db: DbOrTx, organizationId: string, phone: string) {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.organizationId, organizationId), eq(contacts.phone, phone)));
  return row ?? null;
}

/** Remembers what the caller said about themselves (unless they asked to be forgotten). */
export async function rememberCaller(
  db: DbOrTx,
  organizationId: string,
  phone: string,
  said: { name?: string | null; utterances?: string[] },
): Promise<void> {
  if (!phone.startsWith("+")) return;
  const existing = await contactRow(db, organizationId, phone);
  if (existing?.forgottenAt) return;
  let name = said.name ?? null;
  const preferences = new Set(existing?.preferences ?? []);
  for (const u of said.utterances ?? []) {
    name = statedName(u) ?? name;
    for (const p of statedPreferences(u)) preferences.add(p);
  }
  const prefs = [...preferences].slice(-10);
  if (!existing) {
    await db
      .insert(contacts)
      .values({ id: crypto.randomUUID(), organizationId, phone, name, preferences: prefs })
      .onConflictDoNothing({ target: [contacts.organizationId, contacts.phone] });
    return;
  }
  await db
    .update(contacts)
    .set({ name: name ?? existing.name, preferences: prefs, lastSeenAt: new Date(), updatedAt: new Date() })
    .where(and(eq(contacts.id, existing.id), eq(contacts.organizationId, organizationId), sql`${contacts.forgottenAt} is null`));
}

/** What the assistant may be told about this caller; null when nothing is remembered or they were forgotten. */
export async function memoryFor(db: DbOrTx, organizationId: string, phone: string, options: { excludeCallId?: string } = {}): Promise<CallerMemory | null> {
  const contact = await contactRow(db, organizationId, phone);
  if (!contact || contact.forgottenAt) return null;
  return buildMemory(db, contact, options);
}

async function buildMemory(db: DbOrTx, contact: typeof contacts.$inferSelect, options: { excludeCallId?: string } = {}): Promise<CallerMemory> {
  const [pastCalls, pastTexts, open] = await Promise.all([
    db
      .select({ id: calls.id, at: calls.startedAt, summary: calls.summary, outcome: calls.outcome })
      .from(calls)
      .where(and(eq(calls.organizationId, contact.organizationId), eq(calls.fromNumber, contact.phone)))
      .orderBy(desc(calls.startedAt))
      .limit(6),
    db
      .select({ id: messages.id, at: messages.createdAt, direction: messages.direction, body: messages.body })
      .from(messages)
      .where(
        and(
          eq(messages.organizationId, contact.organizationId),
          or(eq(messages.fromNumber, contact.phone), eq(messages.toNumber, contact.phone)),
        ),
      )
      .orderBy(desc(messages.createdAt))
      .limit(5),
    db
      .select({ id: tasks.id, title: tasks.title })
      .from(tasks)
      .where(and(eq(tasks.organizationId, contact.organizationId), eq(tasks.contactNumber, contact.phone), inArray(tasks.status, ["open", "snoozed"])))
      .orderBy(desc(tasks.createdAt))
      .limit(5),
  ]);
  return {
    contactId: contact.id,
    phone: contact.phone,
    name: contact.name,
    preferences: contact.preferences,
    pastCalls: pastCalls
      .filter((c) => c.id !== options.excludeCallId)
      .slice(0, 5)
      .map((c) => ({ id: c.id, at: c.at.toISOString(), summary: c.summary, outcome: c.outcome })),
    pastTexts: pastTexts.map((m) => ({ id: m.id, at: m.at.toISOString(), direction: m.direction, body: m.body })),
    openTasks: open,
  };
}

/** The memory as the model reads it: a few lines, only what the caller told the business. */
export function memoryForModel(memory: CallerMemory | null): string[] {
  if (!memory) return [];
  const lines: string[] = [];
  if (memory.name) lines.push(`The caller's name: ${memory.name}.`);
  for (const p of memory.preferences) lines.push(`They said: "${p}".`);
  for (const c of memory.pastCalls.slice(0, 3)) if (c.summary) lines.push(`Earlier call (${c.at.slice(0, 10)}): ${c.summary}`);
  for (const t of memory.openTasks) lines.push(`Open follow-up: ${t.title}`);
  return lines;
}

/** The words after "Is this about …" when a known caller calls again: their open task, else nothing. */
export function topicOf(memory: CallerMemory): string | null {
  const task = memory.openTasks[0]?.title;
  if (!task) return null;
  const quoted = /"([^"]+)"/.exec(task)?.[1]?.replace(/…$/, "");
  if (!quoted) return null;
  // "…please call me back about Tuesday's cleaning" → "Tuesday's cleaning"
  const about = /\babout (.+)$/i.exec(quoted)?.[1];
  return (about ?? quoted).split(/[.!?]/)[0].trim() || null;
}

/**
 * "Forget me" (the caller's own request): erases everything that names them — transcripts,
 * recordings, texts, tasks' personal fields, payload logs — keeps it so, and writes the erasure
 * certificate (lib/compliance/erasure.ts).
 */
export async function forgetCaller(db: DbOrTx, organizationId: string, phone: string, via: ErasureVia = "caller_call"): Promise<void> {
  await eraseCaller(db, { organizationId, phone, via });
}

/** DELETE /api/contacts/{id}/memory: the owner erases a contact's memory. */
export async function forgetContact(db: Db, organizationId: string, contactId: string): Promise<ContactView> {
  const [row] = await db
    .update(contacts)
    .set({ name: null, preferences: [], forgottenAt: new Date(), updatedAt: new Date() })
    .where(and(eq(contacts.id, contactId), eq(contacts.organizationId, organizationId)))
    .returning();
  if (!row) throw notFound("Contact");
  return toView(row, null);
}

export type ContactView = {
  id: string;
  phone: string;
  name: string | null;
  preferences: string[];
  forgotten: boolean;
  forgottenAt: string | null;
  lastSeenAt: string;
  pastCalls: CallerMemory["pastCalls"];
  pastTexts: CallerMemory["pastTexts"];
  openTasks: CallerMemory["openTasks"];
};

function toView(row: typeof contacts.$inferSelect, memory: CallerMemory | null): ContactView {
  return {
    id: row.id,
    phone: row.phone,
    name: row.name,
    preferences: row.preferences,
    forgotten: Boolean(row.forgottenAt),
    forgottenAt: row.forgottenAt?.toISOString() ?? null,
    lastSeenAt: row.lastSeenAt.toISOString(),
    pastCalls: memory?.pastCalls ?? [],
    pastTexts: memory?.pastTexts ?? [],
    openTasks: memory?.openTasks ?? [],
  };
}

/** GET /api/contacts: the organization's contacts with what is remembered (the last 100 seen). */
export async function listContacts(db: Db, organizationId: string): Promise<{ contacts: ContactView[] }> {
  const rows = await db.select().from(contacts).where(eq(contacts.organizationId, organizationId)).orderBy(desc(contacts.lastSeenAt)).limit(100);
  const views = await Promise.all(rows.map(async (row) => toView(row, row.forgottenAt ? null : await buildMemory(db, row))));
  return { contacts: views };
}
