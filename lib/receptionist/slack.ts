import "server-only";
import type { Db } from "@/db/client";
import { patientAlert } from "@/lib/compliance/hipaa";
import { hipaaStateOf } from "@/lib/identity/organizations/hipaa-mode";
import { queueSlackPost } from "@/lib/platform/outbound/provider-queue";

/**
 * Posts a line to the organization's Slack when Slack is connected (the receptionist's owner notices
 * and the daily recap), through the job runner with the deliveries' retry bookkeeping; null when Slack
 * is not connected. HIPAA mode: Slack gets "New voicemail from a patient — open Switchboard", no
 * health details (lib/compliance/hipaa.ts).
 */
export async function postToSlack(db: Db, organizationId: string, event: string, text: string, extra: Record<string, unknown> = {}) {
  return queueSlackPost(db, organizationId, event, async () => ((await hipaaStateOf(db, organizationId)).on ? { text: patientAlert(event).title } : { ...extra, text }));
}
