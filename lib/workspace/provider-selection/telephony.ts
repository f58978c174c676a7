import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { audioClips, phoneNumbers } from "@/db/schema";
import { getBlobStore } from "@/lib/platform/blob-store";
import { env } from "@/lib/platform/env";
import { resolveCredential } from "./credentials";
import type { TelephonyProvider, TelephonyProviderName, WebhookUrls } from "@/lib/platform/providers/telephony/interface";
import { createSimulatedProvider, type RecordingRemover, type RecordingStore } from "@/lib/platform/providers/telephony/simulated";
import { createTwilioProvider } from "@/lib/platform/providers/telephony/twilio";

/** Where the carrier sends a number's calls, texts and call status changes (app/api/telephony/*). */
export function telephonyWebhookUrls(): Required<WebhookUrls> {
  const base = env.PUBLIC_URL.replace(/\/+$/, "");
  return { voiceUrl: `${base}/api/telephony/voice`, smsUrl: `${base}/api/telephony/sms`, statusCallbackUrl: `${base}/api/telephony/status` };
}

/** A simulated number is free while no phone_number row holds it, so numbers are unique per database. */
export function simulatedInventory(db: DbOrTx) {
  return async (candidates: string[]) =>
    (await db.select({ n: phoneNumbers.phoneNumber }).from(phoneNumbers).where(inArray(phoneNumbers.phoneNumber, candidates))).map((r) => r.n);
}

/**
 * The simulated carrier's recordings of an organization: clips stored with the recording's sid as
 * their id (lib/phone/telephony/simulator-recordings.ts), bytes in the blob store.
 */
export function simulatedRecordings(db: DbOrTx, organizationId: string): RecordingStore {
  return async (recordingSid) => {
    const [clip] = await db
      .select()
      .from(audioClips)
      .where(and(eq(audioClips.id, recordingSid), eq(audioClips.organizationId, organizationId), eq(audioClips.source, "recording")));
    if (!clip) return null;
    const audio = await getBlobStore().get(clip.storageKey);
    return audio ? { audio, contentType: clip.contentType } : null;
  };
}

/** Deletes one of the simulated carrier's recordings of an organization (the clip row and its bytes). */
export function simulatedRecordingRemover(db: DbOrTx, organizationId: string): RecordingRemover {
  return async (recordingSid) => {
    const [clip] = await db
      .delete(audioClips)
      .where(and(eq(audioClips.id, recordingSid), eq(audioClips.organizationId, organizationId), eq(audioClips.source, "recording")))
      .returning({ storageKey: audioClips.storageKey });
    if (!clip) return false;
    await getBlobStore().delete(clip.storageKey);
    return true;
  };
}

/**
 * The organization's telephony provider (ARCHITECTURE): its saved Twilio credential, else the
 * environment's, else the simulated carrier. `provider.name` says which one was chosen.
 */
export async function getTelephonyProvider(db: DbOrTx, organizationId: string): Promise<TelephonyProvider> {
  const credential = await resolveCredential(db, organizationId, "twilio");
  if (credential) return createTwilioProvider(credential.secret);
  return createSimulatedProvider(simulatedInventory(db), simulatedRecordings(db, organizationId), simulatedRecordingRemover(db, organizationId));
}

/**
 * The provider that holds an existing number (to release it or change its webhooks). A Twilio
 * number needs Twilio credentials; null when they are gone.
 */
export async function getTelephonyProviderFor(
  db: DbOrTx,
  organizationId: string,
  name: TelephonyProviderName,
): Promise<TelephonyProvider | null> {
  if (name === "simulated") return createSimulatedProvider(simulatedInventory(db), simulatedRecordings(db, organizationId), simulatedRecordingRemover(db, organizationId));
  const credential = await resolveCredential(db, organizationId, "twilio");
  return credential ? createTwilioProvider(credential.secret) : null;
}
