import "server-only";
import { patientAlert } from "@/lib/compliance/hipaa";
import { hipaaStateOf } from "@/lib/identity/organizations/hipaa-mode";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { notificationPreferences, notifications, users } from "@/db/schema";
import { env } from "@/lib/platform/env";
import { notificationDefaults, type NotificationPreferences } from "@/lib/workspace/settings/schema";
import { preferenceColumns } from "@/lib/workspace/settings/notification-columns";
import { escapeHtml, sendEmail } from "@/lib/platform/outbound/mail";

/**
 * Tells the organization's people, each per their own switches (Settings → Notifications). The alerts
 * an owner should not miss — a message, a voicemail, a missed call, an urgent task — each have their
 * own switch (on by default) and go by e-mail too while `alertEmails` is on (SMTP when set, the
 * Outbox otherwise). Call alerts are under `callAlerts` as well (the spec's "Call Alerts" switch
 * covers every call). Everything else (a handled call) needs `callAlerts` in the app and
 * `emailNotifications` by e-mail; a recap (kind "recap") is a system message: `systemUpdates`.
 */
export type Notice = { organizationId: string; kind: string; title: string; body: string; link: string };

export type NoticeResult = { inApp: number; emails: number };

/** Which switch governs a notice kind: one of the four alerts, or null for the rest. */
export function alertSwitch(kind: string): "messageAlerts" | "voicemailAlerts" | "missedCallAlerts" | "urgentTaskAlerts" | null {
  if (kind === "call.message" || kind === "text.message") return "messageAlerts";
  if (kind === "call.voicemail") return "voicemailAlerts";
  if (kind === "call.missed") return "missedCallAlerts";
  if (kind === "task.urgent") return "urgentTaskAlerts";
  return null;
}

/** What a person's switches decide for one notice: shown in the app, and e-mailed. */
export function deliveryFor(kind: string, prefs: NotificationPreferences): { inApp: boolean; email: boolean } {
  if (kind === "recap") return { inApp: prefs.systemUpdates, email: prefs.systemUpdates && prefs.emailNotifications };
  const alert = alertSwitch(kind);
  const callKind = kind.startsWith("call.");
  const inApp = (alert ? prefs[alert] : true) && (callKind || !alert ? prefs.callAlerts : true);
  const email = inApp && (alert ? prefs.alertEmails || prefs.emailNotifications : prefs.emailNotifications);
  return { inApp, email };
}

export async function recipientsOf(db: Db, organizationId: string): Promise<{ id: string; email: string; prefs: NotificationPreferences }[]> {
  const rows = await db
    .select({ id: users.id, email: users.email, saved: preferenceColumns, userId: notificationPreferences.userId })
    .from(users)
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(and(eq(users.organizationId, organizationId), eq(users.status, "active")));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    prefs: r.userId && r.saved ? (r.saved as NotificationPreferences) : { ...notificationDefaults },
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
    const wanted = deliveryFor(notice.kind, person.prefs);
    if (!wanted.inApp) continue;
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
    if (wanted.email) {
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
