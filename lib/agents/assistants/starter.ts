import "server-only";
import crypto from "node:crypto";
import type { DbOrTx } from "@/db/client";
import { voiceAssistants } from "@/db/schema";
import { DEFAULT_PERSONALITY } from "./personalities";
import { DESCRIPTION_MAX, GREETING_MAX, NAME_MAX } from "./schema";
import { DEFAULT_VOICE } from "./voices";

export const STARTER_ASSISTANT_NAME = "Front Desk";

/**
 * The assistant a new organization starts with, built from what sign-up knows — the organization's
 * name — so the voice test, the mobile chat and a first number work at once. Its instructions only
 * set the manner; the owner adds the facts (hours, prices, what they sell) by editing it, and the
 * replies use them (lib/platform/providers/llm/facts.ts).
 */
export function starterAssistant(organizationName: string, options: { namedByUser: boolean }) {
  const name = organizationName.trim();
  return {
    name: STARTER_ASSISTANT_NAME.slice(0, NAME_MAX),
    description: `Answers calls and texts for ${name}. Edit it to add your opening hours, prices and anything callers often ask.`.slice(
      0,
      DESCRIPTION_MAX,
    ),
    personality: DEFAULT_PERSONALITY,
    voice: DEFAULT_VOICE,
    instructions: `Greet callers warmly and help them on behalf of ${name}. Never guess prices, hours or availability you have not been given. Take a message with the caller's name and number when the team needs to follow up.`,
    greeting: (options.namedByUser
      ? `Thanks for calling ${name}! How can I help you today?`
      : "Hello, thanks for calling! How can I help you today?"
    ).slice(0, GREETING_MAX),
    isActive: true,
  };
}

/** Inserts the starter assistant (within any plan: every plan allows at least one assistant). */
export async function createStarterAssistant(db: DbOrTx, organizationId: string, organizationName: string, options: { namedByUser: boolean }) {
  const [row] = await db
    .insert(voiceAssistants)
    .values({ id: crypto.randomUUID(), organizationId, ...starterAssistant(organizationName, options) })
    .returning({ id: voiceAssistants.id });
  return row;
}
