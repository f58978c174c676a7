import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { env } from "@/lib/platform/env";
import { escapeHtml, sendEmail } from "@/lib/platform/outbound/mail";

/** A password-reset link is valid for 30 minutes and works once (Better Auth consumes its token on use). */
export const PASSWORD_RESET_EXPIRES_IN_SECONDS = 30 * 60;

/** The page the e-mailed link opens: it asks for the new password and posts it with the token. */
export function passwordResetUrl(token: string): string {
  const url = new URL("/auth/reset-password", env.PUBLIC_URL);
  url.searchParams.set("token", token);
  return url.href;
}

/**
 * The reset e-mail, through the same path as every other e-mail (lib/platform/outbound/mail.ts): SMTP when
 * SMTP_URL is set, the owner's Gmail when connected, otherwise kept in the organization's Outbox.
 */
export async function sendPasswordResetEmail(db: Db, user: { id: string; email: string }, token: string) {
  const [row] = await db.select({ organizationId: users.organizationId, firstName: users.firstName }).from(users).where(eq(users.id, user.id));
  if (!row) return;
  const url = passwordResetUrl(token);
  const minutes = PASSWORD_RESET_EXPIRES_IN_SECONDS / 60;
  const greeting = row.firstName ? `Hi ${row.firstName},` : "Hi,";
  const text = [
    greeting,
    "",
    "Someone asked to reset the password of your Switchboard account. To choose a new password, open this link:",
    url,
    "",
    `The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.`,
  ].join("\n");
  const html = `<p>${escapeHtml(greeting)}</p><p>Someone asked to reset the password of your Switchboard account.</p><p><a href="${escapeHtml(url)}">Choose a new password</a></p><p>The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.</p>`;
  await sendEmail(db, { organizationId: row.organizationId, to: user.email, subject: "Reset your Switchboard password", text, html, kind: "password_reset" });
}
