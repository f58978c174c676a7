import "server-only";
import crypto from "node:crypto";
import type { User } from "@a2a-js/sdk/server";
import { appSecret } from "@/lib/platform/crypto/app-secret";

/**
 * Who is calling an organization's agent. Over A2A anyone may start a conversation, so the caller's
 * identity is a token Switchboard issues with the first answer (docs/a2a.md "Caller tokens"): the
 * answer's `metadata.callerToken` and the `A2A-Caller-Token` response header. The caller presents
 * it as `Authorization: Bearer <token>` to read (GetTask, ListTasks), continue or cancel its tasks;
 * a task belongs to the token that created it, and a request without one sees no task.
 *
 * The token is random and signed (HMAC with the app secret, bound to the organization), so a forged
 * or another organization's token is refused; the database keeps only its SHA-256 (`owner_key`).
 */
export const CALLER_TOKEN_HEADER = "a2a-caller-token";
export const CALLER_TOKEN_METADATA_KEY = "callerToken";
const PREFIX = "a2act_";

function signature(organizationId: string, nonce: string): string {
  return crypto.createHmac("sha256", appSecret()).update(`a2a-caller:${organizationId}:${nonce}`).digest("base64url").slice(0, 32);
}

export function issueCallerToken(organizationId: string): string {
  const nonce = crypto.randomBytes(24).toString("base64url");
  return `${PREFIX}${nonce}.${signature(organizationId, nonce)}`;
}

/** True when the token was issued by this server for this organization. */
export function verifyCallerToken(organizationId: string, token: string): boolean {
  if (!token.startsWith(PREFIX)) return false;
  const [nonce, sig, extra] = token.slice(PREFIX.length).split(".");
  if (!nonce || !sig || extra !== undefined) return false;
  const expected = Buffer.from(signature(organizationId, nonce));
  const given = Buffer.from(sig);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

export function ownerKeyOf(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** The SDK's User for a caller: its userName is the owner key the task store scopes by. */
export class A2aCaller implements User {
  constructor(
    readonly token: string,
    /** True when this request issued the token (the caller presented none). */
    readonly issued: boolean,
  ) {}
  get isAuthenticated(): boolean {
    return true;
  }
  get userName(): string {
    return ownerKeyOf(this.token);
  }
}

/** The bearer token of a request, if any. */
export function presentedCallerToken(headers: Headers): string | null {
  const header = headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : "";
}
