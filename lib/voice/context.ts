import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { organizations, voiceAssistants, type BusinessProfile } from "@/db/schema";
import { resolvePersonality } from "@/lib/assistants/personalities";
import { resolveVoice, type Voice } from "@/lib/assistants/voices";
import { badRequest, notFound } from "@/lib/http/errors";
import type { AssistantPersona, BusinessInfo } from "@/lib/providers/llm/interface";

/**
 * Who answers and what they know: the assistant (persona and voice) and the business facts it may
 * state. One resolution for every channel — voice test, mobile chat, phone calls, texts — so a
 * change to what the assistant is told lands everywhere at once.
 */
export type ResolvedAssistant = { id: string | null; persona: AssistantPersona; voice: string };

const assistantColumns = {
  id: voiceAssistants.id,
  name: voiceAssistants.name,
  description: voiceAssistants.description,
  personality: voiceAssistants.personality,
  instructions: voiceAssistants.instructions,
  greeting: voiceAssistants.greeting,
  voice: voiceAssistants.voice,
};

type AssistantRow = { id: string; name: string; description: string; personality: string; instructions: string; greeting: string; voice: string };

function toResolved(row: AssistantRow): ResolvedAssistant {
  const { id, voice, ...persona } = row;
  return { id, voice, persona };
}

async function firstActiveAssistant(db: DbOrTx, organizationId: string): Promise<AssistantRow | undefined> {
  const [row] = await db
    .select(assistantColumns)
    .from(voiceAssistants)
    .where(and(eq(voiceAssistants.organizationId, organizationId), eq(voiceAssistants.isActive, true)))
    .orderBy(asc(voiceAssistants.createdAt), asc(voiceAssistants.id))
    .limit(1);
  return row;
}

/**
 * The voice test's assistant: `assistantId` (one of the organization's, active or not; another
 * organization's → 404), else the organization's first active assistant (none → 400).
 */
export async function resolveAssistant(db: DbOrTx, organizationId: string, assistantId?: string): Promise<ResolvedAssistant> {
  const row = assistantId
    ? (
        await db
          .select(assistantColumns)
          .from(voiceAssistants)
          .where(and(eq(voiceAssistants.id, assistantId), eq(voiceAssistants.organizationId, organizationId)))
      )[0]
    : await firstActiveAssistant(db, organizationId);
  if (!row) {
    if (assistantId) throw notFound("Voice assistant");
    throw badRequest(
      "No active voice assistant to test. Create one (or switch one on) in Voice Assistants (/voice-assistants), then try again.",
    );
  }
  return toResolved(row);
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
  const [row] = await db
    .select(assistantColumns)
    .from(voiceAssistants)
    .where(and(eq(voiceAssistants.id, id), eq(voiceAssistants.organizationId, organizationId)));
  return row ? toResolved(row) : null;
}

/** What the assistant may state, from the organization's name and business profile. */
export function toBusinessInfo(name: string, profile: BusinessProfile | null): BusinessInfo {
  const { hours, address, services, phone } = profile ?? {};
  return { name, hours, address, services, phone };
}

/** The business facts the assistant may state: the organization's name and its business profile. */
export async function businessInfo(db: DbOrTx, organizationId: string): Promise<BusinessInfo> {
  const [org] = await db
    .select({ name: organizations.name, profile: organizations.businessProfile })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org) throw notFound("Organization");
  return toBusinessInfo(org.name, org.profile);
}

/** The persona as the language model receives it (the personality id resolved to its description). */
export function personaForModel(assistant: ResolvedAssistant): AssistantPersona {
  return { ...assistant.persona, personalityDescription: resolvePersonality(assistant.persona.personality).description };
}

export function voiceOf(assistant: ResolvedAssistant): Voice {
  return resolveVoice(assistant.voice);
}
