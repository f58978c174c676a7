import "server-only";
import twilio from "twilio";
import { TelephonyError, type TelephonyProvider, type WebhookUrls } from "./interface";

export type TwilioProviderOptions = {
  accountSid: string;
  authToken: string;
  /** Tests pass a RequestClient that routes every request to a local fake (see tests/fakes/twilio-server.ts). */
  httpClient?: twilio.RequestClient;
  /** ISO country searched for new numbers. */
  country?: string;
  /** Where recordings are downloaded from (tests point it at the local fake). */
  apiBaseUrl?: string;
  fetch?: typeof fetch;
};

type RestError = { status?: number; code?: number; message?: string; moreInfo?: string };

/** Codes Twilio answers when a number cannot be bought (taken, not offered, not buyable). */
const UNAVAILABLE_CODES = new Set([21422, 21421, 21452]);

/** Turns the SDK's RestException (or a network error) into a TelephonyError a person can read. */
export function toTelephonyError(error: unknown, action: string): TelephonyError {
  if (error instanceof TelephonyError) return error;
  const e = (error ?? {}) as RestError;
  if (typeof e.status === "number") {
    const detail = e.message && !e.message.startsWith("[HTTP") ? e.message : `HTTP ${e.status}`;
    const message = `Twilio could not ${action}: ${detail}${e.code ? ` (error ${e.code})` : ""}`;
    const details = { status: e.status, code: e.code };
    if (e.status === 401 || e.status === 403) {
      return new TelephonyError(
        `Twilio refused the account credentials while trying to ${action}. Check the Account SID and Auth Token in Settings → API Keys.`,
        "auth",
        details,
      );
    }
    if (e.status === 404) return new TelephonyError(message, "not_found", details);
    if (e.code && UNAVAILABLE_CODES.has(e.code)) return new TelephonyError(message, "unavailable", details);
    if (e.status === 400) return new TelephonyError(message, "invalid", details);
    return new TelephonyError(message, "provider", details);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new TelephonyError(`Could not reach Twilio to ${action}: ${reason}`, "provider");
}

async function attempt<T>(action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toTelephonyError(error, action);
  }
}

function hooks(urls: WebhookUrls) {
  return {
    voiceUrl: urls.voiceUrl,
    voiceMethod: "POST",
    smsUrl: urls.smsUrl,
    smsMethod: "POST",
    ...(urls.statusCallbackUrl ? { statusCallback: urls.statusCallbackUrl, statusCallbackMethod: "POST" } : {}),
  };
}

const RECORDING_SID = /^RE[0-9a-fA-F]{32}$/;

