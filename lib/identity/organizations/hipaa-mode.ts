import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { complianceSettings, organizations } from "@/db/schema";

/**
 * An organization's HIPAA mode (docs/compliance.md#hipaa-mode), the switch only: on by default for
 * dental and medical businesses. It sits with the organization, below what it rules: sessions that
 * expire when idle (../auth/idle-sessions.ts) and the providers a call may use
 * (lib/workspace/provider-selection/). What the mode does to alerts and the access log is compliance's
 * (lib/compliance/hipaa.ts).
 */

/** Providers that receive call audio or text; the carrier and payments are not switched by this mode. */
export const HEALTH_DATA_PROVIDERS = ["anthropic", "elevenlabs", "deepgram"] as const;
export const HIPAA_IDLE_MINUTES = 15;

const HEALTH = /\b(dent\w*|orthodont\w*|medic\w*|clinic|health|doctor|physician|pediatric\w*|chiropract\w*|physio\w*|therap\w*|dermatolog\w*|optometr\w*|hygien\w*|surgery|surgical|hospital|pharmac\w*|nurs\w*|patients?)\b/i;

/** Dental and medical businesses, by their name and the services they list. */
export function looksLikeHealthcare(name: string, services: string[] = []): boolean {
  return HEALTH.test([name, ...services].join(" "));
}

export type HipaaState = { on: boolean; baaProviders: string[] };

/** One query: the saved switch, else the default from the business's name and services. */
export async function hipaaStateOf(db: DbOrTx, organizationId: string): Promise<HipaaState> {
  const [row] = await db
    .select({ name: organizations.name, profile: organizations.businessProfile, hipaaMode: complianceSettings.hipaaMode, baaProviders: complianceSettings.baaProviders })
    .from(organizations)
    .leftJoin(complianceSettings, eq(complianceSettings.organizationId, organizations.id))
    .where(eq(organizations.id, organizationId));
  if (!row) return { on: false, baaProviders: [] };
  return { on: row.hipaaMode ?? looksLikeHealthcare(row.name, row.profile.services), baaProviders: row.baaProviders ?? [] };
}

/** Whether a provider may be used for this organization's calls and texts. */
export function providerAllowed(state: HipaaState, provider: string): boolean {
  if (!state.on) return true;
  if (!(HEALTH_DATA_PROVIDERS as readonly string[]).includes(provider)) return true;
  return state.baaProviders.map((p) => p.toLowerCase()).includes(provider);
}

