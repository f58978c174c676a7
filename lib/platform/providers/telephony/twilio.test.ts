/**
 * The Twilio adapter, run with the real `twilio` SDK against the local fake REST server in
 * tests/fakes/twilio-server.ts. Nothing here reaches the internet.
 */
import { fakeTwilioHttpClient, startFakeTwilio, type FakeTwilio } from "@/tests/fakes/twilio-server";
import { TelephonyError } from "./interface";
import { createTwilioProvider } from "./twilio";

const ACCOUNT_SID = `AC${"a1".repeat(16)}`;
const AUTH_TOKEN = "fake-auth-token";
const BASE = `/2010-04-01/Accounts/${ACCOUNT_SID}`;
const HOOKS = { voiceUrl: "https://switchboard.test/api/telephony/voice", smsUrl: "https://switchboard.test/api/telephony/sms" };
const OWNED_SID = `PN${"b2".repeat(16)}`;
const CALLER_ID_SID = `PN${"c3".repeat(16)}`;

let fake: FakeTwilio;

beforeEach(async () => {
  fake = await startFakeTwilio({
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    available: [
      { phone_number: "+14155550111", locality: "San Francisco", region: "CA" },
      { phone_number: "+14155550112", locality: "Oakland", region: "CA" },
      { phone_number: "+12125550113", locality: "New York", region: "NY" },
    ],
    incoming: [{ sid: OWNED_SID, phone_number: "+15035550100" }],
    callerIds: [{ sid: CALLER_ID_SID, phone_number: "+16175550100" }],
  });
});

afterEach(() => fake.close());

function provider(authToken = AUTH_TOKEN) {
  return createTwilioProvider({ accountSid: ACCOUNT_SID, authToken, httpClient: fakeTwilioHttpClient(fake.url) });
}

