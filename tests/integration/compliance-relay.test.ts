/**
 * The notice on a streaming number (ConversationRelay): a <Say> before <Connect>, so it plays in full
 * before the stream starts; the stream's setup means the caller stayed on past it (consent holds).
 */
import twilio from "twilio";
import WebSocket from "ws";
import { PATCH as patchNumber } from "@/app/api/phone-numbers/[id]/route";
import { PUT as putSettings } from "@/app/api/settings/compliance/route";
import { closeDb, getDb } from "@/lib/platform/database";
import { consentFor } from "@/lib/compliance/consent";
import { DEFAULT_NOTICE } from "@/lib/compliance/notice";
import { createLocalResponder } from "@/lib/platform/providers/llm/local";
import { startRelayGateway, type RelayGateway } from "@/lib/channels/phone-line/relay/gateway";
import { call as callRoute } from "../helpers/http";
import { business, callRow, startCall } from "../helpers/phone";

jest.setTimeout(90_000);

let gateway: RelayGateway;
beforeAll(async () => {
  gateway = await startRelayGateway({ port: 0, host: "127.0.0.1", getDb, deps: { llm: createLocalResponder(), speechMsPerChar: 0, log: () => undefined } });
});
afterAll(async () => {
  await gateway.close();
  await closeDb();
});

it("plays the notice before <Connect>, and the stream's setup records that the caller stayed on", async () => {
  const biz = await business("Streaming Dental", { notice: true });
  await callRoute(putSettings, "PUT", "/api/settings/compliance", { sessionId: biz.account.sessionId, body: { businessState: "NY" } });
  const patched = await callRoute(patchNumber, "PATCH", `/api/phone-numbers/${biz.numberId}`, { sessionId: biz.account.sessionId, params: { id: biz.numberId }, body: { streaming: true } });
  expect(patched.status).toBe(200);
  const { callSid, res } = await startCall(biz);
  expect(res.verbs.map((v) => v.name)).toEqual(["Say", "Connect"]);
  expect(res.verbs[0].text).toBe(`${DEFAULT_NOTICE}.`);
  const call = await callRow(callSid);
  expect((await consentFor(await getDb(), biz.account.organizationId, call.id))?.stayedOn).toBe(false);

  const relay = res.verbs[1].children[0];
  const url = relay.attrs.url.replace("//localhost:", "//127.0.0.1:");
  const ws = new WebSocket(url, { headers: { "x-twilio-signature": twilio.getExpectedTwilioSignature(biz.authToken, relay.attrs.url, {}) } });
  await new Promise((resolve, reject) => {
    ws.on("open", resolve);
    ws.on("error", reject);
  });
  ws.send(JSON.stringify({ type: "setup", sessionId: "VX" + "0".repeat(32), callSid, from: "+15555550123", to: biz.phoneNumber, direction: "inbound", customParameters: { callId: call.id } }));
  const deadline = Date.now() + 10_000;
  let consent = await consentFor(await getDb(), biz.account.organizationId, call.id);
  while (!consent?.stayedOn && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    consent = await consentFor(await getDb(), biz.account.organizationId, call.id);
  }
  ws.close();
  expect(consent).toMatchObject({ stayedOn: true, holds: true });
});
