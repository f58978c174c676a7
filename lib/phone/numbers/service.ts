import "server-only";
import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { phoneNumbers, voiceAssistants, type BusinessHours, type NumberRouting } from "@/db/schema";
import { DEFAULT_ROUTING } from "@/lib/phone/routing/rules";
import { assertWithinPlanLimit } from "@/lib/workspace/billing/limits";
import { badRequest, conflict, HttpError, notFound } from "@/lib/platform/http/errors";
import { TelephonyError, type AvailableNumber, type TelephonyProvider } from "@/lib/platform/providers/telephony/interface";
import { getTelephonyProvider, getTelephonyProviderFor, telephonyWebhookUrls } from "@/lib/workspace/provider-selection/telephony";
import { startOwnershipCall } from "./ownership";
import type { CreatePhoneNumberInput, SearchAvailableQuery, UpdatePhoneNumberInput } from "./schema";

/** What every phone-number route answers with (the contract's fields first). */
export type PhoneNumberDto = {
  id: string;
  phoneNumber: string;
  friendlyName: string;
  isActive: boolean;
  twilioSid: string | null;
  createdAt: string;
  provider: "twilio" | "simulated";
  assistantId: string | null;
  assistantName: string | null;
  forwardTo: string | null;
  businessHours: BusinessHours | null;
  /** Calls take the low-latency path (Twilio ConversationRelay through the gateway). */
  streaming: boolean;
  /** Ring first or assistant first, and the routing rules evaluated in order. */
  routing: NumberRouting;
  /**
   * A brought-in number's proof of control (lib/phone/numbers/ownership.ts): "not_needed" for a
   * number bought through Switchboard; the code to key in while the verification call is pending.
   */
  ownership: { status: "not_needed" | "pending" | "verified" | "failed"; code: string | null; checkedAt: string | null };
  /** The last "Test forwarding" call and whether it arrived. */
  forwardingTest: { at: string; arrived: boolean; arrivedAt: string | null } | null;
};

/** Tests hand in a provider (e.g. Twilio against a local fake); routes let the organization's settings choose. */
export type TelephonyDeps = { provider?: TelephonyProvider };

const columns = {
  id: phoneNumbers.id,
  phoneNumber: phoneNumbers.phoneNumber,
  friendlyName: phoneNumbers.friendlyName,
  isActive: phoneNumbers.isActive,
  twilioSid: phoneNumbers.twilioSid,
  createdAt: phoneNumbers.createdAt,
  provider: phoneNumbers.provider,
  assistantId: phoneNumbers.assistantId,
  assistantName: voiceAssistants.name,
  forwardTo: phoneNumbers.forwardTo,
  businessHours: phoneNumbers.businessHours,
  streaming: phoneNumbers.streaming,
  routing: phoneNumbers.routing,
  ownershipStatus: phoneNumbers.ownershipStatus,
  ownershipCode: phoneNumbers.ownershipCode,
  ownershipCheckedAt: phoneNumbers.ownershipCheckedAt,
  forwardingTestRaw: phoneNumbers.forwardingTest,
};

type Row = Awaited<ReturnType<typeof selectNumbers>>[number];

function toDto(row: Row): PhoneNumberDto {
  const { ownershipStatus, ownershipCode, ownershipCheckedAt, forwardingTestRaw, ...rest } = row;
  return {
    ...rest,
    createdAt: row.createdAt.toISOString(),
    assistantName: row.assistantName ?? null,
    routing: row.routing ?? DEFAULT_ROUTING,
    ownership: { status: ownershipStatus, code: ownershipStatus === "pending" ? ownershipCode : null, checkedAt: ownershipCheckedAt?.toISOString() ?? null },
    forwardingTest: forwardingTestRaw ? { at: forwardingTestRaw.at, arrived: forwardingTestRaw.arrived, arrivedAt: forwardingTestRaw.arrivedAt ?? null } : null,
  };
}

function selectNumbers(db: DbOrTx, organizationId: string) {
  return db
    .select(columns)
    .from(phoneNumbers)
    .leftJoin(
      voiceAssistants,
      and(eq(voiceAssistants.id, phoneNumbers.assistantId), eq(voiceAssistants.organizationId, organizationId)),
    );
}

/** The organization's numbers, newest first. */
export async function listPhoneNumbers(db: DbOrTx, organizationId: string): Promise<PhoneNumberDto[]> {
  const rows = await selectNumbers(db, organizationId)
    .where(eq(phoneNumbers.organizationId, organizationId))
    .orderBy(desc(phoneNumbers.createdAt), desc(phoneNumbers.id));
  return rows.map(toDto);
}

export async function getPhoneNumber(db: DbOrTx, organizationId: string, id: string): Promise<PhoneNumberDto> {
  const [row] = await selectNumbers(db, organizationId).where(
    and(eq(phoneNumbers.id, id), eq(phoneNumbers.organizationId, organizationId)),
  );
  if (!row) throw notFound("Phone number");
  return toDto(row);
}

