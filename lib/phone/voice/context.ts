import "server-only";
import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { phoneNumbers, voiceAssistants, type BusinessHours, type CallRule, type RelayInterruptions } from "@/db/schema";
import { loadKnowledge } from "@/lib/knowledge/business-profile/service";
import { preparedStatement } from "@/lib/platform/database-statements";
import { badRequest, notFound } from "@/lib/platform/http/errors";
import { describeBusinessHours, isOpenAt } from "@/lib/phone/numbers/hours";
import { resolvePersonality } from "@/lib/agents/assistants/personalities";
import { resolveVoice, type Voice } from "@/lib/agents/assistants/voices";
import type { AssistantPersona, BusinessInfo } from "@/lib/platform/providers/llm/interface";

/** The assistant a turn runs with: its row's id (null for the public demo), what the model sees, its voice. */
export type ResolvedAssistant = { id: string | null; persona: AssistantPersona; voice: string; /** The owner's call-handling rules (lib/agents/conversation/call-rules.ts). */ callRules?: CallRule[]; /** ConversationRelay interruption settings (lib/phone/telephony/relay/settings.ts). */ relay?: { interruptions: RelayInterruptions; ignoreBackchannels: boolean } };

/** Everything a reply is written from, gathered in one place for the voice test, the chat and phone calls. */
export type AssistantContext = { assistant: ResolvedAssistant; business: BusinessInfo };

export type AssistantContextOptions = {
  /** The number being called (phone and SMS turns): its assistant and its business hours come first. */
  phoneNumberId?: string | null;
  /** "Open right now" is judged at this instant (tests pass one). */
  now?: Date;
};

export const NO_ACTIVE_ASSISTANT =
  "No active voice assistant to test. Create one (or switch one on) in Voice Assistants (/voice-assistants), then try again.";

const assistantColumns = {
  id: voiceAssistants.id,
  name: voiceAssistants.name,
  description: voiceAssistants.description,
  personality: voiceAssistants.personality,
  instructions: voiceAssistants.instructions,
  greeting: voiceAssistants.greeting,
  voice: voiceAssistants.voice,
  callRules: voiceAssistants.callRules,
  interruptions: voiceAssistants.interruptions,
  ignoreBackchannels: voiceAssistants.ignoreBackchannels,
};

type NumberRow = { id: string; friendlyName: string; assistantId: string | null; businessHours: BusinessHours | null };

async function loadNumber(db: DbOrTx, organizationId: string, phoneNumberId: string): Promise<NumberRow> {
  const [row] = await db
    .select({ id: phoneNumbers.id, friendlyName: phoneNumbers.friendlyName, assistantId: phoneNumbers.assistantId, businessHours: phoneNumbers.businessHours })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.id, phoneNumberId), eq(phoneNumbers.organizationId, organizationId)));
  if (!row) throw notFound("Phone number");
  return row;
}

/**
 * The assistant: the one asked for (another organization's → 404), else the number's assistant,
 * else the organization's oldest active one (none → 400 telling the user what to do).
 */
async function resolveAssistant(db: DbOrTx, organizationId: string, assistantId: string | null): Promise<ResolvedAssistant> {
  const row = assistantId ? await assistantRow(db, organizationId, assistantId) : await firstActiveAssistant(db, organizationId);
  if (!row) {
    if (assistantId) throw notFound("Voice assistant");
    throw badRequest(NO_ACTIVE_ASSISTANT);
  }
  return toResolved(row);
}

/**
 * Which numbers' hours speak for this assistant: the called number; else the active numbers that use
 * this assistant; else all the organization's active numbers. Only numbers with hours set count.
 */
async function hoursNumbers(db: DbOrTx, organizationId: string, assistantId: string | null, called: NumberRow | null): Promise<NumberRow[]> {
  if (called) return called.businessHours ? [called] : [];
  // Read on every turn that has no called number (voice test, chat): planned once per handle.
  const statement = preparedStatement(db, "switchboard_numbers_with_hours", () =>
    db
      .select({ id: phoneNumbers.id, friendlyName: phoneNumbers.friendlyName, assistantId: phoneNumbers.assistantId, businessHours: phoneNumbers.businessHours })
      .from(phoneNumbers)
      .where(
        and(eq(phoneNumbers.organizationId, sql.placeholder("organizationId")), eq(phoneNumbers.isActive, sql.placeholder("active")), isNotNull(phoneNumbers.businessHours)),
      )
      .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id)),
  );
  const rows: NumberRow[] = await statement.execute({ organizationId, active: true });
  const withHours = rows.filter((r) => describeBusinessHours(r.businessHours));
  const own = withHours.filter((r) => assistantId && r.assistantId === assistantId);
  return own.length ? own : withHours;
}

/**
 * The hours as callers hear them. One schedule (or several numbers sharing it): "Tue–Sun 7 AM–3 PM",
 * and whether it is open now. Different schedules: each with its number's name, and no "open now".
 */
function numbersHours(numbers: NumberRow[], now: Date): { hours?: string; openNow?: boolean } {
  const distinct = new Map<string, NumberRow>();
  for (const n of numbers) distinct.set(JSON.stringify(n.businessHours), n);
  if (distinct.size === 0) return {};
  if (distinct.size === 1) {
    const [only] = distinct.values();
    const open = isOpenAt(only.businessHours!, now);
    return { hours: describeBusinessHours(only.businessHours)!, ...(open === null ? {} : { openNow: open }) };
  }
  return {
    hours: [...distinct.values()].map((n) => `${n.friendlyName}: ${describeBusinessHours(n.businessHours)}`).join("; "),
  };
}

