import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { resources } from "@/db/schema";
import { encryptSecret, secretHint } from "@/lib/platform/crypto/secret-box";
import { badRequest, HttpError } from "@/lib/platform/http/errors";
import { invalidRequest } from "@/lib/platform/http/parse";
import { googleCalendarFor, type CalendarUrls, type GoogleCalendarConfig } from "@/lib/workspace/provider-selection/calendar";
import type { GoogleCredential } from "@/lib/platform/providers/calendar/google";
import { CalendarError } from "@/lib/platform/providers/calendar/interface";
import type { GoogleCalendarConnectInput } from "./schema";

/**
 * Connecting Google Calendar: there is no OAuth consent screen here (Switchboard has no Google
 * client of its own offline), so the owner pastes a credential: an access token for a quick try, or
 * a refresh token with the OAuth client it was issued to (e.g. from Google's OAuth Playground with
 * their own client) for lasting use. The credential is checked with a real free/busy query of the
 * next day before anything is saved, and stored encrypted.
 */
export async function connectGoogleCalendar(db: Db, organizationId: string, input: GoogleCalendarConnectInput, urls?: CalendarUrls) {
  if (input.resourceId) {
    const [r] = await db
      .select({ id: resources.id })
      .from(resources)
      .where(and(eq(resources.id, input.resourceId), eq(resources.organizationId, organizationId), isNull(resources.archivedAt)));
    if (!r) throw invalidRequest({ resourceId: "Choose staff or a room from your own list" });
  }
  const credential: GoogleCredential = input.refreshToken
    ? { refreshToken: input.refreshToken, clientId: input.clientId!, clientSecret: input.clientSecret! }
    : { accessToken: input.accessToken! };
  const calendar = googleCalendarFor(credential, urls);
  try {
    const now = Date.now();
    await calendar.freeBusy(input.calendarId, new Date(now), new Date(now + 86_400_000));
  } catch (error) {
    if (!(error instanceof CalendarError)) throw error;
    if (error.kind === "auth") throw badRequest(`Google refused the credential: ${error.message}`, { [input.refreshToken ? "refreshToken" : "accessToken"]: "Google refused this credential" });
    if (error.kind === "not_found") throw badRequest(`Google Calendar has no calendar ${input.calendarId} for this credential.`, { calendarId: "No such calendar for this credential" });
    throw new HttpError(502, `Could not reach Google Calendar to check the connection: ${error.message}`);
  }
  const config: GoogleCalendarConfig & { credentialHint: string } = {
    calendarId: input.calendarId,
    resourceId: input.resourceId ?? null,
    credentialKind: input.refreshToken ? "refresh_token" : "access_token",
    credentialHint: secretHint(input.refreshToken ?? input.accessToken!),
  };
  return { config: config as Record<string, unknown>, secretCiphertext: encryptSecret(JSON.stringify(credential)) };
}