/** Maps a provider failure to the HTTP error a person sees; `field` names the input it concerns. */
function httpError(error: unknown, field?: string): unknown {
  if (!(error instanceof TelephonyError)) return error;
  const errors = field ? { [field]: error.message } : undefined;
  switch (error.kind) {
    case "unavailable":
      return conflict(error.message, errors);
    case "invalid":
      return badRequest(error.message, errors);
    case "not_found":
      return new HttpError(404, error.message);
    default:
      // Our side of the carrier failed (refused credentials, outage): a bad gateway, not the caller's fault.
      return new HttpError(502, error.message);
  }
}

export async function viaProvider<T>(run: () => Promise<T>, field?: string): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw httpError(error, field);
  }
}

async function providerFor(db: DbOrTx, organizationId: string, deps: TelephonyDeps): Promise<TelephonyProvider> {
  return deps.provider ?? viaProvider(() => getTelephonyProvider(db, organizationId));
}

function isPgError(error: unknown, code: string): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === code || e?.cause?.code === code;
}

function alreadyOnSwitchboard(phoneNumber: string) {
  const message = `${phoneNumber} is already on Switchboard. Each number can belong to one workspace.`;
  return conflict(message, { phoneNumber: message });
}

async function assertNotTaken(db: DbOrTx, phoneNumber: string) {
  const [row] = await db.select({ id: phoneNumbers.id }).from(phoneNumbers).where(eq(phoneNumbers.phoneNumber, phoneNumber));
  if (row) throw alreadyOnSwitchboard(phoneNumber);
}

/** Numbers the organization's provider offers, to choose from in the Add Number dialog. */
export async function searchAvailableNumbers(
  db: DbOrTx,
  organizationId: string,
  query: SearchAvailableQuery,
  deps: TelephonyDeps = {},
): Promise<{ provider: "twilio" | "simulated"; areaCode: string | null; numbers: AvailableNumber[] }> {
  const provider = await providerFor(db, organizationId, deps);
  const numbers = await viaProvider(() => provider.searchAvailable({ areaCode: query.areaCode, limit: query.limit }), "areaCode");
  return { provider: provider.name, areaCode: query.areaCode ?? null, numbers };
}

async function insertNumber(
  db: DbOrTx,
  organizationId: string,
  input: CreatePhoneNumberInput,
  provider: TelephonyProvider,
  acquired: { sid: string | null; phoneNumber: string },
): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(phoneNumbers).values({
    id,
    organizationId,
    phoneNumber: acquired.phoneNumber,
    friendlyName: input.friendlyName,
    isActive: input.isActive,
    provider: provider.name,
    twilioSid: acquired.sid,
  });
  return id;
}

/**
 * Adds a number: checks the plan limit first (nothing is bought beyond it), then brings the
 * caller's own number (verified with the provider) or buys one (the chosen one, else the first
 * available, in the preferred area code when given), points its webhooks at Switchboard and stores it.
 */
export async function createPhoneNumber(
  db: DbOrTx,
  organizationId: string,
  input: CreatePhoneNumberInput,
  deps: TelephonyDeps = {},
): Promise<PhoneNumberDto> {
  await assertWithinPlanLimit(db, organizationId, "phoneNumbers");
  const provider = await providerFor(db, organizationId, deps);
  const urls = telephonyWebhookUrls();

  if (input.mode === "existing") {
    const phoneNumber = input.phoneNumber!;
    await assertNotTaken(db, phoneNumber);
    const result = await viaProvider(() => provider.verifyExistingNumber(phoneNumber), "phoneNumber");
    // A number already on the Twilio account (or a verified caller ID there) is proven; any other —
    // and every number on the simulated carrier — is proven with a verification call and a code.
    const proven = result.verified && provider.name === "twilio";
    if (result.verified && result.sid && result.kind !== "caller_id") {
      // A verified caller id is not on the account: there are no inbound webhooks to point at us.
      await viaProvider(() => provider.setWebhooks(result.sid!, urls), "phoneNumber");
    }
    let id: string;
    try {
      id = await insertNumber(db, organizationId, input, provider, { sid: result.verified ? (result.sid ?? null) : null, phoneNumber });
    } catch (error) {
      if (isPgError(error, "23505")) throw alreadyOnSwitchboard(phoneNumber);
      throw error;
    }
    await db
      .update(phoneNumbers)
      .set(proven ? { ownershipStatus: "verified", ownershipCheckedAt: new Date() } : { ownershipStatus: "pending" })
      .where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.organizationId, organizationId)));
    if (!proven) {
      try {
        await startOwnershipCall(db, organizationId, id, { provider });
      } catch (error) {
        // No verification call, no number: nothing half-added stays behind.
        await db.delete(phoneNumbers).where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.organizationId, organizationId)));
        throw httpError(error, "phoneNumber");
      }
    }
    return getPhoneNumber(db, organizationId, id);
  }

  // A number picked for the caller may be taken by a concurrent request between search and insert: pick again.
  const attempts = input.phoneNumber ? 1 : 3;
  for (let attempt = 1; ; attempt++) {
    let phoneNumber = input.phoneNumber;
    if (!phoneNumber) {
      const [first] = await viaProvider(() => provider.searchAvailable({ areaCode: input.areaCode, limit: 1 }), "areaCode");
      if (!first) {
        const message = input.areaCode
          ? `No numbers are available in area code ${input.areaCode} right now. Try another area code.`
          : "No numbers are available right now. Try again with an area code.";
        throw conflict(message, { areaCode: message });
      }
      phoneNumber = first.phoneNumber;
    }
    await assertNotTaken(db, phoneNumber);
    const bought = await viaProvider(() => provider.buyNumber({ phoneNumber, ...urls }), "phoneNumber");
    try {
      const id = await insertNumber(db, organizationId, input, provider, bought);
      return await getPhoneNumber(db, organizationId, id);
    } catch (error) {
      if (!isPgError(error, "23505")) throw error;
      // Not ours after all: give it back before answering.
      await provider.releaseNumber(bought.sid).catch(() => undefined);
      if (attempt >= attempts) throw alreadyOnSwitchboard(bought.phoneNumber);
    }
  }
}

