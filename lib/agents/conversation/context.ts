import "server-only";
import type { Db } from "@/db/client";
import { listResources } from "@/lib/scheduling/resources";
import type { Language, UnderstandingContext } from "./understanding/types";

/**
 * What every channel's turn needs to know about the business beyond its profile — today its staff by
 * name, so "is Dr. Smith in?" is the staff member on every channel (a call, the relay, a text, A2A,
 * the browser voice test) and "is Dr. Ramírez in?" is `no_such_person`. One loader for all of them.
 */
export type TurnContext = { people: string[] };

/** The business's staff by name: its staff resources (none when they cannot be read; the turn goes on). */
export async function loadTurnContext(db: Db, organizationId: string): Promise<TurnContext> {
  const rows = await listResources(db, organizationId).catch(() => []);
  return { people: rows.filter((r) => r.kind === "staff" && r.isActive !== false).map((r) => r.name) };
}

/** What understanding reads a turn's words against: the business's zone, services and staff, at the turn's clock. */
export function hearingContext(
  profile: { timezone?: string | null; services?: string[] | null },
  context: TurnContext,
  at: { now: Date; expecting?: UnderstandingContext["expecting"]; language?: Language },
): UnderstandingContext {
  return {
    now: at.now,
    timeZone: profile.timezone ?? "UTC",
    services: profile.services ?? [],
    people: context.people,
    ...(at.expecting !== undefined ? { expecting: at.expecting } : {}),
    ...(at.language ? { language: at.language } : {}),
  };
}
