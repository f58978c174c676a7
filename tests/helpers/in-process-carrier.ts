/**
 * A `fetch` that answers from the route handlers in this process (the same routes Twilio calls), so
 * the carrier client (lib/phone/telephony/simulator) can be tested, benchmarked (scripts/bench-phone.ts)
 * and graded (`npm run eval:calls`) against the real webhooks without a server.
 */
import { DOMParser } from "@xmldom/xmldom";
import { GET as audio } from "@/app/api/audio/[id]/route";
import { POST as recordings } from "@/app/api/telephony/simulator/recordings/route";
import { POST as sms } from "@/app/api/telephony/sms/route";
import { POST as status } from "@/app/api/telephony/status/route";
import { POST as connect } from "@/app/api/telephony/voice/connect/route";
import { POST as dial } from "@/app/api/telephony/voice/dial/route";
import { POST as gather } from "@/app/api/telephony/voice/gather/route";
import { POST as record } from "@/app/api/telephony/voice/record/route";
import { POST as callRecording } from "@/app/api/telephony/voice/call-recording/route";
import { POST as recording } from "@/app/api/telephony/voice/recording/route";
import { POST as voice } from "@/app/api/telephony/voice/route";
import { POST as whisper } from "@/app/api/telephony/voice/whisper/route";
import type { CarrierAccount, CarrierTransport } from "@/lib/phone/telephony/simulator/carrier-client";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const routes: [RegExp, string, Handler][] = [
  [/^\/api\/telephony\/voice$/, "POST", voice],
  [/^\/api\/telephony\/voice\/gather$/, "POST", gather],
  [/^\/api\/telephony\/voice\/dial$/, "POST", dial],
  [/^\/api\/telephony\/voice\/record$/, "POST", record],
  [/^\/api\/telephony\/voice\/recording$/, "POST", recording],
  [/^\/api\/telephony\/voice\/call-recording$/, "POST", callRecording],
  [/^\/api\/telephony\/voice\/connect$/, "POST", connect],
  [/^\/api\/telephony\/voice\/whisper$/, "POST", whisper],
  [/^\/api\/telephony\/status$/, "POST", status],
  [/^\/api\/telephony\/sms$/, "POST", sms],
  [/^\/api\/telephony\/simulator\/recordings$/, "POST", recordings],
  [/^\/api\/audio\/([^/]+)$/, "GET", audio],
];

export const inProcessFetch: typeof fetch = async (input, init) => {
  const req = new Request(input as string, init);
  const url = new URL(req.url);
  for (const [pattern, method, handler] of routes) {
    const m = pattern.exec(url.pathname);
    if (m && req.method === method) return handler(req, { params: Promise.resolve(m[1] ? { id: m[1] } : ({} as Record<string, string>)) });
  }
  return new Response(`No route ${req.method} ${url.pathname}`, { status: 404 });
};

export const inProcessTransport: CarrierTransport = {
  fetch: inProcessFetch,
  parseXml: (xml) => new DOMParser().parseFromString(xml, "text/xml") as never,
  now: () => performance.now(),
};

export function carrierAccountFrom(account: { accountSid: string; authToken: string }): CarrierAccount {
  const base = "http://localhost:3000";
  return {
    accountSid: account.accountSid,
    authToken: account.authToken,
    voiceUrl: `${base}/api/telephony/voice`,
    statusCallbackUrl: `${base}/api/telephony/status`,
    smsUrl: `${base}/api/telephony/sms`,
    recordingsUrl: `${base}/api/telephony/simulator/recordings`,
  };
}
