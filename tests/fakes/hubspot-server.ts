/**
 * A local fake of HubSpot's OAuth server and CRM v3 API (the parts Switchboard uses), plain HTTP on
 * 127.0.0.1 with a random port. Point HUBSPOT_OAUTH_BASE and HUBSPOT_API_BASE at `url`.
 * Wire format as HubSpot documents it:
 * - OAuth: GET /oauth/authorize (auto-approved), POST /oauth/v1/token (form; client in the body),
 *   DELETE /oauth/v1/refresh-tokens/{token} → 204. The code exchange answers hub_domain and hub_id.
 * - POST /crm/v3/objects/contacts/search {filterGroups: [{filters: [{propertyName, operator: "EQ", value}]}]}
 *   → {total, results: [{id, properties, createdAt, updatedAt, archived}]}.
 * - POST /crm/v3/objects/contacts {properties} → 201 the object.
 * - POST /crm/v3/objects/calls {properties, associations: [{to: {id}, types: [{associationCategory, associationTypeId}]}]}
 *   → 201 the object; hs_timestamp is required (400 VALIDATION_ERROR otherwise).
 * - PATCH /crm/v3/objects/calls/{id} {properties} → 200 the merged object; unknown → 404.
 * - A missing or dead bearer token → 401 {status: "error", category: "INVALID_AUTHENTICATION"}.
 * - `failNext(status, count, headers)`: the next API calls answer that (429 RATE_LIMIT with
 *   Retry-After, or 503 for an outage).
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthFake, readBody } from "./oauth-server";

export type HubSpotObject = { id: string; properties: Record<string, string>; associations?: unknown; createdAt: string; updatedAt: string; archived: boolean };

export type FakeHubSpot = {
  url: string;
  oauth: OAuthFake;
  contacts: HubSpotObject[];
  calls: HubSpotObject[];
  requests: { method: string; path: string; body: unknown }[];
  failNext(status: number, count?: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
};

function hubspotError(res: http.ServerResponse, status: number, category: string, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json;charset=utf-8", ...headers });
  res.end(JSON.stringify({ status: "error", message, correlationId: crypto.randomUUID(), category }));
}

export async function startFakeHubSpot(): Promise<FakeHubSpot> {
  const oauth = new OAuthFake({
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/v1/token",
    revoke: { path: "/oauth/v1/refresh-tokens", how: "delete-path" },
    extraTokenFields: { hub_domain: "fake-portal.hubspot.com", hub_id: 4242 },
  });
  const contacts: HubSpotObject[] = [];
  const calls: HubSpotObject[] = [];
  const requests: FakeHubSpot["requests"] = [];
  let failures: { status: number; count: number; headers: Record<string, string> } | null = null;
  let next = 1000;
  const object = (properties: Record<string, string>, extra: Partial<HubSpotObject> = {}): HubSpotObject => {
    const now = new Date().toISOString();
    return { id: String(next++), properties: { ...properties, hs_object_id: String(next - 1) }, createdAt: now, updatedAt: now, archived: false, ...extra };
  };

  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake");
    if (oauth.handle(req, res, url, raw)) return;
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      return hubspotError(res, 400, "VALIDATION_ERROR", "Invalid input JSON");
    }
    requests.push({ method: req.method ?? "", path: url.pathname, body });
    if (!oauth.validBearer(req)) {
      return hubspotError(res, 401, "INVALID_AUTHENTICATION", "Authentication credentials not found. This API supports OAuth 2.0 authentication.");
    }
    if (failures && failures.count > 0) {
      failures.count -= 1;
      const { status, headers } = failures;
      if (status === 429) return hubspotError(res, 429, "RATE_LIMITS", "You have reached your secondly limit.", headers);
      return hubspotError(res, status, "INTERNAL_ERROR", "Service unavailable", headers);
    }
    const json = (status: number, value: unknown) => res.writeHead(status, { "content-type": "application/json;charset=utf-8" }).end(JSON.stringify(value));
    const b = (body ?? {}) as Record<string, unknown>;
    if (req.method === "POST" && url.pathname === "/crm/v3/objects/contacts/search") {
      const filters = ((b.filterGroups as { filters: { propertyName: string; operator: string; value: string }[] }[] | undefined) ?? []).flatMap((g) => g.filters);
      const results = contacts.filter((c) => filters.every((f) => f.operator === "EQ" && c.properties[f.propertyName] === f.value));
      return json(200, { total: results.length, results: results.slice(0, Number(b.limit ?? 10)) });
    }
    if (req.method === "POST" && url.pathname === "/crm/v3/objects/contacts") {
      const created = object((b.properties ?? {}) as Record<string, string>);
      contacts.push(created);
      return json(201, created);
    }
    if (req.method === "POST" && url.pathname === "/crm/v3/objects/calls") {
      const properties = (b.properties ?? {}) as Record<string, string>;
      if (!properties.hs_timestamp) return hubspotError(res, 400, "VALIDATION_ERROR", "Property values were not valid: hs_timestamp is required");
      const associations = (b.associations ?? []) as { to: { id: string } }[];
      for (const a of associations) {
        if (!contacts.some((c) => c.id === a.to.id)) return hubspotError(res, 400, "VALIDATION_ERROR", `No contact with ID ${a.to.id}`);
      }
      const created = object(properties, { associations });
      calls.push(created);
      return json(201, created);
    }
    const patch = /^\/crm\/v3\/objects\/calls\/([^/]+)$/.exec(url.pathname);
    if (req.method === "PATCH" && patch) {
      const existing = calls.find((c) => c.id === patch[1]);
      if (!existing) return hubspotError(res, 404, "OBJECT_NOT_FOUND", `Object not found. objectId are usually numeric.`);
      Object.assign(existing.properties, (b.properties ?? {}) as Record<string, string>);
      existing.updatedAt = new Date().toISOString();
      return json(200, existing);
    }
    hubspotError(res, 404, "OBJECT_NOT_FOUND", `No route ${req.method} ${url.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    oauth,
    contacts,
    calls,
    requests,
    failNext(status, count = 1, headers = {}) {
      failures = { status, count, headers };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