/**
 * What an organization's assistant knows for one turn (voice test, mobile chat, phone call, text):
 * the assistant (its instructions, greeting, personality and voice) and the business — its knowledge
 * rendered for this moment in its time zone (lib/knowledge/business-profile/knowledge.ts: hours per day, open
 * now?, holidays, services with prices, policies, FAQs); when the profile has no hours, its numbers'
 * business hours ("Tue–Sun 7 AM–3 PM") and whether it is open right now. The LLM providers are pure
 * and get all of this as arguments (lib/platform/providers/llm/interface.ts); this is the one place it is gathered.
 */
export async function assistantContext(
  db: DbOrTx,
  organizationId: string,
  assistantId?: string | null,
  options: AssistantContextOptions = {},
): Promise<AssistantContext> {
  const now = options.now ?? new Date();
  const called = options.phoneNumberId ? await loadNumber(db, organizationId, options.phoneNumberId) : null;
  const assistant = await resolveAssistant(db, organizationId, assistantId ?? called?.assistantId ?? null);
  const business = await businessFacts(db, organizationId, assistant.id, called, now);
  return { assistant, business };
}

async function businessFacts(db: DbOrTx, organizationId: string, assistantId: string | null, called: NumberRow | null, now: Date): Promise<BusinessInfo> {
  const business = await loadKnowledge(db, organizationId, now);
  if (!business.hours && !business.weeklyHours?.length) {
    Object.assign(business, numbersHours(await hoursNumbers(db, organizationId, assistantId, called), now));
  }
  return business;
}

/**
 * The business facts alone (phone calls and texts that already know their assistant, post-call
 * analysis): the same knowledge as assistantContext, with the called number's hours when the
 * profile has none.
 */
export async function businessInfo(
  db: DbOrTx,
  organizationId: string,
  options: { phoneNumberId?: string | null; assistantId?: string | null; now?: Date } = {},
): Promise<BusinessInfo> {
  const called = options.phoneNumberId ? await loadNumber(db, organizationId, options.phoneNumberId).catch(() => null) : null;
  return businessFacts(db, organizationId, options.assistantId ?? null, called, options.now ?? new Date());
}

type AssistantRow = { id: string; name: string; description: string; personality: string; instructions: string; greeting: string; voice: string; callRules: CallRule[]; interruptions: RelayInterruptions; ignoreBackchannels: boolean };

function toResolved(row: AssistantRow): ResolvedAssistant {
  const { id, voice, callRules, interruptions, ignoreBackchannels, ...persona } = row;
  return { id, voice, persona, callRules, relay: { interruptions, ignoreBackchannels } };
}

// Read on every turn of every conversation: planned once (lib/platform/database-statements.ts).
async function firstActiveAssistant(db: DbOrTx, organizationId: string): Promise<AssistantRow | undefined> {
  const statement = preparedStatement(db, "switchboard_first_active_assistant", () =>
    db
      .select(assistantColumns)
      .from(voiceAssistants)
      .where(and(eq(voiceAssistants.organizationId, sql.placeholder("organizationId")), eq(voiceAssistants.isActive, sql.placeholder("active"))))
      .orderBy(asc(voiceAssistants.createdAt), asc(voiceAssistants.id))
      .limit(sql.placeholder("limit")),
  );
  const [row] = await statement.execute({ organizationId, active: true, limit: 1 });
  return row;
}

/** The organization's assistant with this id, whatever its state. */
async function assistantRow(db: DbOrTx, organizationId: string, id: string): Promise<AssistantRow | undefined> {
  const statement = preparedStatement(db, "switchboard_assistant_by_id", () =>
    db
      .select(assistantColumns)
      .from(voiceAssistants)
      .where(and(eq(voiceAssistants.id, sql.placeholder("id")), eq(voiceAssistants.organizationId, sql.placeholder("organizationId")))),
  );
  const [row] = await statement.execute({ id, organizationId });
  return row;
}

/**
 * The assistant that answers a number: the one assigned to it while it is active, else the
 * organization's first active assistant; null when the organization has none switched on.
 */
export async function assistantForNumber(
  db: DbOrTx,
  organizationId: string,
  assignedId: string | null,
): Promise<ResolvedAssistant | null> {
  if (assignedId) {
    const [row] = await db
      .select(assistantColumns)
      .from(voiceAssistants)
      .where(and(eq(voiceAssistants.id, assignedId), eq(voiceAssistants.organizationId, organizationId), eq(voiceAssistants.isActive, true)));
    if (row) return toResolved(row);
  }
  const row = await firstActiveAssistant(db, organizationId);
  return row ? toResolved(row) : null;
}

/** An assistant by id within the organization (whatever its state), for turns of a call it already answers. */
export async function assistantById(db: DbOrTx, organizationId: string, id: string | null): Promise<ResolvedAssistant | null> {
  if (!id) return null;
  const row = await assistantRow(db, organizationId, id);
  return row ? toResolved(row) : null;
}

/** The persona as the language model receives it (the personality id resolved to its description). */
export function personaForModel(assistant: ResolvedAssistant): AssistantPersona {
  return { ...assistant.persona, personalityDescription: resolvePersonality(assistant.persona.personality).description };
}

export function voiceOf(assistant: ResolvedAssistant): Voice {
  return resolveVoice(assistant.voice);
}
