import "server-only";
import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { emails, notifications } from "@/db/schema";
import { env } from "@/lib/platform/env";

/** The in-app notifications of one user, and the organization's e-mails (the Outbox). */
export async function listNotifications(db: Db, organizationId: string, userId: string) {
  const where = and(eq(notifications.organizationId, organizationId), eq(notifications.userId, userId));
  const [rows, [unread]] = await Promise.all([
    db.select().from(notifications).where(where).orderBy(desc(notifications.createdAt)).limit(50),
    db.select({ n: count() }).from(notifications).where(and(where, isNull(notifications.readAt))),
  ]);
  return {
    unread: unread.n,
    notifications: rows.map((r) => ({ id: r.id, kind: r.kind, title: r.title, body: r.body, link: r.link, read: Boolean(r.readAt), createdAt: r.createdAt.toISOString() })),
  };
}

/** Marks the user's notifications read (the ids given, or all of them); answers the new unread count. */
export async function markNotificationsRead(db: Db, organizationId: string, userId: string, ids?: string[]) {
  const mine = and(eq(notifications.organizationId, organizationId), eq(notifications.userId, userId), isNull(notifications.readAt));
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(ids ? and(mine, inArray(notifications.id, ids.length ? ids : [""])) : mine);
  const [unread] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.organizationId, organizationId), eq(notifications.userId, userId), isNull(notifications.readAt)));
  return { unread: unread.n };
}

export async function listEmails(db: Db, organizationId: string) {
  const rows = await db.select().from(emails).where(eq(emails.organizationId, organizationId)).orderBy(desc(emails.createdAt)).limit(50);
  return {
    smtpConfigured: Boolean(env.SMTP_URL),
    emails: rows.map((r) => ({ id: r.id, to: r.toAddress, subject: r.subject, text: r.text, html: r.html, kind: r.kind, status: r.status, error: r.error, createdAt: r.createdAt.toISOString() })),
  };
}
