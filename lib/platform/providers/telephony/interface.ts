/**
 * The telephony provider (ARCHITECTURE): Twilio when the organization or the environment has Twilio
 * credentials, otherwise the simulated carrier. Both speak this interface; callers never branch on
 * the vendor except to record which one holds a number (`phone_number.provider`).
 */
export type TelephonyProviderName = "twilio" | "simulated";

export type AvailableNumber = { phoneNumber: string; locality?: string; region?: string };

/** Where the carrier sends a number's calls, texts and call status changes. */
export type WebhookUrls = { voiceUrl: string; smsUrl: string; statusCallbackUrl?: string };

/** A text handed to the carrier: its id there and the status it reported. */
export type SentSms = { sid: string; status: "queued" | "sent" | "delivered" };

export type Recording = { audio: Buffer; contentType: string };

export type VerifyResult = {
  verified: boolean;
  /** The provider's id for the number (an incoming number's or caller id's sid). */
  sid?: string;
  /**
   * How ownership was proven: "incoming" (the number is on the account, so webhooks can be set) or
   * "caller_id" (a verified outgoing caller id: it can place calls, but inbound calls do not reach us).
   */
  kind?: "incoming" | "caller_id";
  /** Why it was not verified, for a person. */
  reason?: string;
};

export interface TelephonyProvider {
  readonly name: TelephonyProviderName;
  searchAvailable(input: { areaCode?: string; limit: number }): Promise<AvailableNumber[]>;
  buyNumber(input: { phoneNumber: string } & WebhookUrls): Promise<{ sid: string; phoneNumber: string }>;
  verifyExistingNumber(phoneNumber: string): Promise<VerifyResult>;
  /** Gives the number back to the carrier. A number the carrier no longer has counts as released. */
  releaseNumber(sid: string): Promise<void>;
  setWebhooks(sid: string, urls: WebhookUrls): Promise<void>;
  /** Sends a text from one of the account's numbers. */
  sendSms(input: { from: string; to: string; body: string; statusCallbackUrl?: string }): Promise<SentSms>;
  /** A call recording's audio (a voicemail), by its RE… sid. */
  fetchRecording(recordingSid: string): Promise<Recording>;
  /**
   * Deletes a recording at the carrier (no consent, erasure): the carrier keeps none. A recording the
   * carrier no longer has counts as deleted; answers whether there was one to delete.
   */
  deleteRecording(recordingSid: string): Promise<{ deleted: boolean }>;
  /**
   * Proves the owner controls a brought-in number: the carrier calls it and the owner keys in the
   * code shown on screen (Twilio's caller-ID verification, a ValidationRequest). The outcome arrives
   * on `statusCallbackUrl` (VerificationStatus success|failed). Answers the code and the call's sid.
   */
  startCallerIdVerification(input: { phoneNumber: string; friendlyName: string; statusCallbackUrl: string }): Promise<{ code: string; callSid: string }>;
  /** "Test forwarding": a short call to `to` from one of the account's numbers; answers its sid. */
  placeTestCall(input: { from: string; to: string }): Promise<{ callSid: string }>;
}

/**
 * A provider failure with a readable message. `kind` lets the service choose the HTTP status:
 * unavailable → 409, invalid → 400, auth → 502 (our saved credentials were refused), not_found → 404,
 * provider → 502.
 */
export class TelephonyError extends Error {
  constructor(
    message: string,
    readonly kind: "unavailable" | "invalid" | "auth" | "not_found" | "provider",
    readonly details: { status?: number; code?: number } = {},
  ) {
    super(message);
    this.name = "TelephonyError";
  }
}