export function createTwilioProvider(options: TwilioProviderOptions): TelephonyProvider {
  if (!/^AC[0-9a-fA-F]{32}$/.test(options.accountSid)) {
    throw new TelephonyError(
      "The saved Twilio Account SID must start with AC followed by 32 hexadecimal characters. Fix it in Settings → API Keys.",
      "auth",
    );
  }
  const client = twilio(options.accountSid, options.authToken, options.httpClient ? { httpClient: options.httpClient } : {});
  const country = options.country ?? "US";

  return {
    name: "twilio",

    searchAvailable({ areaCode, limit }) {
      return attempt("search for available numbers", async () => {
        const found = await client.availablePhoneNumbers(country).local.list({
          ...(areaCode ? { areaCode: Number(areaCode) } : {}),
          voiceEnabled: true,
          smsEnabled: true,
          limit,
        });
        return found.map((n) => ({
          phoneNumber: n.phoneNumber,
          ...(n.locality ? { locality: n.locality } : {}),
          ...(n.region ? { region: n.region } : {}),
        }));
      });
    },

    buyNumber({ phoneNumber, ...urls }) {
      return attempt(`buy ${phoneNumber}`, async () => {
        const bought = await client.incomingPhoneNumbers.create({ phoneNumber, ...hooks(urls) });
        return { sid: bought.sid, phoneNumber: bought.phoneNumber ?? phoneNumber };
      });
    },

    verifyExistingNumber(phoneNumber) {
      return attempt(`look up ${phoneNumber}`, async () => {
        const [incoming] = await client.incomingPhoneNumbers.list({ phoneNumber, limit: 1 });
        if (incoming) return { verified: true, sid: incoming.sid, kind: "incoming" as const };
        const [callerId] = await client.outgoingCallerIds.list({ phoneNumber, limit: 1 });
        if (callerId) return { verified: true, sid: callerId.sid, kind: "caller_id" as const };
        return {
          verified: false,
          reason: `${phoneNumber} is not a number in your Twilio account or a verified caller ID. Add or verify it in the Twilio console, then try again.`,
        };
      });
    },

    startCallerIdVerification({ phoneNumber, friendlyName, statusCallbackUrl }) {
      return attempt(`start the verification call to ${phoneNumber}`, async () => {
        const request = await client.validationRequests.create({ phoneNumber, friendlyName, statusCallback: statusCallbackUrl, statusCallbackMethod: "POST" });
        return { code: String(request.validationCode), callSid: request.callSid };
      });
    },

    placeTestCall({ from, to }) {
      return attempt(`place a test call to ${to}`, async () => {
        // Rings long enough for a forwarded call to reach Switchboard's webhook, then hangs up.
        const call = await client.calls.create({ from, to, timeout: 30, twiml: '<Response><Pause length="15"/><Hangup/></Response>' });
        return { callSid: call.sid };
      });
    },

    async releaseNumber(sid) {
      try {
        await client.incomingPhoneNumbers(sid).remove();
      } catch (error) {
        const failure = toTelephonyError(error, `release ${sid}`);
        // Already gone from the account (released in the console, or a verified caller id): nothing to release.
        if (failure.kind === "not_found") return;
        throw failure;
      }
    },

    setWebhooks(sid, urls) {
      return attempt(`set the webhooks of ${sid}`, async () => {
        await client.incomingPhoneNumbers(sid).update(hooks(urls));
      });
    },

    sendSms({ from, to, body, statusCallbackUrl }) {
      return attempt(`send a text to ${to}`, async () => {
        const sent = await client.messages.create({ from, to, body, ...(statusCallbackUrl ? { statusCallback: statusCallbackUrl } : {}) });
        const status = sent.status === "delivered" ? "delivered" : sent.status === "sent" ? "sent" : "queued";
        return { sid: sent.sid, status };
      });
    },

    async deleteRecording(recordingSid) {
      if (!RECORDING_SID.test(recordingSid)) throw new TelephonyError(`"${recordingSid}" is not a Twilio recording sid.`, "invalid");
      try {
        // DELETE /2010-04-01/Accounts/{AC}/Recordings/{RE}.json: Twilio removes the audio and its metadata.
        await client.recordings(recordingSid).remove();
        return { deleted: true };
      } catch (error) {
        const failure = toTelephonyError(error, `delete recording ${recordingSid}`);
        if (failure.kind === "not_found") return { deleted: false };
        throw failure;
      }
    },

    /**
     * Downloads a recording as WAV with the account's credentials. The URL is built from the sid on
     * Twilio's API host (never taken from a webhook), so a recording can only come from the account.
     */
    async fetchRecording(recordingSid) {
      if (!RECORDING_SID.test(recordingSid)) throw new TelephonyError(`"${recordingSid}" is not a Twilio recording sid.`, "invalid");
      const base = (options.apiBaseUrl ?? "https://api.twilio.com").replace(/\/+$/, "");
      const url = `${base}/2010-04-01/Accounts/${options.accountSid}/Recordings/${recordingSid}.wav`;
      const auth = Buffer.from(`${options.accountSid}:${options.authToken}`).toString("base64");
      let res: Response;
      try {
        res = await (options.fetch ?? fetch)(url, { headers: { authorization: `Basic ${auth}` }, signal: AbortSignal.timeout(30_000) });
      } catch (error) {
        throw toTelephonyError(error, `download recording ${recordingSid}`);
      }
      if (!res.ok) {
        let body: RestError = {};
        try {
          body = (await res.json()) as RestError;
        } catch {
          // not JSON
        }
        throw toTelephonyError({ status: res.status, code: body.code, message: body.message }, `download recording ${recordingSid}`);
      }
      const type = res.headers.get("content-type")?.split(";")[0].trim() || "audio/wav";
      return { audio: Buffer.from(await res.arrayBuffer()), contentType: type === "audio/x-wav" || type === "audio/wave" ? "audio/wav" : type };
    },
  };
}
