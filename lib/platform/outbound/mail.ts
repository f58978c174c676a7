import "server-only";
import crypto from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { emails, integrationConnections } from "@/db/schema";
import { queueProviderDeliveries } from "./provider-queue";
import { env } from "@/lib/platform/env";

/**
 * Every e-mail the app writes goes through here: with SMTP_URL it is sent with nodemailer (and kept
 * as a record, status sent or failed); without it it is kept with status outbox, and the Outbox page
 * shows it rendered. Either way the row is the evidence of what went out. When the organization has
 * connected Gmail, the e-mail is sent from the owner's Gmail instead, through the job runner (a
 * delivery on the Gmail card, retried), and its row turns "sent" when Gmail accepts it.
 */
export type Email = { organizationId: string; to: string; subject: string; text: string; html: string; kind: string; replyTo?: string };

let transport: Transporter | null = null;

async function gmailConnected(db: DbOrTx, organizationId: string): Promise<boolean> {
  const [row] = await db
    .select({ config: integrationConnections.config })
    .from(integrationConnections)
    .where(and(eq(integrationConnections.organizationId, organizationId), eq(integrationConnections.integration, "gmail"), eq(integrationConnections.connected, true)));
  return row?.config?.auth === "oauth";
}

function smtp(): Transporter | null {
  if (!env.SMTP_URL) return null;
  transport ??= nodemailer.createTransport(env.SMTP_URL);
  return transport;
}

export async function sendEmail(db: DbOrTx, email: Email): Promise<{ id: string; status: "sent" | "outbox" | "failed" }> {
  const id = crypto.randomUUID();
  if (await gmailConnected(db, email.organizationId)) {
    // Sent from the owner's own Gmail (docs/integrations.md) by the job runner; the row reads "sent" once Gmail takes it.
    await db.insert(emails).values({ id, organizationId: email.organizationId, toAddress: email.to, subject: email.subject, text: email.text, html: email.html, kind: email.kind, status: "outbox", error: null });
    await queueProviderDeliveries(db as Db, email.organizationId, "email.send", { emailId: id, ...(email.replyTo ? { replyTo: email.replyTo } : {}) });
    return { id, status: "outbox" };
  }
  const mailer = smtp();
  let status: "sent" | "outbox" | "failed" = "outbox";
  let error: string | null = null;
  if (mailer) {
    try {
      await mailer.sendMail({ from: env.SMTP_FROM ?? "Switchboard <no-reply@localhost>", to: email.to, subject: email.subject, text: email.text, html: email.html, ...(email.replyTo ? { replyTo: email.replyTo } : {}) });
      status = "sent";
    } catch (e) {
      status = "failed";
      error = (e instanceof Error ? e.message : String(e)).slice(0, 500);
      console.error(`[mail] sending "${email.subject}" failed: ${error}`);
    }
  }
  await db.insert(emails).values({ id, organizationId: email.organizationId, toAddress: email.to, subject: email.subject, text: email.text, html: email.html, kind: email.kind, status, error });
  return { id, status };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
