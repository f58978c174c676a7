import "server-only";
import { hipaaStateOf, patientAlert } from "@/lib/compliance/hipaa";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { notificationPreferences, notifications, users } from "@/db/schema";
import { env } from "@/lib/env";
import { notificationDefaults, type NotificationPreferences } from "@/lib/settings/schema";
import { escapeHtml, sendEmail } from "./mail";

/**
 * Tells the organization's people, each per their own notification switches (Settings →
 * Notifications): `callAlerts` on → an in-app notification; `emailNotifications` on as well → an
 * e-mail. A recap (kind "recap") is a system message: `systemUpdates` instead of `callAlerts`.
 */
export type Notice = { organizationId: string; kind: string; title: string; body: string; link: string };

export type NoticeResult = { inApp: number; emails: number };

export async function recipientsOf(db: Db, organizationId: string): Promise<{ id: string; email: string; prefs: NotificationPreferences }[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      emailNotifications: notificationPreferences.emailNotifications,
      callAlerts: notificationPreferences.callAlerts,
      systemUpdates: notificationPreferences.systemUpdates,
    })
    .from(users)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(and(eq(users.organizationId, organizationId), eq(users.status, "active")));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    prefs: {
      emailNotifications: r.emailNotifications ?? notificationDefaults.emailNotifications,
      callAlerts: r.callAlerts ?? notificationDefaults.callAlerts,
      systemUpdates: r.systemUpdates ?? notificationDefaults.systemUpdates,
    },
  }));
}

export function absoluteLink(link: string): string {
  return new URL(link, env.PUBLIC_URL).toString();
}

export async function notifyOwners(db: Db, notice: Notice, email?: { subject: string; text: string; html: string; replyTo?: string }): Promise<NoticeResult> {
  const result: NoticeResult = { inApp: 0, emails: 0 };
  // HIPAA mode: the alert says what happened, never who or why (lib/compliance/hipaa.ts).
  if ((await hipaaStateOf(db, notice.organizationId)).on) {
    notice = { ...notice, ...patientAlert(notice.kind) };
    email = undefined;
  }
  for (const person of await recipientsOf(db, notice.organizationId)) {
    const wanted = notice.kind === "recap" ? person.prefs.systemUpdates : person.prefs.callAlerts;
    if (!wanted) continue;
    await db.insert(notifications).values({
      id: crypto.randomUUID(),
      organizationId: notice.organizationId,
      userId: person.id,
      kind: notice.kind,
      title: notice.title,
      body: notice.body,
      link: notice.link,
    });
    result.inApp += 1;
    if (person.prefs.emailNotifications) {
      const link = absoluteLink(notice.link);
      await sendEmail(db, {
        organizationId: notice.organizationId,
        to: person.email,
        kind: notice.kind,
        subject: email?.subject ?? notice.title,
        text: email?.text ?? `${notice.title}\n\n${notice.body}\n\n${link}`,
        html: email?.html ?? `<h2>${escapeHtml(notice.title)}</h2><p>${escapeHtml(notice.body)}</p><p><a href="${escapeHtml(link)}">Open in Switchboard</a></p>`,
        ...(email?.replyTo ? { replyTo: email.replyTo } : {}),
      });
      result.emails += 1;
    }
  }
  return result;
}
