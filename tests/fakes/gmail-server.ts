/**
 * A local fake of the Gmail API's send call, on 127.0.0.1 with a random port; it accepts the access
 * tokens of the Google OAuth fake it is given (google-oauth-server.ts). Point GOOGLE_API_BASE at `url`.
 * Wire format as Google documents it: POST /gmail/v1/users/me/messages/send {raw: base64url RFC 5322}
 * → {id, threadId, labelIds: ["SENT"]}; no raw or no To header → 400 {error: {code, message, status:
 * "INVALID_ARGUMENT"}}; a dead token → 401 UNAUTHENTICATED. `sent` keeps each message's headers and
 * decoded text/plain part.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, type OAuthFake } from "./oauth-server";

export type GmailMessage = { id: string; headers: Record<string, string>; text: string; html: string };

export type FakeGmail = { url: string; sent: GmailMessage[]; close(): Promise<void> };

function decodeHeader(value: string): string {
  return value.replace(/=\?UTF-8\?B\?([^?]+)\?=/gi, (_m, b64: string) => Buffer.from(b64, "base64").toString("utf8"));
}

function part(raw: string, type: string): string {
  const m = new RegExp(`Content-Type: ${type}[^\\r\\n]*\\r\\nContent-Transfer-Encoding: base64\\r\\n\\r\\n([\\s\\S]*?)\\r\\n--`).exec(raw);
  return m ? Buffer.from(m[1].replace(/\r\n/g, ""), "base64").toString("utf8") : "";
}

export async function startFakeGmail(oauth: OAuthFake): Promise<FakeGmail> {
  const sent: GmailMessage[] = [];
  const error = (res: http.ServerResponse, code: number, message: string, status: string) =>
    res.writeHead(code, { "content-type": "application/json" }).end(JSON.stringify({ error: { code, message, status } }));
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake");
    if (!oauth.validBearer(req)) return error(res, 401, "Request had invalid authentication credentials.", "UNAUTHENTICATED");
    if (req.method !== "POST" || url.pathname !== "/gmail/v1/users/me/messages/send") return error(res, 404, "Not Found", "NOT_FOUND");
    const { raw } = JSON.parse(body || "{}") as { raw?: string };
    if (!raw) return error(res, 400, "'raw' RFC822 payload message string or uploading message via /upload/* URL required", "INVALID_ARGUMENT");
    const text = Buffer.from(raw, "base64url").toString("utf8");
    const [head] = text.split("\r\n\r\n");
    const headers = Object.fromEntries(head.split("\r\n").map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), decodeHeader(line.slice(line.indexOf(":") + 1).trim())]));
    if (!headers.to) return error(res, 400, "Invalid To header", "INVALID_ARGUMENT");
    const message = { id: crypto.randomBytes(8).toString("hex"), headers, text: part(text, "text/plain"), html: part(text, "text/html") };
    sent.push(message);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: message.id, threadId: message.id, labelIds: ["SENT"] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sent, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
