import crypto from "node:crypto";
import twilio from "twilio";
import { hmacSha1, sha1, twilioSid, twilioSignature } from "./signature";

describe("Twilio request signatures without Node crypto", () => {
  it("computes SHA-1 and HMAC-SHA1 like Node does, across block boundaries", () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 127, 128, 1000]) {
      const data = crypto.randomBytes(length);
      expect(Buffer.from(sha1(data)).toString("hex")).toBe(crypto.createHash("sha1").update(data).digest("hex"));
      const key = crypto.randomBytes(length % 3 === 0 ? 100 : 20);
      expect(Buffer.from(hmacSha1(key, data)).toString("hex")).toBe(crypto.createHmac("sha1", key).update(data).digest("hex"));
    }
  });

  it("matches twilio.getExpectedTwilioSignature for form posts, query strings, unicode and upgrades", () => {
    const token = "12345678901234567890123456789012";
    const cases: [string, Record<string, string>][] = [
      ["https://switchboard.example/api/telephony/voice", { CallSid: "CA123", From: "+15555550123", To: "+14155550100", CallerName: "Zoë Müller" }],
      ["http://localhost:3000/api/telephony/voice/gather?step=3", { SpeechResult: "What are your hours? 9–5, right?", Confidence: "0.9" }],
      ["wss://relay.example/relay?callId=abc", {}],
    ];
    for (const [url, params] of cases) {
      expect(twilioSignature(token, url, params)).toBe(twilio.getExpectedTwilioSignature(token, url, params));
      expect(twilio.validateRequest(token, twilioSignature(token, url, params), url, params)).toBe(true);
    }
  });

  it("makes sids in Twilio's shapes", () => {
    expect(twilioSid("CA")).toMatch(/^CA[0-9a-f]{32}$/);
    expect(twilioSid("RE")).not.toBe(twilioSid("RE"));
  });
});
