import "server-only";
import { providerJson } from "@/lib/platform/outbound/provider-http";
import type { CallRecord } from "./call-record";

/**
 * HubSpot CRM v3 over its documented REST calls (no SDK installed):
 * - find the contact by phone: POST /crm/v3/objects/contacts/search (filter phone EQ <E.164>);
 * - else create it: POST /crm/v3/objects/contacts {properties: {phone, firstname, lastname}};
 * - log the call: POST /crm/v3/objects/calls with hs_timestamp, hs_call_direction, hs_call_duration
 *   (milliseconds), hs_call_body (summary, action items, outcome, link back), hs_call_status,
 *   hs_call_recording_url, associated to the contact (HUBSPOT_DEFINED type 194: call → contact).
 */
export const HUBSPOT_CALL_TO_CONTACT = 194;

type SearchAnswer = { total: number; results: { id: string; properties: Record<string, string | null> }[] };

export async function findOrCreateContact(apiBase: string, token: string, phone: string, name: string | null): Promise<{ id: string; created: boolean }> {
  const found = await providerJson<SearchAnswer>("HubSpot", `${apiBase}/crm/v3/objects/contacts/search`, token, "POST", {
    filterGroups: [{ filters: [{ propertyName: "phone", operator: "EQ", value: phone }] }],
    properties: ["phone", "firstname", "lastname"],
    limit: 1,
  });
  if (found.results.length > 0) return { id: found.results[0].id, created: false };
  const [firstname, ...rest] = (name ?? "").trim().split(/\s+/).filter(Boolean);
  const properties: Record<string, string> = { phone };
  if (firstname) properties.firstname = firstname;
  if (rest.length) properties.lastname = rest.join(" ");
  const created = await providerJson<{ id: string }>("HubSpot", `${apiBase}/crm/v3/objects/contacts`, token, "POST", { properties });
  return { id: created.id, created: true };
}

export function callBody(call: CallRecord): string {
  const lines = [call.summary ?? "No summary.", `Outcome: ${call.outcomeLabel}.`];
  if (call.actionItems.length) lines.push(`Action items: ${call.actionItems.join("; ")}`);
  lines.push(`Open in Switchboard: ${call.link}`);
  return lines.join("\n");
}

/**
 * Logs the call on its contact; with `existingId` (the engagement an earlier delivery made: a retry,
 * or "Sync now") it updates that engagement instead of making a second one.
 */
export async function logCall(apiBase: string, token: string, call: CallRecord, existingId: string | null = null): Promise<{ contactId: string; callId: string }> {
  const contact = await findOrCreateContact(apiBase, token, call.contactNumber, call.callerName);
  const properties: Record<string, string> = {
    hs_timestamp: call.startedAt.toISOString(),
    hs_call_title: `${call.direction === "inbound" ? "Call from" : "Call to"} ${call.callerName ?? call.contactNumber}`,
    hs_call_body: callBody(call),
    hs_call_direction: call.direction === "inbound" ? "INBOUND" : "OUTBOUND",
    hs_call_duration: String(call.durationSeconds * 1000),
    hs_call_status: call.outcome === "missed" || call.outcome === "failed" ? "NO_ANSWER" : "COMPLETED",
    hs_call_from_number: call.direction === "inbound" ? call.contactNumber : call.businessNumber,
    hs_call_to_number: call.direction === "inbound" ? call.businessNumber : call.contactNumber,
  };
  if (call.recordingUrl) properties.hs_call_recording_url = call.recordingUrl;
  if (existingId) {
    const updated = await providerJson<{ id: string }>("HubSpot", `${apiBase}/crm/v3/objects/calls/${encodeURIComponent(existingId)}`, token, "PATCH", { properties });
    return { contactId: contact.id, callId: updated.id };
  }
  const logged = await providerJson<{ id: string }>("HubSpot", `${apiBase}/crm/v3/objects/calls`, token, "POST", {
    properties,
    associations: [{ to: { id: contact.id }, types: [{ associationCategory: "HUBSPOT_DEFINED", associationTypeId: HUBSPOT_CALL_TO_CONTACT }] }],
  });
  return { contactId: contact.id, callId: logged.id };
}
