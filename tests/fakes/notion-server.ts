/**
 * A local fake of Notion's OAuth and the API calls Switchboard makes, on 127.0.0.1 with a random
 * port. Point NOTION_OAUTH_BASE and NOTION_API_BASE at `url`. Wire format as Notion documents it
 * (API version 2022-06-28, sent as `Notion-Version`; without it → 400 missing_version):
 * - GET /v1/oauth/authorize (auto-approved); POST /v1/oauth/token (JSON, client with HTTP Basic) →
 *   {access_token, token_type: "bearer", bot_id, workspace_name, workspace_id, …};
 *   POST /v1/oauth/revoke {token} (Basic).
 * - POST /v1/search {filter: {property: "object", value: "database"}} → {object: "list", results: [database]}.
 * - GET /v1/databases/{id} → {object: "database", id, title, properties: {name: {id, name, type}}}.
 * - POST /v1/pages {parent: {database_id}, properties, children} → the page; a property the database
 *   does not have, or of another type → 400 validation_error; an unknown database → 404 object_not_found.
 * - A dead token → 401 {object: "error", status: 401, code: "unauthorized"}.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthFake, readBody } from "./oauth-server";

export type NotionPage = { id: string; parent: { database_id: string }; properties: Record<string, Record<string, unknown>>; children: { type: string; [k: string]: unknown }[] };

export type FakeNotion = {
  url: string;
  oauth: OAuthFake;
  databases: { id: string; title: string; properties: Record<string, { id: string; name: string; type: string }> }[];
  pages: NotionPage[];
  close(): Promise<void>;
};

export async function startFakeNotion(): Promise<FakeNotion> {
  const oauth = new OAuthFake({
    authorizePath: "/v1/oauth/authorize",
    tokenPath: "/v1/oauth/token",
    revoke: { path: "/v1/oauth/revoke", how: "json" },
    tokenPrefix: "ntn",
    extraTokenFields: { bot_id: crypto.randomUUID(), workspace_name: "Fake Dental HQ", workspace_id: crypto.randomUUID(), owner: { type: "user" } },
  });
  const prop = (name: string, type: string) => ({ id: crypto.randomBytes(2).toString("hex"), name, type });
  const databases: FakeNotion["databases"] = [
    {
      id: "0f5c7a4e-1b2c-4d3e-8f9a-0b1c2d3e4f50",
      title: "Calls",
      properties: {
        Name: { id: "title", name: "Name", type: "title" },
        Phone: prop("Phone", "phone_number"),
        Summary: prop("Summary", "rich_text"),
        Outcome: prop("Outcome", "select"),
        Link: prop("Link", "url"),
        Duration: prop("Duration", "number"),
      },
    },
  ];
  const pages: NotionPage[] = [];
  const error = (res: http.ServerResponse, status: number, code: string, message: string) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ object: "error", status, code, message }));

  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake");
    if (oauth.handle(req, res, url, raw)) return;
    if (!oauth.validBearer(req)) return error(res, 401, "unauthorized", "API token is invalid.");
    if (req.headers["notion-version"] !== "2022-06-28") return error(res, 400, "missing_version", "Notion-Version header failed validation.");
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const json = (value: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (req.method === "POST" && url.pathname === "/v1/search") {
      return json({ object: "list", results: databases.map((d) => ({ object: "database", id: d.id, title: [{ type: "text", plain_text: d.title }], properties: d.properties })), has_more: false, next_cursor: null });
    }
    const db = /^\/v1\/databases\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && db) {
      const found = databases.find((d) => d.id === decodeURIComponent(db[1]));
      if (!found) return error(res, 404, "object_not_found", `Could not find database with ID: ${db[1]}.`);
      return json({ object: "database", id: found.id, title: [{ plain_text: found.title }], properties: found.properties });
    }
    if (req.method === "POST" && url.pathname === "/v1/pages") {
      const parent = body.parent as { database_id?: string } | undefined;
      const found = databases.find((d) => d.id === parent?.database_id);
      if (!found) return error(res, 404, "object_not_found", "Could not find database.");
      const properties = (body.properties ?? {}) as Record<string, Record<string, unknown>>;
      for (const [name, value] of Object.entries(properties)) {
        const def = found.properties[name];
        if (!def) return error(res, 400, "validation_error", `${name} is not a property that exists.`);
        if (!(def.type in value)) return error(res, 400, "validation_error", `${name} is expected to be ${def.type}.`);
      }
      const page: NotionPage = { id: crypto.randomUUID(), parent: { database_id: found.id }, properties, children: (body.children ?? []) as NotionPage["children"] };
      pages.push(page);
      return json({ object: "page", id: page.id, url: `https://www.notion.so/${page.id.replace(/-/g, "")}`, properties });
    }
    error(res, 404, "invalid_request_url", "Invalid request URL.");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    oauth,
    databases,
    pages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
