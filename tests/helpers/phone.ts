/**
 * A business with a simulated number and an assistant, and the calls its carrier places, for the
 * telephony integration tests.
 */
import { eq } from "drizzle-orm";
import { POST as createNumber } from "@/app/api/phone-numbers/route";
import { PATCH as patchNumber } from "@/app/api/phone-numbers/[id]/route";
import { GET as getAccount } from "@/app/api/telephony/account/route";
import { POST as smsHook } from "@/app/api/telephony/sms/route";
import { POST as gatherHook } from "@/app/api/telephony/voice/gather/route";
import { POST as voiceHook } from "@/app/api/telephony/voice/route";
import { calls, organizations, providerCredentials, voiceAssistants } from "@/db/schema";
import { encryptSecret } from "@/lib/platform/crypto/secret-box";
import { getDb } from "@/lib/platform/database";
import { registerTestUser, type TestAccount } from "./accounts";
import { withoutNotice } from "./compliance";
import { carrierPost, fakeSid, pathOf } from "./carrier";
import { call as callRoute } from "./http";

export type Business = { account: TestAccount; numberId: string; phoneNumber: string; accountSid: string; authToken: string; assistantId: string };

export async function business(name: string, options: { forwardTo?: string; notice?: boolean } = {}): Promise<Business> {
  const account = await registerTestUser();
  if (!options.notice) await withoutNotice(account.organizationId);
  const db = await getDb();
  await db
    .update(organizations)
    .set({ name, businessProfile: { hours: "Mon–Fri 9 AM–5 PM", address: "1 Main Street", services: ["cleanings", "fillings"] } })
    .where(eq(organizations.id, account.organizationId));
  const [assistant] = await db
    .insert(voiceAssistants)
    .values({
      id: crypto.randomUUID(),
      organizationId: account.organizationId,
      name: "Riley",
      instructions: "Take a message when the team is busy.",
      greeting: `Thanks for calling ${name}, this is Riley. How can I help?`,
    })
    .returning();
  const created = await callRoute(createNumber, "POST", "/api/phone-numbers", { sessionId: account.sessionId, body: { friendlyName: "Front desk" } });
  expect(created.status).toBe(201);
  const patch = await callRoute(patchNumber, "PATCH", `/api/phone-numbers/${created.body.id}`, {
    sessionId: account.sessionId,
    params: { id: created.body.id },
    body: { assistantId: assistant.id, ...(options.forwardTo ? { forwardTo: options.forwardTo } : {}) },
  });
  expect(patch.status).toBe(200);
  const acct = await callRoute(getAccount, "GET", "/api/telephony/account", { sessionId: account.sessionId });
  expect(acct.status).toBe(200);
  return {
    account,
    numberId: created.body.id,
    phoneNumber: created.body.phoneNumber,
    accountSid: acct.body.accountSid,
    authToken: acct.body.authToken,
    assistantId: assistant.id,
  };
}

export function callParams(biz: Business, callSid: string, extra: Record<string, string> = {}) {
  return {
    CallSid: callSid,
    AccountSid: biz.accountSid,
    From: "+15555550123",
    To: biz.phoneNumber,
    CallStatus: "ringing",
    Direction: "inbound",
    ApiVersion: "2010-04-01",
    CallerName: "Pat Caller",
    ...extra,
  };
}

export async function callRow(callSid: string) {
  const db = await getDb();
  const [row] = await db.select().from(calls).where(eq(calls.providerCallSid, callSid));
  return row;
}

export async function startCall(biz: Business, callSid = fakeSid("CA"), extra: Record<string, string> = {}) {
  const res = await carrierPost(voiceHook, "/api/telephony/voice", callParams(biz, callSid, extra), biz.authToken);
  expect(res.status).toBe(200);
  return { callSid, res };
}

export async function say(biz: Business, callSid: string, actionUrl: string, speech: string, extra: Record<string, string> = {}) {
  const params = callParams(biz, callSid, { CallStatus: "in-progress", ...(speech ? { SpeechResult: speech, Confidence: "0.92" } : {}), ...extra });
  return carrierPost(gatherHook, pathOf(actionUrl), params, biz.authToken);
}

/** A text from `from` to the business's number, through its signed SMS webhook (a fresh MessageSid). */
export function textFrom(biz: Business, from: string, body: string, extra: Record<string, string> = {}) {
  const params = { MessageSid: fakeSid("SM"), AccountSid: biz.accountSid, From: from, To: biz.phoneNumber, Body: body, NumMedia: "0", ApiVersion: "2010-04-01", ...extra };
  return carrierPost(smsHook, "/api/telephony/sms", params, biz.authToken);
}

/** Saves Twilio keys for the business (as Settings → API Keys would): its carrier becomes Twilio. */
export async function saveTwilioKeys(biz: Business, accountSid: string, authToken: string) {
  await (await getDb()).insert(providerCredentials).values({
    id: crypto.randomUUID(),
    organizationId: biz.account.organizationId,
    provider: "twilio",
    ciphertext: encryptSecret(JSON.stringify({ accountSid, authToken })),
    hint: authToken.slice(-4),
  });
}
