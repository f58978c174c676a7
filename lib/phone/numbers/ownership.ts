import "server-only";
import { and, eq, ne } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { phoneNumbers } from "@/db/schema";
import { assertMayCall } from "@/lib/phone/messages/opt-out";
import { badRequest, conflict, notFound } from "@/lib/platform/http/errors";
import type { TelephonyProvider } from "@/lib/platform/providers/telephony/interface";
import { getTelephonyProviderFor } from "@/lib/workspace/provider-selection/telephony";
import { simulatedAccount } from "@/lib/phone/telephony/account";
import { twilioSignature } from "@/lib/phone/telephony/signature";
import { telephonyUrl } from "@/lib/phone/telephony/urls";
import { verifyCarrierRequest, type CarrierRequest, type PhoneNumberRow } from "@/lib/phone/telephony/webhook";

/**
 * A brought-in number (issue 30): before it is treated as live, the owner proves they control it.
 * The carrier calls the number and the owner keys in the code shown on screen — Twilio's caller-ID
 * verification (a ValidationRequest, outcome on a signed status callback), and the simulated carrier
 * the same way (its handset is on the page; its answer is posted as the same signed callback). Then
 * "Test forwarding" places a call to the number and watches for it to arrive on the voice webhook.
 */

type Deps = { provider?: TelephonyProvider };

async function ownedNumber(db: DbOrTx, organizationId: string, id: string): Promise<PhoneNumberRow> {
  const [row] = await db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.organizationId, organizationId)));
  if (!row) throw notFound("Phone number");
  return row;
}

async function providerOf(db: DbOrTx, number: PhoneNumberRow, deps: Deps): Promise<TelephonyProvider> {
  const provider = deps.provider ?? (await getTelephonyProviderFor(db, number.organizationId, number.provider));
  if (!provider) throw conflict("This number's Twilio credentials are gone: add them in Settings → API Keys first.");
  return provider;
}

/** Starts (or restarts) the verification call; the code is kept until the outcome arrives. */
export async function startOwnershipCall(db: DbOrTx, organizationId: string, id: string, deps: Deps = {}) {
  const number = await ownedNumber(db, organizationId, id);
  if (number.ownershipStatus === "verified" || number.ownershipStatus === "not_needed") {
    throw conflict("This number is already verified.");
  }
  await assertMayCall(db, organizationId, number.phoneNumber); // every outbound call asks (lib/phone/messages/opt-out.ts)
  const provider = await providerOf(db, number, deps);
  const started = await provider.startCallerIdVerification({
    phoneNumber: number.phoneNumber,
    friendlyName: number.friendlyName,
    statusCallbackUrl: telephonyUrl("verification", { numberId: number.id }),
  });
  await db
    .update(phoneNumbers)
    .set({ ownershipStatus: "pending", ownershipCode: started.code, ownershipRequestSid: started.callSid, updatedAt: new Date() })
    .where(and(eq(phoneNumbers.id, number.id), eq(phoneNumbers.organizationId, organizationId)));
  return { status: "pending" as const, code: started.code };
}

/**
 * POST /api/telephony/verification?numberId=: the carrier's signed report of the verification call
 * (VerificationStatus success|failed). Verified against the number's own account like every webhook.
 */
export async function recordOwnershipResult(db: DbOrTx, req: CarrierRequest): Promise<{ status: "verified" | "failed" | "ignored" }> {
  const numberId = new URL(req.url).searchParams.get("numberId");
  const [number] = numberId ? await db.select().from(phoneNumbers).where(eq(phoneNumbers.id, numberId)) : [];
  if (!number) throw notFound("Phone number");
  await verifyCarrierRequest(db, req, number);
  if (number.ownershipStatus !== "pending") return { status: "ignored" };
  if (req.params.CallSid && number.ownershipRequestSid && req.params.CallSid !== number.ownershipRequestSid) return { status: "ignored" };
  const status = req.params.VerificationStatus === "success" ? "verified" : "failed";
  await db
    .update(phoneNumbers)
    .set({ ownershipStatus: status, ownershipCode: null, ownershipCheckedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(phoneNumbers.id, number.id), eq(phoneNumbers.ownershipStatus, "pending")));
  return { status };
}

/** Builds a request the simulated carrier signs with the organization's simulated account, as Twilio would. */
async function simulatedCarrierRequest(db: DbOrTx, organizationId: string, url: string, params: Record<string, string>): Promise<CarrierRequest> {
  const account = await simulatedAccount(db, organizationId);
  const signed = { AccountSid: account.accountSid, ...params };
  return { params: signed, signature: twilioSignature(account.authToken, url, signed), url, receivedAt: performance.now() };
}

