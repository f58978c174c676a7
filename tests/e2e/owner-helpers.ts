import { expect, type Page } from "@playwright/test";
import { twilioSignature, twilioSid } from "../../lib/phone/telephony/signature";

/** Signs up a fresh owner through the API and keeps the session in the page (as the sign-in form does). */
export async function ownerSession(page: Page, firstName = "Dana") {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
  const res = await page.request.post("/api/auth/register", {
    data: { email: `owner${suffix}@example.com`, username: `owner${suffix}`, password: "secret1234", firstName, lastName: "Owner" },
  });
  expect(res.status()).toBe(200);
  const { sessionId } = (await res.json()) as { sessionId: string };
  await page.addInitScript((id) => {
    if (!window.localStorage.getItem("sessionId")) window.localStorage.setItem("sessionId", id);
  }, sessionId);
  return { sessionId, auth: { authorization: `Bearer ${sessionId}` } };
}

/** The simulated carrier reports a call to `to` that nobody answered (Twilio's signed status callback). */
export async function missedCall(page: Page, baseURL: string, auth: Record<string, string>, to: string, from: string) {
  const account = (await (await page.request.get("/api/telephony/account", { headers: auth })).json()) as { accountSid: string; authToken: string };
  const params = { CallSid: twilioSid("CA"), AccountSid: account.accountSid, From: from, To: to, CallStatus: "no-answer", Direction: "inbound", ApiVersion: "2010-04-01" };
  const url = `${baseURL}/api/telephony/status`;
  const res = await page.request.post(url, { form: params, headers: { "x-twilio-signature": twilioSignature(account.authToken, url, params) } });
  expect(res.status()).toBe(200);
}

/** The page is no wider than the screen. */
export async function noSideScroll(page: Page, path: string) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, `${path} scrolls sideways (${widths.scroll} > ${widths.client})`).toBeLessThanOrEqual(widths.client);
}
