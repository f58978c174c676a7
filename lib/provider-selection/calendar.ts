import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { integrationConnections } from "@/db/schema";
import { decryptSecret } from "@/lib/crypto/secret-box";
import { env } from "@/lib/env";
import { createGoogleCalendar, type GoogleCredential } from "@/lib/providers/calendar/google";
import type { CalendarProvider } from "@/lib/providers/calendar/interface";

/**
 * The organization's connected external calendar, if any: Google Calendar when the catalogue's
 * "google-calendar" integration is connected (lib/integrations), else null (the appointment book
 * alone is the calendar). Base URLs come from the environment (GOOGLE_CALENDAR_API_URL,
 * GOOGLE_OAUTH_TOKEN_URL) or the caller (tests aim them at tests/fakes/google-calendar-server.ts).
 */
export const GOOGLE_CALENDAR_SLUG = "google-calendar";

export type GoogleCalendarConfig = {
  calendarId: string;
  /** The staff member or room whose calendar it is; null: the whole business's. */
  resourceId: string | null;
  credentialKind: "access_token" | "refresh_token";
};

export type CalendarConnection = { provider: CalendarProvider; calendarId: string; resourceId: string | null };

export type CalendarUrls = { apiBaseUrl?: string; tokenUrl?: string };

export function googleCalendarFor(credential: GoogleCredential, urls: CalendarUrls = {}): CalendarProvider {
  return createGoogleCalendar({
    credential,
    apiBaseUrl: urls.apiBaseUrl ?? env.GOOGLE_CALENDAR_API_URL,
    tokenUrl: urls.tokenUrl ?? env.GOOGLE_OAUTH_TOKEN_URL,
  });
}

export async function getCalendarConnection(db: DbOrTx, organizationId: string, urls: CalendarUrls = {}): Promise<CalendarConnection | null> {
  const [row] = await db
    .select()
    .from(integrationConnections)
    .where(
      and(
        eq(integrationConnections.organizationId, organizationId),
        eq(integrationConnections.integration, GOOGLE_CALENDAR_SLUG),
        eq(integrationConnections.connected, true),
      ),
    );
  if (!row?.secretCiphertext) return null;
  const config = row.config as Partial<GoogleCalendarConfig>;
  if (!config.calendarId) return null;
  let credential: GoogleCredential;
  try {
    credential = JSON.parse(decryptSecret(row.secretCiphertext)) as GoogleCredential;
  } catch {
    return null; // unreadable after a secret rotation: as if not connected
  }
  return { provider: googleCalendarFor(credential, urls), calendarId: config.calendarId, resourceId: config.resourceId ?? null };
}