const basicAuth = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString("base64")}`;

describe("Twilio telephony provider (real SDK, fake REST server)", () => {
  it("searches local numbers by area code and parses them", async () => {
    const found = await provider().searchAvailable({ areaCode: "415", limit: 5 });
    expect(found).toEqual([
      { phoneNumber: "+14155550111", locality: "San Francisco", region: "CA" },
      { phoneNumber: "+14155550112", locality: "Oakland", region: "CA" },
    ]);
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req.method).toBe("GET");
    expect(req.path).toBe(`${BASE}/AvailablePhoneNumbers/US/Local.json`);
    expect(req.query).toMatchObject({ AreaCode: "415", VoiceEnabled: "true", SmsEnabled: "true", PageSize: "5" });
    expect(req.headers.authorization).toBe(basicAuth);
  });

  it("buys a number with its voice and SMS webhooks (form-encoded, PascalCase)", async () => {
    const bought = await provider().buyNumber({ phoneNumber: "+14155550112", ...HOOKS });
    expect(bought.phoneNumber).toBe("+14155550112");
    expect(bought.sid).toMatch(/^PN[0-9a-f]{32}$/);

    const [req] = fake.requests;
    expect(req.method).toBe("POST");
    expect(req.path).toBe(`${BASE}/IncomingPhoneNumbers.json`);
    expect(req.headers["content-type"]).toContain("application/x-www-form-urlencoded");
    expect(req.headers.authorization).toBe(basicAuth);
    expect(req.form).toEqual({
      PhoneNumber: "+14155550112",
      VoiceUrl: HOOKS.voiceUrl,
      VoiceMethod: "POST",
      SmsUrl: HOOKS.smsUrl,
      SmsMethod: "POST",
    });
    expect(fake.incoming.find((n) => n.sid === bought.sid)).toMatchObject({ voice_url: HOOKS.voiceUrl, sms_url: HOOKS.smsUrl });
  });

  it("verifies an existing number among incoming numbers first, then verified caller ids", async () => {
    const p = provider();
    await expect(p.verifyExistingNumber("+15035550100")).resolves.toEqual({ verified: true, sid: OWNED_SID, kind: "incoming" });
    expect(fake.requests.map((r) => r.path)).toEqual([`${BASE}/IncomingPhoneNumbers.json`]);
    expect(fake.requests[0].query).toMatchObject({ PhoneNumber: "+15035550100" });

    fake.requests.length = 0;
    await expect(p.verifyExistingNumber("+16175550100")).resolves.toEqual({ verified: true, sid: CALLER_ID_SID, kind: "caller_id" });
    expect(fake.requests.map((r) => r.path)).toEqual([`${BASE}/IncomingPhoneNumbers.json`, `${BASE}/OutgoingCallerIds.json`]);
    expect(fake.requests[1].query).toMatchObject({ PhoneNumber: "+16175550100" });

    const unknown = await p.verifyExistingNumber("+13125550199");
    expect(unknown.verified).toBe(false);
    expect(unknown.reason).toContain("+13125550199");
  });

  it("points an existing number's webhooks at Switchboard", async () => {
    await provider().setWebhooks(OWNED_SID, HOOKS);
    const [req] = fake.requests;
    expect(req.method).toBe("POST");
    expect(req.path).toBe(`${BASE}/IncomingPhoneNumbers/${OWNED_SID}.json`);
    expect(req.form).toEqual({ VoiceUrl: HOOKS.voiceUrl, VoiceMethod: "POST", SmsUrl: HOOKS.smsUrl, SmsMethod: "POST" });
    expect(fake.incoming[0]).toMatchObject({ voice_url: HOOKS.voiceUrl, sms_url: HOOKS.smsUrl });
  });

  it("releases a number with DELETE, and treats one already gone as released", async () => {
    const p = provider();
    await p.releaseNumber(OWNED_SID);
    expect(fake.requests[0]).toMatchObject({ method: "DELETE", path: `${BASE}/IncomingPhoneNumbers/${OWNED_SID}.json` });
    expect(fake.incoming).toHaveLength(0);
    await expect(p.releaseNumber(OWNED_SID)).resolves.toBeUndefined();
    expect(fake.requests).toHaveLength(2);
  });

  it("turns Twilio errors into readable TelephonyErrors", async () => {
    const p = provider();

    const taken = await p.buyNumber({ phoneNumber: "+14155550199", ...HOOKS }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(TelephonyError);
    expect(taken).toMatchObject({ kind: "unavailable", details: { status: 400, code: 21422 } });
    expect((taken as Error).message).toBe("Twilio could not buy +14155550199: PhoneNumber +14155550199 is not available (error 21422)");

    const missing = await p.setWebhooks(`PN${"d4".repeat(16)}`, HOOKS).catch((e: unknown) => e);
    expect(missing).toMatchObject({ kind: "not_found", details: { status: 404, code: 20404 } });
    expect((missing as Error).message).toMatch(/^Twilio could not set the webhooks of PNd4.*was not found \(error 20404\)$/);

    fake.failNext("/Local.json", 400, 21452, "No phone numbers found matching the query");
    await expect(p.searchAvailable({ areaCode: "415", limit: 1 })).rejects.toMatchObject({ kind: "unavailable" });

    fake.failNext("/IncomingPhoneNumbers.json", 500, 20500, "Internal Server Error");
    await expect(p.verifyExistingNumber("+15035550100")).rejects.toThrow(
      "Twilio could not look up +15035550100: Internal Server Error (error 20500)",
    );
  });

  it("sends a text with POST Messages.json (From, To, Body) and returns its sid and status", async () => {
    const sent = await provider().sendSms({ from: "+15035550100", to: "+14155550123", body: "Your table is ready." });
    expect(sent.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(sent.status).toBe("queued");
    expect(fake.requests[0]).toMatchObject({
      method: "POST",
      path: `${BASE}/Messages.json`,
      form: { From: "+15035550100", To: "+14155550123", Body: "Your table is ready." },
    });
    expect(fake.messages).toEqual([{ sid: sent.sid, from: "+15035550100", to: "+14155550123", body: "Your table is ready.", status: "queued", status_callback: null }]);
  });

  it("reports a From number the account does not own as an invalid request", async () => {
    const refused = await provider().sendSms({ from: "+15035550999", to: "+14155550123", body: "Hi" }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ kind: "invalid", details: { status: 400, code: 21606 } });
    expect((refused as Error).message).toMatch(/^Twilio could not send a text to \+14155550123: The From phone number/);
    expect(fake.messages).toHaveLength(0);
  });

  it("reports refused credentials as an auth failure naming where to fix them", async () => {
    const wrong = await provider("wrong-token").searchAvailable({ limit: 1 }).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ kind: "auth", details: { status: 401, code: 20003 } });
    expect((wrong as Error).message).toContain("Settings → API Keys");
  });

  it("sets the status callback with the voice and SMS webhooks when given", async () => {
    await provider().setWebhooks(OWNED_SID, { ...HOOKS, statusCallbackUrl: "https://switchboard.test/api/telephony/status" });
    expect(fake.requests[0].form).toEqual({
      VoiceUrl: HOOKS.voiceUrl,
      VoiceMethod: "POST",
      SmsUrl: HOOKS.smsUrl,
      SmsMethod: "POST",
      StatusCallback: "https://switchboard.test/api/telephony/status",
      StatusCallbackMethod: "POST",
    });
  });

  it("sends a text through the Messages resource", async () => {
    const sent = await provider().sendSms({ from: "+15035550100", to: "+15555550123", body: "We open at nine." });
    expect(sent.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(sent.status).toBe("queued");
    expect(fake.requests[0]).toMatchObject({ method: "POST", path: `${BASE}/Messages.json`, form: { From: "+15035550100", To: "+15555550123", Body: "We open at nine." } });
    expect(fake.requests[0].headers.authorization).toBe(basicAuth);
  });

  it("downloads a recording as WAV with Basic auth, from the API host only", async () => {
    const sid = `RE${"e5".repeat(16)}`;
    fake.recordings[sid] = Buffer.from("RIFF-and-some-audio");
    const p = createTwilioProvider({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, apiBaseUrl: fake.url });
    const recording = await p.fetchRecording(sid);
    expect(recording).toEqual({ audio: Buffer.from("RIFF-and-some-audio"), contentType: "audio/wav" });
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: `${BASE}/Recordings/${sid}.wav` });
    expect(fake.requests[0].headers.authorization).toBe(basicAuth);
    await expect(p.fetchRecording(`RE${"f6".repeat(16)}`)).rejects.toMatchObject({ kind: "not_found" });
    await expect(p.fetchRecording("../../etc/passwd")).rejects.toMatchObject({ kind: "invalid" });
  });

  it("deletes a recording at Twilio (DELETE Recordings/{sid}.json); one Twilio no longer has counts as deleted", async () => {
    const sid = `RE${"d4".repeat(16)}`;
    fake.recordings[sid] = Buffer.from("RIFF-no-consent");
    await expect(provider().deleteRecording(sid)).resolves.toEqual({ deleted: true });
    expect(fake.requests[0]).toMatchObject({ method: "DELETE", path: `${BASE}/Recordings/${sid}.json` });
    expect(fake.requests[0].headers.authorization).toBe(basicAuth);
    expect(fake.recordings[sid]).toBeUndefined();
    // Asked again (a retried job): Twilio answers 404, which means it is gone.
    await expect(provider().deleteRecording(sid)).resolves.toEqual({ deleted: false });
    // A failure Twilio reports is thrown, so the job retries it; a wrong sid never reaches Twilio.
    fake.recordings[sid] = Buffer.from("RIFF-again");
    fake.failNext(`/Recordings/${sid}.json`, 503, 20503, "Service unavailable");
    await expect(provider().deleteRecording(sid)).rejects.toMatchObject({ kind: "provider" });
    expect(fake.recordings[sid]).toBeDefined();
    const before = fake.requests.length;
    await expect(provider().deleteRecording("RE../../Calls")).rejects.toMatchObject({ kind: "invalid" });
    expect(fake.requests).toHaveLength(before);
  });

  it("refuses an account SID that is not AC + 32 hex characters before any request", () => {
    expect(() => createTwilioProvider({ accountSid: "nonsense", authToken: AUTH_TOKEN })).toThrow(TelephonyError);
    expect(fake.requests).toHaveLength(0);
  });
});