/**
 * The simulated handset answers the verification call and keys `digits`: the simulated carrier then
 * reports the outcome on the same signed callback Twilio uses.
 */
export async function answerSimulatedOwnershipCall(db: DbOrTx, organizationId: string, id: string, digits: string) {
  const number = await ownedNumber(db, organizationId, id);
  if (number.provider !== "simulated") throw badRequest("Only a simulated number is answered here: Twilio calls your phone.", { digits: "Answer the call on your phone" });
  if (number.ownershipStatus !== "pending") throw conflict("There is no verification call waiting for this number.");
  const url = telephonyUrl("verification", { numberId: number.id });
  const req = await simulatedCarrierRequest(db, organizationId, url, {
    CallSid: number.ownershipRequestSid ?? "",
    To: number.phoneNumber,
    VerificationStatus: digits.trim() === number.ownershipCode ? "success" : "failed",
  });
  return recordOwnershipResult(db, req);
}

/** How long "Test forwarding" waits for the call to arrive before it says it did not. */
export const FORWARDING_TEST_WINDOW_MS = 60_000;

/**
 * "Test forwarding": calls the number from another of the organization's numbers (Twilio) or from the
 * simulated carrier, and records the test. The voice webhook marks it arrived when the call reaches
 * Switchboard (`forwardingTestArrival`). The simulated carrier posts that call at once.
 */
export async function startForwardingTest(
  db: DbOrTx,
  organizationId: string,
  id: string,
  deps: Deps & { deliver?: (req: CarrierRequest) => Promise<unknown> } = {},
) {
  const number = await ownedNumber(db, organizationId, id);
  if (number.ownershipStatus === "pending" || number.ownershipStatus === "failed") {
    throw conflict("Verify that you control this number first.");
  }
  const provider = await providerOf(db, number, deps);
  const [caller] = await db
    .select({ phoneNumber: phoneNumbers.phoneNumber })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.organizationId, organizationId), ne(phoneNumbers.id, number.id), eq(phoneNumbers.ownershipStatus, "not_needed")))
    .limit(1);
  const from = caller?.phoneNumber ?? number.phoneNumber;
  await assertMayCall(db, organizationId, number.phoneNumber); // every outbound call asks (lib/phone/messages/opt-out.ts)
  const placed = await provider.placeTestCall({ from, to: number.phoneNumber });
  const at = new Date().toISOString();
  await db
    .update(phoneNumbers)
    .set({ forwardingTest: { at, callSid: placed.callSid, arrived: false, from }, updatedAt: new Date() })
    .where(and(eq(phoneNumbers.id, number.id), eq(phoneNumbers.organizationId, organizationId)));
  if (provider.name === "simulated" && deps.deliver) {
    // The simulated carrier rings the number: the same signed voice webhook Twilio would post.
    const url = telephonyUrl("voice");
    await deps.deliver(await simulatedCarrierRequest(db, organizationId, url, { CallSid: placed.callSid, From: from, To: number.phoneNumber, CallStatus: "ringing", Direction: "inbound" }));
  }
  return { at, callSid: placed.callSid };
}

/**
 * Called by the voice webhook for every arriving call (after its signature is checked): a call from
 * the test's caller to one of the organization's numbers within the window is the test arriving.
 * Answers true when it was, so the webhook answers it briefly instead of starting the assistant.
 */
export async function forwardingTestArrival(db: DbOrTx, arrivedOn: PhoneNumberRow, params: Record<string, string>): Promise<boolean> {
  const rows = await db.select().from(phoneNumbers).where(eq(phoneNumbers.organizationId, arrivedOn.organizationId));
  const now = Date.now();
  const test = rows.find((row) => {
    const t = row.forwardingTest;
    if (!t || t.arrived || now - Date.parse(t.at) > FORWARDING_TEST_WINDOW_MS) return false;
    const fromTester = t.from === params.From;
    const sameCall = t.callSid === params.CallSid;
    const forwardedFrom = params.ForwardedFrom === row.phoneNumber;
    return sameCall || (fromTester && (arrivedOn.id === row.id || forwardedFrom || params.To === arrivedOn.phoneNumber));
  });
  if (!test?.forwardingTest) return false;
  await db
    .update(phoneNumbers)
    .set({ forwardingTest: { ...test.forwardingTest, arrived: true, arrivedAt: new Date().toISOString() } })
    .where(and(eq(phoneNumbers.id, test.id), eq(phoneNumbers.organizationId, test.organizationId)));
  return true;
}
