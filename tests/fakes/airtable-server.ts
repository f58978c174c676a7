/**
 * A local fake of Airtable's OAuth and Web API (the parts Switchboard uses), on 127.0.0.1 with a
 * random port. Point AIRTABLE_OAUTH_BASE and AIRTABLE_API_BASE at `url`. Wire format as Airtable
 * documents it:
 * - GET /oauth2/v1/authorize (auto-approved; PKCE is required there too); POST /oauth2/v1/token (form,
 *   client with HTTP Basic) → {access_token, refresh_token, expires_in, token_type, scope}.
 * - GET /v0/meta/bases → {bases: [{id, name, permissionLevel}]}; GET /v0/meta/bases/{baseId}/tables →
 *   {tables: [{id, name, primaryFieldId, fields: [{id, name, type}]}]}.
 * - POST /v0/{baseId}/{tableIdOrName} {records: [{fields}], typecast} → {records: [{id, createdTime,
 *   fields}]}; an unknown field name → 422 {error: {type: "UNKNOWN_FIELD_NAME", message}}.
 * - A dead token → 401 {error: {type: "AUTHENTICATION_REQUIRED", message}}.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthFake, readBody } from "./oauth-server";

export type FakeAirtable = {
  url: string;
  oauth: OAuthFake;
  records: { baseId: string; tableId: string; id: string; fields: Record<string, unknown> }[];
  close(): Promise<void>;
};

export async function startFakeAirtable(): Promise<FakeAirtable> {
  const oauth = new OAuthFake({ authorizePath: "/oauth2/v1/authorize", tokenPath: "/oauth2/v1/token", tokenPrefix: "oaa", expiresIn: 3600 });
  const base = { id: "appFAKEFRONTDESK", name: "Front desk", permissionLevel: "create" };
  const table = {
    id: "tblCALLS0000001",
    name: "Calls",
    primaryFieldId: "fldCALLER",
    fields: [
      { id: "fldCALLER", name: "Caller", type: "singleLineText" },
      { id: "fldPHONE", name: "Phone", type: "phoneNumber" },
      { id: "fldSUMMARY", name: "Summary", type: "multilineText" },
      { id: "fldACTIONS", name: "Action items", type: "multilineText" },
      { id: "fldOUTCOME", name: "Outcome", type: "singleSelect" },
      { id: "fldLINK", name: "Link", type: "url" },
      { id: "fldDATE", name: "Date", type: "dateTime" },
    ],
  };
  const records: FakeAirtable["records"] = [];
  const error = (res: http.ServerResponse, status: number, type: string, message: string) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error: { type, message } }));

  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://fake");
    if (oauth.handle(req, res, url, raw)) return;
    if (!oauth.validBearer(req)) return error(res, 401, "AUTHENTICATION_REQUIRED", "Authentication required");
    const json = (value: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (req.method === "GET" && url.pathname === "/v0/meta/bases") return json({ bases: [base] });
    if (req.method === "GET" && url.pathname === `/v0/meta/bases/${base.id}/tables`) return json({ tables: [table] });
    const m = /^\/v0\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (req.method === "POST" && m) {
      if (m[1] !== base.id || (m[2] !== table.id && decodeURIComponent(m[2]) !== table.name)) return error(res, 404, "NOT_FOUND", "Could not find what you are looking for");
      const body = JSON.parse(raw || "{}") as { records?: { fields: Record<string, unknown> }[] };
      const out = [];
      for (const r of body.records ?? []) {
        for (const name of Object.keys(r.fields)) {
          if (!table.fields.some((f) => f.name === name)) return error(res, 422, "UNKNOWN_FIELD_NAME", `Unknown field name: "${name}"`);
        }
        const record = { baseId: base.id, tableId: table.id, id: `rec${crypto.randomBytes(7).toString("hex")}`, fields: r.fields };
        records.push(record);
        out.push({ id: record.id, createdTime: new Date().toISOString(), fields: r.fields });
      }
      return json({ records: out });
    }
    error(res, 404, "NOT_FOUND", "Could not find what you are looking for");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    oauth,
    records,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
