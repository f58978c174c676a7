/**
 * A local fake of Google Calendar API v3 and Google's OAuth token endpoint (the parts Switchboard
 * uses), for adapter and integration tests: plain HTTP on 127.0.0.1 with a random port.
 * Wire format as Google serves it:
 * - `POST /calendar/v3/freeBusy` {timeMin, timeMax, items: [{id}]} → {kind: "calendar#freeBusy",
 *   timeMin, timeMax, calendars: {id: {busy: [{start, end}]}}} (an unknown calendar: `errors:
 *   [{domain: "global", reason: "notFound"}]`). Busy = seeded busy times + opaque, non-cancelled events,
 *   clipped to the window and merged.
 * - `POST /calendar/v3/calendars/{calendarId}/events` → the event resource (kind "calendar#event");
 *   an id in use → 409 {error: {code: 409, message: "The requested identifier already exists.",
 *   errors: [{domain: "global", reason: "duplicate", …}]}}.
 * - `PATCH …/events/{eventId}` → the merged event; unknown → 404. `DELETE` → 204, the event becomes
 *   "cancelled"; deleting it again → 410 "Resource has been deleted".
 * - Every call needs `Authorization: Bearer <token>` with a token the fake issued or was given;
 *   otherwise 401 {error: {code: 401, status: "UNAUTHENTICATED", …}}.
 * - `GET /calendar/v3/users/me/calendarList` → {kind: "calendar#calendarList", items: [{id, summary, primary?, accessRole}]}
 *   (the first calendar added is the primary one).
 * - `POST /token` (form: grant_type=refresh_token, refresh_token, client_id, client_secret) →
 *   {access_token, expires_in, token_type: "Bearer", scope}; a bad grant → 400 {error: "invalid_grant"}.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeEvent = {
  kind: "calendar#event";
  id: string;
  status: "confirmed" | "cancelled";
  summary?: string;
  description?: string;
  start: { dateTime: string; timeZone?: string };
  end: { dateTime: string; timeZone?: string };
  transparency?: "opaque" | "transparent";
  created: string;
  updated: string;
  htmlLink: string;
  etag: string;
};

export type FakeRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown };

export type FakeGoogleCalendar = {
  url: string;
  tokenUrl: string;
  requests: FakeRequest[];
  /** calendarId → events by id */
  calendars: Map<string, Map<string, FakeEvent>>;
  /** Busy times that are not events the app made (the owner's other commitments). */
  seedBusy(calendarId: string, start: string, end: string): void;
  addCalendar(calendarId: string): void;
  /** Valid bearer tokens. */
  tokens: Set<string>;
  /** Refresh tokens the token endpoint accepts: refresh token → {clientId, clientSecret}. */
  refreshTokens: Map<string, { clientId: string; clientSecret: string }>;
  /** Makes the next N API calls answer this status (e.g. 500 or 401). */
  failNext(status: number, count?: number): void;
  close(): Promise<void>;
};

function googleError(res: http.ServerResponse, code: number, message: string, reason: string, status?: string) {
  res.writeHead(code, { "content-type": "application/json; charset=UTF-8" });
  res.end(JSON.stringify({ error: { code, message, errors: [{ domain: "global", reason, message }], ...(status ? { status } : {}) } }));
}

function sendJson(res: http.ServerResponse, code: number, body: unknown) {
  res.writeHead(code, { "content-type": "application/json; charset=UTF-8" });
  res.end(JSON.stringify(body));
}

