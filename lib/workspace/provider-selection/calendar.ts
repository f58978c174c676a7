import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { integrationConnections } from "@/db/schema";
import { decryptSecret } from "@/lib/platform/crypto/secret-box";
import { env } from "@/lib/platform/env";
import { createGoogleCalendar, type GoogleCredential } from "@/lib/platform/providers/calendar/google";
import { CalendarError, type CalendarProvider } from "@/lib/platform/providers/calendar/interface";
import { isOAuthConnection } from "@/lib/platform/outbound/provider-queue";
import { accessTokenFor } from "@/lib/platform/outbound/oauth-grants";
import { resolveProvider } from "@/lib/platform/outbound/oauth-providers";
import { ProviderError } from "@/lib/platform/outbound/provider-http";

/**
 * The organization's connected external calendar, if any: Google Calendar when the catalogue's
 * "google-calendar" integration is connected (lib/channels/integrations), else null (the appointment book
 * alone is the calendar). Base URLs come from the environment (GOOGLE_CALENDAR_API_URL,
 * GOOGLE_OAUTH_TOKEN_URL) or the caller (tests aim them at tests/fakes/google-calendar-server.ts).
 */
export const GOOGLE_CALENDAR_SLUG = "google-calendar";

export type GoogleCalendarConfig = {
  calendarId: string;
  /** The staff member or room whose calendar it is; null: the whole business's. */
  resourceId: string | null;
  /** "oauth": connected through Connect with Google (lib/channels/integrations/oauth.ts); the others were pasted. */
  credentialKind: "access_token" | "refresh_token" | "oauth";
};

export type CalendarConnection = { provider: CalendarProvider; calendarId: string; resourceId: string | null };

export type CalendarUrls = { apiBaseUrl?: string; tokenUrl?: string };

/** Google Calendar's API base: GOOGLE_CALENDAR_API_URL, else GOOGLE_API_BASE, else Google's. */
export function googleCalendarApiBase(): string {
  return (env.GOOGLE_CALENDAR_API_URL ?? env.GOOGLE_API_BASE ?? "https://www.googleapis.com").replace(/\/$/, "");
}

export function googleCalendarFor(credential: GoogleCredential, urls: CalendarUrls = {}): CalendarProvider {
  return createGoogleCalendar({
    credential,
    apiBaseUrl: urls.apiBaseUrl ?? googleCalendarApiBase(),
    tokenUrl: urls.tokenUrl ?? env.GOOGLE_OAUTH_TOKEN_URL ?? resolveProvider("google")?.tokenUrl,
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
  if (isOAuthConnection(row)) {
    // Connected with Google: a fresh access token from the one OAuth flow (refreshed and stored there;
    // a refused refresh turns the card to "Reconnect").
    try {
      credential = { accessToken: await accessTokenFor(db, row) };
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      // Google is down (or the grant was just found revoked): every call fails the way an API call
      // would, so slot checks say "unavailable" and the sync job retries.
      const failure = new CalendarError(`Google Calendar: ${error.message}`, error.kind === "auth" ? "auth" : "unavailable", error.status ?? undefined);
      const failing: CalendarProvider = {
        name: "google",
        freeBusy: () => Promise.reject(failure),
        upsertEvent: () => Promise.reject(failure),
        deleteEvent: () => Promise.reject(failure),
      };
      return { provider: failing, calendarId: config.calendarId, resourceId: config.resourceId ?? null };
    }
    return { provider: googleCalendarFor(credential, urls), calendarId: config.calendarId, resourceId: config.resourceId ?? null };
  }
  try {
    credential = JSON.parse(decryptSecret(row.secretCiphertext)) as GoogleCredential;
  } catch {
    return null; // unreadable after a secret rotation: as if not connected
  }
  return { provider: googleCalendarFor(credential, urls), calendarId: config.calendarId, resourceId: config.resourceId ?? null };
}
