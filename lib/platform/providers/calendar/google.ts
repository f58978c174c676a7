import { CalendarError, type BusyInterval, type CalendarEventInput, type CalendarProvider } from "./interface";

/**
 * Google Calendar over its REST API (v3) with fetch: `POST /calendar/v3/freeBusy`,
 * `POST|PATCH|DELETE /calendar/v3/calendars/{calendarId}/events[/{eventId}]`, and the OAuth token
 * endpoint for a refresh token. No SDK: `@googleapis/calendar`'s current releases need Node 22, and
 * the wire format is small. Tests run it against tests/fakes/google-calendar-server.ts.
 */
export type GoogleCredential =
  | { accessToken: string }
  | { refreshToken: string; clientId: string; clientSecret: string };

export type GoogleCalendarOptions = {
  credential: GoogleCredential;
  /** Default https://www.googleapis.com */
  apiBaseUrl?: string;
  /** Default https://oauth2.googleapis.com/token */
  tokenUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
};

export const GOOGLE_API_BASE_URL = "https://www.googleapis.com";
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

/** Google accepts event ids of base32hex characters (a–v, 0–9), 5 to 1024 long: a UUID without dashes is one. */
export function googleEventId(appointmentId: string): string {
  const id = appointmentId.toLowerCase().replace(/[^a-v0-9]/g, "");
  return id.length >= 5 ? id : `appt${id}00000`.slice(0, 5);
}

type GoogleError = { error?: { code?: number; message?: string; status?: string } | string; error_description?: string };

export function createGoogleCalendar(options: GoogleCalendarOptions): CalendarProvider {
  const apiBase = (options.apiBaseUrl ?? GOOGLE_API_BASE_URL).replace(/\/$/, "");
  const tokenUrl = options.tokenUrl ?? GOOGLE_TOKEN_URL;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let cached: { token: string; expiresAt: number } | null = "accessToken" in options.credential ? { token: options.credential.accessToken, expiresAt: Infinity } : null;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
    } catch (error) {
      throw new CalendarError(`Google Calendar did not answer: ${error instanceof Error ? error.message : String(error)}`, "unavailable");
    }
  }

  async function failure(res: Response, what: string): Promise<CalendarError> {
    const body = (await res.json().catch(() => ({}))) as GoogleError;
    const detail = typeof body.error === "string" ? (body.error_description ?? body.error) : (body.error?.message ?? res.statusText);
    const kind = res.status === 401 || res.status === 403 ? "auth" : res.status === 404 || res.status === 410 ? "not_found" : res.status === 400 ? "invalid" : "unavailable";
    return new CalendarError(`Google Calendar refused ${what} (${res.status}): ${detail}`, kind, res.status);
  }

  async function accessToken(force = false): Promise<string> {
    const credential = options.credential;
    if (!("refreshToken" in credential)) return credential.accessToken;
    if (!force && cached && cached.expiresAt > Date.now() + 60_000) return cached.token;
    const res = await send(tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: credential.refreshToken,
        client_id: credential.clientId,
        client_secret: credential.clientSecret,
      }).toString(),
    });
    if (!res.ok) throw await failure(res, "the refresh token");
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new CalendarError("Google's token endpoint answered without an access token", "auth");
    cached = { token: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 };
    return cached.token;
  }

  /** One API call with the bearer token; a 401 with a refresh token refreshes once and retries. */
  async function api(method: string, path: string, body: unknown): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const token = await accessToken(attempt > 0);
      const res = await send(`${apiBase}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status === 401 && attempt === 0 && "refreshToken" in options.credential) continue;
      return res;
    }
  }

  const eventsPath = (calendarId: string) => `/calendar/v3/calendars/${encodeURIComponent(calendarId)}/events`;

  function eventBody(event: CalendarEventInput) {
    return {
      summary: event.summary,
      description: event.description,
      start: { dateTime: event.start.toISOString(), timeZone: event.timeZone },
      end: { dateTime: event.end.toISOString(), timeZone: event.timeZone },
      transparency: event.transparent ? "transparent" : "opaque",
      status: "confirmed",
    };
  }

  return {
    name: "google",

    async freeBusy(calendarId, from, to) {
      const res = await api("POST", "/calendar/v3/freeBusy", { timeMin: from.toISOString(), timeMax: to.toISOString(), items: [{ id: calendarId }] });
      if (!res.ok) throw await failure(res, "the free/busy query");
      const body = (await res.json()) as { calendars?: Record<string, { busy?: { start: string; end: string }[]; errors?: { domain?: string; reason?: string }[] }> };
      const calendar = body.calendars?.[calendarId];
      if (!calendar) throw new CalendarError(`Google Calendar did not return the calendar ${calendarId}`, "not_found");
      if (calendar.errors?.length) {
        const reason = calendar.errors[0].reason ?? "unknown";
        throw new CalendarError(`Google Calendar cannot read ${calendarId}: ${reason}`, reason === "notFound" ? "not_found" : "auth");
      }
      return (calendar.busy ?? []).map((b): BusyInterval => ({ start: new Date(b.start), end: new Date(b.end) }));
    },

    async upsertEvent(calendarId, event) {
      const inserted = await api("POST", eventsPath(calendarId), { id: event.id, ...eventBody(event) });
      if (inserted.ok) return { id: ((await inserted.json()) as { id: string }).id };
      if (inserted.status !== 409) throw await failure(inserted, "the new event");
      // The id exists (a retry, or a move): update it in place.
      const patched = await api("PATCH", `${eventsPath(calendarId)}/${encodeURIComponent(event.id)}`, eventBody(event));
      if (!patched.ok) throw await failure(patched, "the event update");
      return { id: ((await patched.json()) as { id: string }).id };
    },

    async deleteEvent(calendarId, eventId) {
      const res = await api("DELETE", `${eventsPath(calendarId)}/${encodeURIComponent(eventId)}`, undefined);
      if (res.ok || res.status === 404 || res.status === 410) return;
      throw await failure(res, "the event deletion");
    },
  };
}
