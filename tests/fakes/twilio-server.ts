/**
 * A local fake of Twilio's REST API (2010-04-01) for adapter tests: plain HTTP on 127.0.0.1 with a
 * random port, speaking Twilio's wire format — Basic auth, form-encoded POST bodies with PascalCase
 * keys, snake_case JSON answers, list pages with meta keys, error bodies {code, message, more_info,
 * status}. It keeps state (available inventory, incoming numbers, verified caller ids) and logs every
 * request so tests can assert what the real SDK sent. See ../shared/notes/provider-sdk-fakes.md §4.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import twilio from "twilio";

export type FakeRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  headers: http.IncomingHttpHeaders;
};

export type FakeAvailable = { phone_number: string; locality?: string; region?: string; friendly_name?: string };
export type FakeIncoming = { sid: string; phone_number: string; voice_url: string | null; sms_url: string | null; voice_method?: string; sms_method?: string };
export type FakeCallerId = { sid: string; phone_number: string };

export type FakeTwilioOptions = {
  accountSid: string;
  authToken: string;
  available?: FakeAvailable[];
  incoming?: Omit<FakeIncoming, "voice_url" | "sms_url">[];
  callerIds?: FakeCallerId[];
  /** Recordings by sid (served as `Recordings/{sid}.wav`). */
  recordings?: Record<string, Buffer>;
};

export type FakeMessage = { sid: string; from: string; to: string; body: string; status: string; status_callback: string | null };

export type FakeTwilio = {
  url: string;
  requests: FakeRequest[];
  available: FakeAvailable[];
  incoming: FakeIncoming[];
  callerIds: FakeCallerId[];
  /** Texts sent through POST Messages.json, oldest first. */
  messages: FakeMessage[];
  recordings: Record<string, Buffer>;
  /** A2P brand registrations (Messaging v1 /a2p/BrandRegistrations): set `status` to move one on. */
  brands: { sid: string; status: string; customer_profile_bundle_sid: string; a2p_profile_bundle_sid: string; failure_reason: string | null }[];
  /** Caller-ID verification calls started (POST OutgoingCallerIds.json), with the code Twilio gave. */
  validationRequests: { call_sid: string; phone_number: string; friendly_name: string; validation_code: string; status_callback: string | null }[];
  /** Calls placed through POST Calls.json ("Test forwarding"). */
  placedCalls: { sid: string; to: string; from: string; twiml: string | null }[];
  /** Makes the next request to `pathSuffix` answer this error instead (once). */
  failNext(pathSuffix: string, status: number, code: number, message: string): void;
  close(): Promise<void>;
};

const API = "/2010-04-01";

function sid(prefix: string): string {
  return prefix + crypto.randomBytes(16).toString("hex");
}

function page<T>(key: string, items: T[], query: Record<string, string>, uri: string) {
  const pageSize = Number(query.PageSize ?? "50");
  const slice = items.slice(0, pageSize);
  return {
    [key]: slice,
    uri,
    page: 0,
    page_size: pageSize,
    start: 0,
    end: Math.max(0, slice.length - 1),
    first_page_uri: uri,
    next_page_uri: null,
    previous_page_uri: null,
  };
}

function incomingResource(accountSid: string, n: FakeIncoming) {
  return {
    sid: n.sid,
    account_sid: accountSid,
    phone_number: n.phone_number,
    friendly_name: n.phone_number,
    voice_url: n.voice_url,
    voice_method: n.voice_method ?? "POST",
    sms_url: n.sms_url,
    sms_method: n.sms_method ?? "POST",
    capabilities: { voice: true, sms: true, mms: true, fax: false },
    date_created: new Date().toUTCString(),
    date_updated: new Date().toUTCString(),
    api_version: "2010-04-01",
    uri: `${API}/Accounts/${accountSid}/IncomingPhoneNumbers/${n.sid}.json`,
  };
}