function merge(intervals: { start: number; end: number }[]) {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  const out: { start: number; end: number }[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

export async function startFakeGoogleCalendar(): Promise<FakeGoogleCalendar> {
  const calendars = new Map<string, Map<string, FakeEvent>>();
  const busy = new Map<string, { start: number; end: number }[]>();
  const requests: FakeRequest[] = [];
  const tokens = new Set<string>();
  const refreshTokens = new Map<string, { clientId: string; clientSecret: string }>();
  let failures: { status: number; count: number } | null = null;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const isForm = (req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");
      let body: unknown = null;
      try {
        body = raw ? (isForm ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw)) : null;
      } catch {
        return googleError(res, 400, "Parse Error", "parseError");
      }
      requests.push({ method: req.method ?? "GET", path: url.pathname, headers: req.headers, body });

      if (req.method === "POST" && url.pathname === "/token") {
        const form = (body ?? {}) as Record<string, string>;
        const grant = refreshTokens.get(form.refresh_token ?? "");
        if (form.grant_type !== "refresh_token" || !grant || grant.clientId !== form.client_id || grant.clientSecret !== form.client_secret) {
          return sendJson(res, 400, { error: "invalid_grant", error_description: "Bad Request" });
        }
        const token = `ya29.fake-${crypto.randomBytes(12).toString("hex")}`;
        tokens.add(token);
        return sendJson(res, 200, { access_token: token, expires_in: 3599, scope: "https://www.googleapis.com/auth/calendar", token_type: "Bearer" });
      }

      if (failures && failures.count > 0) {
        failures.count -= 1;
        return googleError(res, failures.status, failures.status === 401 ? "Request had invalid authentication credentials." : "Backend Error", failures.status === 401 ? "authError" : "backendError", failures.status === 401 ? "UNAUTHENTICATED" : undefined);
      }
      const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
      if (!auth || !tokens.has(auth[1])) {
        return googleError(res, 401, "Request had invalid authentication credentials. Expected OAuth 2 access token.", "authError", "UNAUTHENTICATED");
      }

      if (req.method === "POST" && url.pathname === "/calendar/v3/freeBusy") {
        const q = (body ?? {}) as { timeMin?: string; timeMax?: string; items?: { id: string }[] };
        if (!q.timeMin || !q.timeMax) return googleError(res, 400, "Missing timeMin or timeMax.", "required");
        const min = Date.parse(q.timeMin);
        const max = Date.parse(q.timeMax);
        const result: Record<string, unknown> = {};
        for (const { id } of q.items ?? []) {
          const events = calendars.get(id);
          if (!events) {
            result[id] = { errors: [{ domain: "global", reason: "notFound" }], busy: [] };
            continue;
          }
          const intervals = [
            ...(busy.get(id) ?? []),
            ...[...events.values()]
              .filter((e) => e.status !== "cancelled" && e.transparency !== "transparent")
              .map((e) => ({ start: Date.parse(e.start.dateTime), end: Date.parse(e.end.dateTime) })),
          ]
            .map((i) => ({ start: Math.max(i.start, min), end: Math.min(i.end, max) }))
            .filter((i) => i.start < i.end);
          result[id] = { busy: merge(intervals).map((i) => ({ start: new Date(i.start).toISOString().replace(".000", ""), end: new Date(i.end).toISOString().replace(".000", "") })) };
        }
        return sendJson(res, 200, { kind: "calendar#freeBusy", timeMin: q.timeMin, timeMax: q.timeMax, calendars: result });
      }

      if (req.method === "GET" && url.pathname === "/calendar/v3/users/me/calendarList") {
        const items = [...calendars.keys()].map((id, i) => ({ kind: "calendar#calendarListEntry", id, summary: id, accessRole: "owner", ...(i === 0 ? { primary: true } : {}) }));
        return sendJson(res, 200, { kind: "calendar#calendarList", items });
      }

      const m = /^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(url.pathname);
      if (m) {
        const calendarId = decodeURIComponent(m[1]);
        const eventId = m[2] ? decodeURIComponent(m[2]) : null;
        const events = calendars.get(calendarId);
        if (!events) return googleError(res, 404, "Not Found", "notFound");
        const now = new Date().toISOString();
        if (req.method === "POST" && !eventId) {
          const input = (body ?? {}) as Partial<FakeEvent>;
          if (!input.start?.dateTime || !input.end?.dateTime) return googleError(res, 400, "Missing end time.", "required");
          const id = input.id ?? crypto.randomBytes(13).toString("hex");
          if (!/^[a-v0-9]{5,1024}$/.test(id)) return googleError(res, 400, "Invalid resource id value.", "invalid");
          if (events.has(id)) return googleError(res, 409, "The requested identifier already exists.", "duplicate");
          const event: FakeEvent = {
            kind: "calendar#event",
            id,
            status: input.status === "cancelled" ? "cancelled" : "confirmed",
            summary: input.summary,
            description: input.description,
            start: input.start,
            end: input.end,
            transparency: input.transparency ?? "opaque",
            created: now,
            updated: now,
            htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
            etag: `"${Date.now()}"`,
          };
          events.set(id, event);
          return sendJson(res, 200, event);
        }
        const existing = eventId ? events.get(eventId) : undefined;
        if (req.method === "PATCH" && eventId) {
          if (!existing) return googleError(res, 404, "Not Found", "notFound");
          const patch = (body ?? {}) as Partial<FakeEvent>;
          const updated: FakeEvent = { ...existing, ...patch, id: existing.id, kind: "calendar#event", updated: now, etag: `"${Date.now()}"` };
          events.set(existing.id, updated);
          return sendJson(res, 200, updated);
        }
        if (req.method === "DELETE" && eventId) {
          if (!existing) return googleError(res, 404, "Not Found", "notFound");
          if (existing.status === "cancelled") return googleError(res, 410, "Resource has been deleted", "deleted");
          events.set(existing.id, { ...existing, status: "cancelled", updated: now });
          res.writeHead(204);
          return res.end();
        }
      }
      googleError(res, 404, "Not Found", "notFound");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    tokenUrl: `${url}/token`,
    requests,
    calendars,
    tokens,
    refreshTokens,
    addCalendar(calendarId) {
      if (!calendars.has(calendarId)) calendars.set(calendarId, new Map());
    },
    seedBusy(calendarId, start, end) {
      busy.set(calendarId, [...(busy.get(calendarId) ?? []), { start: Date.parse(start), end: Date.parse(end) }]);
    },
    failNext(status, count = 1) {
      failures = { status, count };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
