import "server-only";
import { providerJson } from "@/lib/platform/outbound/provider-http";
import type { CallRecord } from "./call-record";

/**
 * Notion API (REST, `Notion-Version: 2022-06-28`; no SDK installed):
 * - the picker: POST /v1/search {filter: {property: "object", value: "database"}};
 * - a page per call: GET /v1/databases/{id} (its properties), then POST /v1/pages with the title
 *   property set to the caller, the properties whose names Switchboard knows filled when the database
 *   has them with a fitting type (Phone, Summary, Outcome, Action items, Date, Duration, Link), and the
 *   page body holding the summary, the action items as to-dos, the outcome and the link back — so
 *   every field is on the page whatever the database's columns are.
 */
export const NOTION_VERSION = "2022-06-28";

type NotionProperty = { id: string; name: string; type: string };

const text = (content: string) => [{ type: "text", text: { content: content.slice(0, 2000) } }];

async function notion<T>(apiBase: string, token: string, path: string, method = "GET", body?: unknown): Promise<T> {
  return providerJson<T>("Notion", `${apiBase}${path}`, token, method, body, { "notion-version": NOTION_VERSION });
}

export async function listDatabases(apiBase: string, token: string): Promise<{ id: string; name: string }[]> {
  const answer = await notion<{ results: { id: string; title?: { plain_text: string }[] }[] }>(apiBase, token, "/v1/search", "POST", {
    filter: { property: "object", value: "database" },
    page_size: 100,
  });
  return answer.results.map((d) => ({ id: d.id, name: (d.title ?? []).map((t) => t.plain_text).join("") || "Untitled" }));
}

function propertyValue(type: string, value: string | number | null): unknown {
  if (value === null || value === "") return undefined;
  switch (type) {
    case "rich_text":
      return { rich_text: text(String(value)) };
    case "phone_number":
      return { phone_number: String(value) };
    case "url":
      return { url: String(value) };
    case "number":
      return typeof value === "number" ? { number: value } : undefined;
    case "date":
      return { date: { start: String(value) } };
    case "select":
      return { select: { name: String(value).slice(0, 100).replace(/,/g, " ") } };
    default:
      return undefined;
  }
}

export function fieldsOf(call: CallRecord): Record<string, string | number | null> {
  return {
    phone: call.contactNumber,
    summary: call.summary,
    outcome: call.outcomeLabel,
    "action items": call.actionItems.join("\n") || null,
    date: call.startedAt.toISOString(),
    duration: call.durationSeconds,
    link: call.link,
    recording: call.recordingUrl,
    direction: call.direction,
  };
}

export async function createCallPage(apiBase: string, token: string, databaseId: string, call: CallRecord): Promise<{ id: string }> {
  const database = await notion<{ properties: Record<string, NotionProperty> }>(apiBase, token, `/v1/databases/${encodeURIComponent(databaseId)}`);
  const properties: Record<string, unknown> = {};
  const values = fieldsOf(call);
  for (const [name, prop] of Object.entries(database.properties)) {
    if (prop.type === "title") {
      properties[name] = { title: text(call.callerName ? `${call.callerName} (${call.contactNumber})` : call.contactNumber) };
      continue;
    }
    const key = name.trim().toLowerCase();
    if (key in values) {
      const value = propertyValue(prop.type, values[key]);
      if (value !== undefined) properties[name] = value;
    }
  }
  const children: unknown[] = [
    { object: "block", type: "heading_3", heading_3: { rich_text: text("Summary") } },
    { object: "block", type: "paragraph", paragraph: { rich_text: text(call.summary ?? "No summary.") } },
    ...call.actionItems.map((item) => ({ object: "block", type: "to_do", to_do: { rich_text: text(item), checked: false } })),
    { object: "block", type: "paragraph", paragraph: { rich_text: text(`Outcome: ${call.outcomeLabel}. ${call.direction === "inbound" ? "Inbound" : "Outbound"}, ${call.durationSeconds} s.`) } },
    { object: "block", type: "paragraph", paragraph: { rich_text: [{ type: "text", text: { content: "Open in Switchboard", link: { url: call.link } } }] } },
  ];
  if (call.recordingUrl) children.push({ object: "block", type: "paragraph", paragraph: { rich_text: [{ type: "text", text: { content: "Recording", link: { url: call.recordingUrl } } }] } });
  return notion<{ id: string }>(apiBase, token, "/v1/pages", "POST", { parent: { database_id: databaseId }, properties, children });
}
