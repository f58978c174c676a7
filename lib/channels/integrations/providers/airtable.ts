import "server-only";
import { ProviderError, providerJson } from "@/lib/platform/outbound/provider-http";
import type { CallRecord } from "./call-record";
import { fieldsOf } from "./notion";

/**
 * Airtable Web API (REST; no SDK installed):
 * - the picker: GET /v0/meta/bases, then GET /v0/meta/bases/{baseId}/tables (fields with their names);
 * - a record per call: POST /v0/{baseId}/{tableId} {records: [{fields}], typecast: true} — the fields
 *   whose names Switchboard knows (Caller, Phone, Summary, Outcome, Action items, Date, Duration, Link,
 *   Recording, Direction; any case) when the table has them, and the caller in the primary field
 *   otherwise. Airtable refuses unknown field names (422), so only existing ones are sent.
 */
type Table = { id: string; name: string; primaryFieldId: string; fields: { id: string; name: string; type: string }[] };

export async function listTables(apiBase: string, token: string): Promise<{ id: string; name: string }[]> {
  const { bases } = await providerJson<{ bases: { id: string; name: string; permissionLevel: string }[] }>("Airtable", `${apiBase}/v0/meta/bases`, token);
  const out: { id: string; name: string }[] = [];
  for (const base of bases.filter((b) => b.permissionLevel !== "read" && b.permissionLevel !== "comment")) {
    const { tables } = await providerJson<{ tables: Table[] }>("Airtable", `${apiBase}/v0/meta/bases/${encodeURIComponent(base.id)}/tables`, token);
    for (const t of tables) out.push({ id: `${base.id}/${t.id}`, name: `${base.name} › ${t.name}` });
  }
  return out;
}

export async function createCallRecord(apiBase: string, token: string, target: string, call: CallRecord): Promise<{ id: string }> {
  const [baseId, tableId] = target.split("/");
  const { tables } = await providerJson<{ tables: Table[] }>("Airtable", `${apiBase}/v0/meta/bases/${encodeURIComponent(baseId)}/tables`, token);
  const table = tables.find((t) => t.id === tableId);
  if (!table) throw new ProviderError(`The Airtable table ${tableId} is gone; pick another on the card`, "invalid", 404);
  const values: Record<string, string | number | null> = { caller: call.callerName ? `${call.callerName} (${call.contactNumber})` : call.contactNumber, ...fieldsOf(call) };
  const fields: Record<string, string | number> = {};
  for (const field of table.fields) {
    const value = values[field.name.trim().toLowerCase()];
    if (value !== undefined && value !== null) fields[field.name] = value;
  }
  const primary = table.fields.find((f) => f.id === table.primaryFieldId);
  if (primary && !(primary.name in fields)) fields[primary.name] = values.caller as string;
  const answer = await providerJson<{ records: { id: string }[] }>("Airtable", `${apiBase}/v0/${encodeURIComponent(baseId)}/${encodeURIComponent(tableId)}`, token, "POST", {
    records: [{ fields }],
    typecast: true,
  });
  return { id: answer.records[0].id };
}