export async function startFakeTwilio(options: FakeTwilioOptions): Promise<FakeTwilio> {
  const requests: FakeRequest[] = [];
  const available = [...(options.available ?? [])];
  const incoming: FakeIncoming[] = (options.incoming ?? []).map((n) => ({ ...n, voice_url: null, sms_url: null }));
  const callerIds = [...(options.callerIds ?? [])];
  const validationRequests: FakeTwilio["validationRequests"] = [];
  const placedCalls: FakeTwilio["placedCalls"] = [];
  const messages: FakeMessage[] = [];
  const recordings: Record<string, Buffer> = { ...(options.recordings ?? {}) };
  const failures: { suffix: string; status: number; code: number; message: string }[] = [];
  const brands: FakeTwilio["brands"] = [];
  const expectedAuth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString("base64")}`;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const raw = Buffer.concat(chunks).toString("utf8");
      const form = req.headers["content-type"]?.includes("application/x-www-form-urlencoded")
        ? Object.fromEntries(new URLSearchParams(raw).entries())
        : {};
      const entry: FakeRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams.entries()),
        form,
        headers: req.headers,
      };
      requests.push(entry);

      const send = (status: number, body?: unknown) => {
        if (body === undefined) {
          res.writeHead(status).end();
          return;
        }
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      };
      const error = (status: number, code: number, message: string) =>
        send(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

      if (req.headers.authorization !== expectedAuth) return error(401, 20003, "Authenticate");
      // Messaging v1 (messaging.twilio.com): A2P 10DLC brand registrations.
      const brandPath = /^\/v1\/a2p\/BrandRegistrations(?:\/(BN[0-9a-f]{32}))?$/.exec(url.pathname);
      if (brandPath) {
        const resource = (b: FakeTwilio["brands"][number]) => ({ ...b, account_sid: options.accountSid, brand_type: "STANDARD", url: `https://messaging.twilio.com/v1/a2p/BrandRegistrations/${b.sid}` });
        if (req.method === "POST" && !brandPath[1]) {
          if (!form.CustomerProfileBundleSid || !form.A2PProfileBundleSid) return error(400, 21604, "CustomerProfileBundleSid and A2PProfileBundleSid are required");
          const brand = { sid: `BN${crypto.randomBytes(16).toString("hex")}`, status: "PENDING", customer_profile_bundle_sid: form.CustomerProfileBundleSid, a2p_profile_bundle_sid: form.A2PProfileBundleSid, failure_reason: null };
          brands.push(brand);
          return send(201, resource(brand));
        }
        const brand = brands.find((b) => b.sid === brandPath[1]);
        if (req.method === "GET" && brand) return send(200, resource(brand));
        return error(404, 20404, `The requested resource ${url.pathname} was not found`);
      }
      const prefix = `${API}/Accounts/${options.accountSid}/`;
      if (!url.pathname.startsWith(prefix)) return error(404, 20404, `The requested resource ${url.pathname} was not found`);
      const rest = url.pathname.slice(prefix.length);

      const failure = failures.findIndex((f) => url.pathname.endsWith(f.suffix));
      if (failure >= 0) {
        const [f] = failures.splice(failure, 1);
        return error(f.status, f.code, f.message);
      }

      let m: RegExpExecArray | null;
      if (req.method === "GET" && (m = /^AvailablePhoneNumbers\/([A-Z]{2})\/Local\.json$/.exec(rest))) {
        const areaCode = entry.query.AreaCode;
        const items = available
          .filter((n) => !areaCode || n.phone_number.startsWith(`+1${areaCode}`))
          .map((n) => ({
            friendly_name: n.friendly_name ?? n.phone_number,
            phone_number: n.phone_number,
            locality: n.locality ?? null,
            region: n.region ?? null,
            iso_country: m![1],
            capabilities: { voice: true, SMS: true, MMS: true },
            beta: false,
          }));
        return send(200, page("available_phone_numbers", items, entry.query, url.pathname));
      }
      if (rest === "IncomingPhoneNumbers.json" && req.method === "GET") {
        const items = incoming
          .filter((n) => !entry.query.PhoneNumber || n.phone_number === entry.query.PhoneNumber)
          .map((n) => incomingResource(options.accountSid, n));
        return send(200, page("incoming_phone_numbers", items, entry.query, url.pathname));
      }
      if (rest === "IncomingPhoneNumbers.json" && req.method === "POST") {
        const wanted = form.PhoneNumber;
        if (!wanted) return error(400, 21450, "Phone number or area code is required");
        const index = available.findIndex((n) => n.phone_number === wanted);
        if (index < 0) return error(400, 21422, `PhoneNumber ${wanted} is not available`);
        available.splice(index, 1);
        const created: FakeIncoming = {
          sid: sid("PN"),
          phone_number: wanted,
          voice_url: form.VoiceUrl ?? null,
          voice_method: form.VoiceMethod,
          sms_url: form.SmsUrl ?? null,
          sms_method: form.SmsMethod,
        };
        incoming.push(created);
        return send(201, incomingResource(options.accountSid, created));
      }
      if ((m = /^IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(rest))) {
        const index = incoming.findIndex((n) => n.sid === m![1]);
        if (index < 0) return error(404, 20404, `The requested resource /2010-04-01/Accounts/${options.accountSid}/${rest} was not found`);
        if (req.method === "DELETE") {
          incoming.splice(index, 1);
          return send(204);
        }
        if (req.method === "POST") {
          const n = incoming[index];
          if (form.VoiceUrl !== undefined) n.voice_url = form.VoiceUrl;
          if (form.VoiceMethod !== undefined) n.voice_method = form.VoiceMethod;
          if (form.SmsUrl !== undefined) n.sms_url = form.SmsUrl;
          if (form.SmsMethod !== undefined) n.sms_method = form.SmsMethod;
          return send(200, incomingResource(options.accountSid, n));
        }
        if (req.method === "GET") return send(200, incomingResource(options.accountSid, incoming[index]));
      }
      if (rest === "Messages.json" && req.method === "POST") {
        // Twilio refuses a From the account does not own (21606) and a missing To or Body.
        if (!form.To) return error(400, 21604, "A 'To' phone number is required.");
        if (!form.Body && !form.MediaUrl) return error(400, 21602, "Message body is required.");
        if (!incoming.some((n) => n.phone_number === form.From)) {
          return error(400, 21606, `The From phone number ${form.From} is not a valid, SMS-capable inbound phone number or short code for your account.`);
        }
        const message: FakeMessage = { sid: sid("SM"), from: form.From, to: form.To, body: form.Body ?? "", status: "queued", status_callback: form.StatusCallback ?? null };
        messages.push(message);
        return send(201, {
          sid: message.sid,
          account_sid: options.accountSid,
          from: message.from,
          to: message.to,
          body: message.body,
          status: message.status,
          direction: "outbound-api",
          num_segments: "1",
          api_version: "2010-04-01",
          date_created: new Date().toUTCString(),
          uri: `${API}/Accounts/${options.accountSid}/Messages/${message.sid}.json`,
        });
      }
      if (req.method === "GET" && (m = /^Recordings\/(RE[0-9a-f]{32})\.wav$/.exec(rest))) {
        const audio = recordings[m[1]];
        if (!audio) return error(404, 20404, `The requested resource ${url.pathname} was not found`);
        res.writeHead(200, { "content-type": "audio/x-wav", "content-length": String(audio.length) }).end(audio);
        return;
      }
      if (req.method === "DELETE" && (m = /^Recordings\/(RE[0-9a-f]{32})\.json$/.exec(rest))) {
        if (!recordings[m[1]]) return error(404, 20404, `The requested resource ${url.pathname} was not found`);
        delete recordings[m[1]];
        return send(204);
      }
      if (rest === "OutgoingCallerIds.json" && req.method === "POST") {
        // Twilio's caller-ID verification: it calls PhoneNumber and answers the code to key in.
        if (!form.PhoneNumber) return error(400, 21201, "No 'PhoneNumber' provided");
        const request = { call_sid: sid("CA"), phone_number: form.PhoneNumber, friendly_name: form.FriendlyName ?? form.PhoneNumber, validation_code: String(100000 + Math.floor(Math.random() * 900000)), status_callback: form.StatusCallback ?? null };
        validationRequests.push(request);
        return send(201, { account_sid: options.accountSid, call_sid: request.call_sid, friendly_name: request.friendly_name, phone_number: request.phone_number, validation_code: request.validation_code });
      }
      if (rest === "Calls.json" && req.method === "POST") {
        if (!form.To || !form.From) return error(400, 21201, "No 'To' or 'From' provided");
        const call = { sid: sid("CA"), to: form.To, from: form.From, twiml: form.Twiml ?? null };
        placedCalls.push(call);
        return send(201, { sid: call.sid, account_sid: options.accountSid, to: call.to, from: call.from, status: "queued", direction: "outbound-api", uri: `${API}/Accounts/${options.accountSid}/Calls/${call.sid}.json` });
      }
      if (rest === "OutgoingCallerIds.json" && req.method === "GET") {
        const items = callerIds
          .filter((c) => !entry.query.PhoneNumber || c.phone_number === entry.query.PhoneNumber)
          .map((c) => ({ sid: c.sid, account_sid: options.accountSid, phone_number: c.phone_number, friendly_name: c.phone_number }));
        return send(200, page("outgoing_caller_ids", items, entry.query, url.pathname));
      }
      return error(404, 20404, `The requested resource ${url.pathname} was not found`);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    validationRequests,
    placedCalls,
    available,
    incoming,
    callerIds,
    messages,
    recordings,
    brands,
    failNext(suffix, status, code, message) {
      failures.push({ suffix, status, code, message });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/**
 * Approach A of the notes: a RequestClient that keeps the SDK's hostnames and auth but sends every
 * request to the fake (unaffected by TWILIO_REGION/TWILIO_EDGE, since the rewrite comes last).
 */
export function fakeTwilioHttpClient(fakeUrl: string): twilio.RequestClient {
  class FakeRouting extends twilio.RequestClient {
    request<TData>(opts: Parameters<twilio.RequestClient["request"]>[0] & { data?: TData }) {
      const u = new URL(opts.uri);
      return super.request<TData>({ ...opts, uri: fakeUrl + u.pathname + u.search });
    }
  }
  return new FakeRouting();
}
