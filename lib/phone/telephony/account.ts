import "server-only";
import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { telephonyAccounts } from "@/db/schema";
import { decryptSecret, encryptSecret } from "@/lib/platform/crypto/secret-box";
import { resolveCredential } from "@/lib/workspace/provider-selection/credentials";
import { env } from "@/lib/platform/env";
import { getTelephonyProvider } from "@/lib/workspace/provider-selection/telephony";
import { telephonyUrl } from "./urls";

export type CarrierAccount = { accountSid: string; authToken: string };

/**
 * The organization's simulated-carrier account (AC + 32 hex, and an auth token), created the first
 * time it is needed. Concurrent first uses agree on one row (insert … on conflict do nothing).
 */
export async function simulatedAccount(db: DbOrTx, organizationId: string): Promise<CarrierAccount> {
  const [existing] = await db.select().from(telephonyAccounts).where(eq(telephonyAccounts.organizationId, organizationId));
  if (existing) return { accountSid: existing.accountSid, authToken: decryptSecret(existing.authTokenCiphertext) };
  const accountSid = `AC${crypto.randomBytes(16).toString("hex")}`;
  const authToken = crypto.randomBytes(16).toString("hex");
  await db
    .insert(telephonyAccounts)
    .values({ organizationId, accountSid, authTokenCiphertext: encryptSecret(authToken) })
    .onConflictDoNothing();
  const [row] = await db.select().from(telephonyAccounts).where(eq(telephonyAccounts.organizationId, organizationId));
  return { accountSid: row.accountSid, authToken: decryptSecret(row.authTokenCiphertext) };
}

/**
 * The account that signs the webhooks of a number: the organization's Twilio credential (its own,
 * else the server's) for a Twilio number, its simulated-carrier account otherwise. Null when a
 * Twilio number has no Twilio credential any more (nothing can be verified).
 */
export async function carrierAccountFor(
  db: DbOrTx,
  number: { organizationId: string; provider: "twilio" | "simulated" },
): Promise<CarrierAccount | null> {
  if (number.provider === "simulated") return simulatedAccount(db, number.organizationId);
  const credential = await resolveCredential(db, number.organizationId, "twilio");
  return credential ? { accountSid: credential.secret.accountSid, authToken: credential.secret.authToken } : null;
}

export type TelephonyAccountView = {
  provider: "twilio" | "simulated";
  accountSid: string;
  voiceUrl: string;
  statusCallbackUrl: string;
  smsUrl: string;
  /** Only for the simulated carrier: what its console would show the account's owner. */
  authToken?: string;
  /**
   * The simulated carrier's account, whatever the current provider: numbers bought before Twilio
   * keys were added stay on it, and the browser's phone panel signs their calls with it.
   */
  simulatedCarrier: CarrierAccount;
  /** The simulated carrier's recording storage (what answers a <Record> in the phone panel and the simulator). */
  simulatorRecordingsUrl: string;
  /**
   * Whether signatures are checked against these URLs (PUBLIC_URL is set) or against the URL a request
   * arrives at (it is not): a client on another origin than PUBLIC_URL then signs the URL it requests.
   */
  signaturesUsePublicUrl: boolean;
};

/**
 * GET /api/telephony/account: the organization's carrier account and the URLs its numbers call.
 * The auth token is shown for the simulated carrier only (a Twilio token stays in Settings, encrypted).
 */
export async function getTelephonyAccount(db: DbOrTx, organizationId: string): Promise<TelephonyAccountView> {
  const [provider, simulated] = await Promise.all([getTelephonyProvider(db, organizationId), simulatedAccount(db, organizationId)]);
  const urls = {
    voiceUrl: telephonyUrl("voice"),
    statusCallbackUrl: telephonyUrl("status"),
    smsUrl: telephonyUrl("sms"),
    simulatorRecordingsUrl: telephonyUrl("simulatorRecordings"),
    signaturesUsePublicUrl: env.PUBLIC_URL_SET,
  };
  if (provider.name === "twilio") {
    const credential = await resolveCredential(db, organizationId, "twilio");
    return { provider: "twilio", accountSid: credential?.secret.accountSid ?? "", ...urls, simulatedCarrier: simulated };
  }
  return { provider: "simulated", accountSid: simulated.accountSid, authToken: simulated.authToken, ...urls, simulatedCarrier: simulated };
}
