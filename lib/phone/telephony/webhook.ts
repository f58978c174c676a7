import "server-only";
import { eq } from "drizzle-orm";
import twilio from "twilio";
import type { DbOrTx } from "@/db/client";
import { phoneNumbers } from "@/db/schema";
import { readBodyText } from "@/lib/platform/http/parse";
import { forbidden } from "@/lib/platform/http/errors";
import { carrierAccountFor, type CarrierAccount } from "./account";
import { signatureUrl } from "./urls";

export type PhoneNumberRow = typeof phoneNumbers.$inferSelect;

/** A carrier webhook as received: its form parameters, signature and the URL it was signed for. */
export type CarrierRequest = {
  params: Record<string, string>;
  signature: string | null;
  url: string;
  /** performance.now() when the request arrived: reply latencies are measured from here. */
  receivedAt: number;
};

/**
 * Reads a form-encoded carrier webhook. The raw body is read here (never as JSON): the signature is
 * computed over the exact parameters Twilio sent.
 */
export async function readCarrierRequest(req: Request): Promise<CarrierRequest> {
  const receivedAt = performance.now();
  const text = await readBodyText(req, 64 * 1024);
  const params: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) params[name] = value;
  return { params, signature: req.headers.get("x-twilio-signature"), url: signatureUrl(req), receivedAt };
}

/** The number a call or text was placed to (carrier numbers are unique across organizations). */
export async function findNumber(db: DbOrTx, e164: string | undefined): Promise<PhoneNumberRow | null> {
  if (!e164) return null;
  const [row] = await db.select().from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, e164.trim()));
  return row ?? null;
}

export const SIGNATURE_MESSAGE = "The request's X-Twilio-Signature is missing or does not match.";

/**
 * Checks a webhook against the account that owns the number: the AccountSid must be that account's,
 * and X-Twilio-Signature must be Twilio's HMAC-SHA1 of the URL and the sorted parameters keyed with
 * its auth token (`twilio.validateRequest`, which also tries the URL with and without its port).
 * Anything else → 403 before anything is written.
 */
export async function verifyCarrierRequest(
  db: DbOrTx,
  request: CarrierRequest,
  number: Pick<PhoneNumberRow, "organizationId" | "provider">,
  /** The owning account when the caller already loaded it. */
  known?: CarrierAccount,
) {
  if (!request.signature) throw forbidden(SIGNATURE_MESSAGE);
  const account = known ?? (await carrierAccountFor(db, number));
  if (!account) throw forbidden("This number's Twilio credentials are gone, so its webhooks cannot be verified.");
  if (request.params.AccountSid && request.params.AccountSid !== account.accountSid) throw forbidden(SIGNATURE_MESSAGE);
  if (!twilio.validateRequest(account.authToken, request.signature, request.url, request.params)) throw forbidden(SIGNATURE_MESSAGE);
  // Verified as sent; now made storable. PostgreSQL's text cannot hold NUL, and a NUL in a
  // SpeechResult or a Body must not end a call or drop a text (it was a 500).
  for (const [name, value] of Object.entries(request.params)) if (value.includes("\u0000")) request.params[name] = value.replaceAll("\u0000", "");
  return account;
}

/**
 * The number a webhook was placed to (`To`), its signature verified against that number's account;
 * null when the number is not ours (nothing to verify against: the caller answers politely or 403).
 */
export async function verifiedNumber(db: DbOrTx, request: CarrierRequest): Promise<PhoneNumberRow | null> {
  const number = await findNumber(db, request.params.To);
  if (number) await verifyCarrierRequest(db, request, number);
  return number;
}

/** A webhook about a call we know, verified against the account of the call's organization. */
export function verifyForCall(db: DbOrTx, request: CarrierRequest, call: { organizationId: string; provider: PhoneNumberRow["provider"] | null }) {
  return verifyCarrierRequest(db, request, { organizationId: call.organizationId, provider: call.provider ?? "simulated" });
}

export function twimlResponse(xml: string, status = 200): Response {
  return new Response(xml, { status, headers: { "content-type": "text/xml; charset=utf-8", "cache-control": "no-store" } });
}
