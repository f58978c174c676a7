import "server-only";
import type { Db, DbOrTx } from "@/db/client";
import { enqueue } from "@/lib/platform/jobs/queue";
import { defineJob } from "@/lib/platform/jobs/types";
import { getTelephonyProviderFor } from "@/lib/workspace/provider-selection/telephony";
import type { TelephonyProvider, TelephonyProviderName } from "@/lib/platform/providers/telephony/interface";
import { logRecordAccess } from "./hipaa";

/**
 * A recording kept without consent (the caller declined or left during the notice), erased, or past
 * the organization's retention must not survive at the carrier either: Twilio keeps every recording until it is deleted, the simulated
 * carrier keeps its recordings as the organization's clips. The deletion is a job (the carrier may be
 * down; it is retried), and each one is written to the access log (action "deleted"), exported with it.
 */

export type CarrierRecordingDeletion = {
  organizationId: string;
  callId: string;
  recordingSid: string;
  provider: TelephonyProviderName;
  /** Why, as the log says it: no consent, the caller's erasure, the organization's retention. */
  reason: "no_consent" | "erasure" | "retention";
};

const REASONS: Record<CarrierRecordingDeletion["reason"], string> = {
  no_consent: "no consent (the caller did not stay on past the recording notice)",
  erasure: "the caller's erasure",
  retention: "past the organization's retention for recordings",
};

const CARRIERS: Record<TelephonyProviderName, string> = { twilio: "Twilio", simulated: "the simulated carrier" };

export async function queueCarrierRecordingDeletion(db: DbOrTx, deletion: CarrierRecordingDeletion): Promise<void> {
  await enqueue(db, deleteCarrierRecordingJob, deletion, { singletonKey: `delete-recording:${deletion.organizationId}:${deletion.recordingSid}` });
}

/** Deletes the recording at its carrier and logs it. Throws (so the job retries) while the carrier cannot be reached. */
export async function deleteCarrierRecording(db: Db, deletion: CarrierRecordingDeletion, deps: { provider?: TelephonyProvider } = {}): Promise<{ deleted: boolean }> {
  const provider = deps.provider ?? (await getTelephonyProviderFor(db, deletion.organizationId, deletion.provider));
  if (!provider) throw new Error(`The Twilio credentials are gone: recording ${deletion.recordingSid} cannot be deleted at Twilio until they are added again`);
  const result = await provider.deleteRecording(deletion.recordingSid);
  const carrier = CARRIERS[deletion.provider];
  await logRecordAccess(db, {
    organizationId: deletion.organizationId,
    userId: null,
    userEmail: null,
    resource: "recording",
    callId: deletion.callId,
    action: "deleted",
    detail: `${result.deleted ? "Deleted at" : "Already gone from"} ${carrier} (${deletion.recordingSid}): ${REASONS[deletion.reason]}`,
  });
  return result;
}

export const deleteCarrierRecordingJob = defineJob<CarrierRecordingDeletion>({
  name: "compliance.delete-carrier-recording",
  retryLimit: 8,
  retryDelaySeconds: 60,
  async handler(data, { db }) {
    await deleteCarrierRecording(db, data);
  },
});
