import "server-only";
import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, voiceAssistants, type CallRule, type RelayInterruptions } from "@/db/schema";
import { assertWithinPlanLimit, planLimitStatus } from "@/lib/workspace/billing/limits";
import { notFound } from "@/lib/platform/http/errors";
import { personalities } from "./personalities";
import type { CreateAssistantInput, UpdateAssistantInput } from "./schema";
import { voiceOptions } from "./voices";

/** The public shape of an assistant (spec core §3 plus greeting and updatedAt). */
export type VoiceAssistant = {
  id: string;
  name: string;
  description: string;
  personality: string;
  instructions: string;
  voice: string;
  greeting: string;
  isActive: boolean;
  /** The owner's call-handling rules (lib/agents/conversation/call-rules.ts). */
  callRules: CallRule[];
  /** ConversationRelay: what may interrupt the assistant while it speaks (lib/phone/telephony/relay/settings.ts). */
  interruptions: RelayInterruptions;
  /** ConversationRelay: backchannels ("uh-huh", "okay") while the assistant speaks are ignored. */
  ignoreBackchannels: boolean;
  createdAt: Date;
  updatedAt: Date;
};

const publicColumns = {
  id: voiceAssistants.id,
  name: voiceAssistants.name,
  description: voiceAssistants.description,
  personality: voiceAssistants.personality,
  instructions: voiceAssistants.instructions,
  voice: voiceAssistants.voice,
  greeting: voiceAssistants.greeting,
  isActive: voiceAssistants.isActive,
  callRules: voiceAssistants.callRules,
  interruptions: voiceAssistants.interruptions,
  ignoreBackchannels: voiceAssistants.ignoreBackchannels,
  createdAt: voiceAssistants.createdAt,
  updatedAt: voiceAssistants.updatedAt,
};

/** The organization's assistants, newest first. */
export async function listAssistants(db: Db, organizationId: string): Promise<VoiceAssistant[]> {
  return db
    .select(publicColumns)
    .from(voiceAssistants)
    .where(eq(voiceAssistants.organizationId, organizationId))
    .orderBy(desc(voiceAssistants.createdAt), desc(voiceAssistants.id));
}

export async function getAssistant(db: Db, organizationId: string, id: string): Promise<VoiceAssistant> {
  const [row] = await db
    .select(publicColumns)
    .from(voiceAssistants)
    .where(and(eq(voiceAssistants.id, id), eq(voiceAssistants.organizationId, organizationId)));
  if (!row) throw notFound("Voice assistant");
  return row;
}

/**
 * Creates an assistant within the plan's limit (403 otherwise). The organization row is locked for
 * the check and the insert, so two simultaneous creates cannot both take the last free slot.
 */
export async function createAssistant(db: Db, organizationId: string, input: CreateAssistantInput): Promise<VoiceAssistant> {
  return db.transaction(async (tx) => {
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).for("update");
    await assertWithinPlanLimit(tx, organizationId, "assistants");
    const [row] = await tx
      .insert(voiceAssistants)
      .values({ id: crypto.randomUUID(), organizationId, ...input })
      .returning(publicColumns);
    return row;
  });
}

/** Changes the given fields; another organization's id (or an unknown one) → 404. */
export async function updateAssistant(
  db: Db,
  organizationId: string,
  id: string,
  patch: UpdateAssistantInput,
): Promise<VoiceAssistant> {
  const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  const [row] = await db
    .update(voiceAssistants)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(voiceAssistants.id, id), eq(voiceAssistants.organizationId, organizationId)))
    .returning(publicColumns);
  if (!row) throw notFound("Voice assistant");
  return row;
}

/** Deletes the assistant; numbers and calls that pointed at it keep their rows (set null). */
export async function deleteAssistant(db: Db, organizationId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(voiceAssistants)
    .where(and(eq(voiceAssistants.id, id), eq(voiceAssistants.organizationId, organizationId)))
    .returning({ id: voiceAssistants.id });
  if (deleted.length === 0) throw notFound("Voice assistant");
}

/**
 * The lists the create/edit form offers, and where the organization stands against its plan's
 * assistant limit (`limit`), so the screen offers to edit the existing assistant and names the
 * upgrade instead of a create that would fail with 403.
 */
export async function assistantOptions(db: Db, organizationId: string) {
  return {
    personalities: personalities.map(({ id, label, description }) => ({ id, label, description })),
    voices: voiceOptions(),
    limit: await planLimitStatus(db, organizationId, "assistants"),
  };
}
