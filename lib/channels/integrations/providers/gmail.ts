import "server-only";
import crypto from "node:crypto";
import { providerJson } from "@/lib/platform/outbound/provider-http";

/**
 * Gmail API (REST; no SDK installed): POST /gmail/v1/users/me/messages/send {raw} with the message
 * as RFC 5322 text, base64url-encoded. No From header: Gmail sends from the connected account, so
 * the recap and the owner alerts come from the owner's own address.
 */
export type OutgoingEmail = { to: string; subject: string; text: string; html: string; replyTo?: string | null };

/** RFC 2047 for a header that is not plain ASCII. */
function headerText(value: string): string {
  const clean = value.replace(/[\r\n]+/g, " ");
  return /^[\x20-\x7e]*$/.test(clean) ? clean : `=?UTF-8?B?${Buffer.from(clean, "utf8").toString("base64")}?=`;
}

function bodyPart(type: string, content: string): string {
  const encoded = Buffer.from(content, "utf8").toString("base64").replace(/.{76}/g, "$&\r\n");
  return `Content-Type: ${type}; charset="UTF-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n${encoded}\r\n`;
}

export function rfc822(email: OutgoingEmail): string {
  const boundary = `sb-${crypto.randomBytes(12).toString("hex")}`;
  const headers = [
    `To: ${headerText(email.to)}`,
    `Subject: ${headerText(email.subject)}`,
    ...(email.replyTo ? [`Reply-To: ${headerText(email.replyTo)}`] : []),
    "MIME-Version: 1.0",
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
  ];
  return `${headers.join("\r\n")}\r\n\r\n--${boundary}\r\n${bodyPart("text/plain", email.text)}--${boundary}\r\n${bodyPart("text/html", email.html)}--${boundary}--\r\n`;
}

export async function sendGmail(apiBase: string, token: string, email: OutgoingEmail): Promise<{ id: string }> {
  const raw = Buffer.from(rfc822(email), "utf8").toString("base64url");
  return providerJson<{ id: string }>("Gmail", `${apiBase}/gmail/v1/users/me/messages/send`, token, "POST", { raw });
}