async function findOwned(db: DbOrTx, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.organizationId, organizationId)));
  if (!row) throw notFound("Phone number");
  return row;
}

const ASSISTANT_MESSAGE = "Choose one of your organization's voice assistants";

export async function updatePhoneNumber(
  db: DbOrTx,
  organizationId: string,
  id: string,
  input: UpdatePhoneNumberInput,
): Promise<PhoneNumberDto> {
  const existing = await findOwned(db, organizationId, id);

  if (input.assistantId) {
    const [assistant] = await db
      .select({ id: voiceAssistants.id })
      .from(voiceAssistants)
      .where(and(eq(voiceAssistants.id, input.assistantId), eq(voiceAssistants.organizationId, organizationId)));
    if (!assistant) throw badRequest(`assistantId: ${ASSISTANT_MESSAGE}`, { assistantId: ASSISTANT_MESSAGE });
  }
  const loops = (input.routing?.rules ?? []).findIndex((r) => r.action === "forward" && r.to === existing.phoneNumber);
  if (loops >= 0) {
    const message = "Forward to another number: forwarding a number to itself would loop";
    throw badRequest(`routing.rules.${loops}.to: ${message}`, { [`routing.rules.${loops}.to`]: message });
  }
  if (input.routing?.mode === "ring_first" && !(input.forwardTo ?? existing.forwardTo)) {
    const message = "Ring first needs a forward-to number to ring";
    throw badRequest(`routing.mode: ${message}`, { "routing.mode": message });
  }
  if (input.forwardTo && input.forwardTo === existing.phoneNumber) {
    const message = "Forward to another number: forwarding a number to itself would loop";
    throw badRequest(`forwardTo: ${message}`, { forwardTo: message });
  }

  const patch: Partial<typeof phoneNumbers.$inferInsert> = { updatedAt: new Date() };
  if (input.friendlyName !== undefined) patch.friendlyName = input.friendlyName;
  if (input.isActive !== undefined) patch.isActive = input.isActive;
  if (input.assistantId !== undefined) patch.assistantId = input.assistantId;
  if (input.forwardTo !== undefined) patch.forwardTo = input.forwardTo;
  if (input.businessHours !== undefined) patch.businessHours = input.businessHours;
  if (input.streaming !== undefined) patch.streaming = input.streaming;
  if (input.routing !== undefined) patch.routing = input.routing;

  try {
    await db
      .update(phoneNumbers)
      .set(patch)
      .where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.organizationId, organizationId)));
  } catch (error) {
    // The assistant was deleted between the check and the update.
    if (isPgError(error, "23503")) throw badRequest(`assistantId: ${ASSISTANT_MESSAGE}`, { assistantId: ASSISTANT_MESSAGE });
    throw error;
  }
  return getPhoneNumber(db, organizationId, id);
}

/** Releases the number at its carrier, then forgets it. */
export async function deletePhoneNumber(
  db: DbOrTx,
  organizationId: string,
  id: string,
  deps: TelephonyDeps = {},
): Promise<{ success: true; id: string }> {
  const row = await findOwned(db, organizationId, id);
  if (row.twilioSid) {
    const provider = deps.provider ?? (await viaProvider(() => getTelephonyProviderFor(db, organizationId, row.provider)));
    if (!provider) {
      throw conflict(
        `${row.phoneNumber} was bought through Twilio, and no Twilio credentials are set any more. Add them in Settings → API Keys so the number can be released, then delete it again.`,
      );
    }
    await viaProvider(() => provider.releaseNumber(row.twilioSid!));
  }
  await db.delete(phoneNumbers).where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.organizationId, organizationId)));
  return { success: true, id };
}
