import "server-only";
import crypto from "node:crypto";
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { messages, messageThreads, queuedTexts } from "@/db/schema";

/**
 * The text threads' store: one thread per number and contact, and the owner's view of a thread
 * (Call History). Apart from ./sms.ts (the webhook's turn), so readers of threads don't pull in the
 * conversation engine.
 */
export type Thread = typeof messageThreads.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

/** The thread of a number and a contact, made on first contact (concurrent first texts agree on one). */
export async function threadFor(db: DbOrTx, organizationId: string, phoneNumberId: string, contactNumber: string): Promise<Thread> {
  await db
    .insert(messageThreads)
    .values({ id: crypto.randomUUID(), organizationId, phoneNumberId, contactNumber })
    .onConflictDoNothing({ target: [messageThreads.phoneNumberId, messageThreads.contactNumber] });
  const [thread] = await db
    .select()
    .from(messageThreads)
    .where(and(eq(messageThreads.phoneNumberId, phoneNumberId), eq(messageThreads.contactNumber, contactNumber), eq(messageThreads.organizationId, organizationId)));
  return thread;
}

export type ThreadMessage = {
  id: string;
  direction: "inbound" | "outbound";
  body: string;
  status: string;
  sentBy: "assistant" | "owner" | "system" | null;
  createdAt: string;
};

export type ThreadView = {
  id: string;
  contact: string;
  phoneNumberId: string;
  optedOut: boolean;
  optedOutAt: string | null;
  messages: ThreadMessage[];
  /** Texts to the contact from this number that wait (A2P 10DLC registration not approved), with why. */
  held: { id: string; body: string; reason: string; createdAt: string }[];
};

const THREAD_PAGE = 50;

/** The thread a message belongs to (older rows without one are matched by number and contact). */
export async function threadOfMessage(db: DbOrTx, organizationId: string, message: MessageRow, create: boolean): Promise<Thread | null> {
  if (message.threadId) {
    const [thread] = await db
      .select()
      .from(messageThreads)
      .where(and(eq(messageThreads.id, message.threadId), eq(messageThreads.organizationId, organizationId)));
    if (thread) return thread;
  }
  if (!message.phoneNumberId) return null;
  const contact = message.direction === "inbound" ? message.fromNumber : message.toNumber;
  if (create) return threadFor(db, organizationId, message.phoneNumberId, contact);
  const [thread] = await db
    .select()
    .from(messageThreads)
    .where(and(eq(messageThreads.phoneNumberId, message.phoneNumberId), eq(messageThreads.contactNumber, contact), eq(messageThreads.organizationId, organizationId)));
  return thread ?? null;
}

export async function threadView(db: DbOrTx, organizationId: string, message: MessageRow): Promise<ThreadView | null> {
  const thread = await threadOfMessage(db, organizationId, message, false);
  const contact = message.direction === "inbound" ? message.fromNumber : message.toNumber;
  const where = thread
    ? and(eq(messages.organizationId, organizationId), eq(messages.threadId, thread.id))
    : message.phoneNumberId
      ? and(
          eq(messages.organizationId, organizationId),
          eq(messages.phoneNumberId, message.phoneNumberId),
          sql`(${messages.fromNumber} = ${contact} or ${messages.toNumber} = ${contact})`,
        )
      : null;
  if (!where) return null;
  const rows = await db.select().from(messages).where(where).orderBy(desc(messages.createdAt), desc(messages.id)).limit(THREAD_PAGE);
  const held = message.phoneNumberId
    ? await db
        .select({ id: queuedTexts.id, body: queuedTexts.body, reason: queuedTexts.reason, createdAt: queuedTexts.createdAt })
        .from(queuedTexts)
        .where(
          and(
            eq(queuedTexts.organizationId, organizationId),
            eq(queuedTexts.phoneNumberId, message.phoneNumberId),
            eq(queuedTexts.toNumber, contact),
            isNull(queuedTexts.sentAt),
            isNull(queuedTexts.cancelledAt),
          ),
        )
        .orderBy(asc(queuedTexts.createdAt))
        .limit(THREAD_PAGE)
    : [];
  return {
    id: thread?.id ?? `${message.phoneNumberId}:${contact}`,
    contact,
    phoneNumberId: message.phoneNumberId!,
    optedOut: thread?.optedOut ?? false,
    optedOutAt: thread?.optedOutAt?.toISOString() ?? null,
    messages: rows.reverse().map((r) => ({
      id: r.id,
      direction: r.direction,
      body: r.body,
      status: r.status,
      sentBy: r.sentBy,
      createdAt: r.createdAt.toISOString(),
    })),
    held: held.map((h) => ({ id: h.id, body: h.body, reason: h.reason, createdAt: h.createdAt.toISOString() })),
  };
}

