import { expect, type Locator, type Page } from "@playwright/test";
import { twilioSignature, twilioSid } from "../../lib/phone/telephony/signature";

/** The session id the sign-in form would keep, kept in the page before its scripts run. */
export async function keepSession(page: Page, sessionId: string) {
  await page.addInitScript((id) => {
    if (!window.localStorage.getItem("sessionId")) window.localStorage.setItem("sessionId", id);
  }, sessionId);
}

/**
 * Registers a fresh user (their own organization) through the API and keeps the session in the page:
 * the response's cookie lands in the page's context, the page keeps the session id (as the sign-in
 * form does). Email and username are `prefix` (the first name, lower-cased, unless given) and a unique suffix.
 */
export async function signUpThroughApi(page: Page, person: { firstName: string; lastName: string; password: string; prefix?: string }) {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
  const name = `${person.prefix ?? person.firstName.toLowerCase()}${suffix}`;
  const email = `${name}@example.com`;
  const response = await page.request.post("/api/auth/register", {
    data: { email, password: person.password, username: name, firstName: person.firstName, lastName: person.lastName },
  });
  expect(response.status()).toBe(200);
  const { sessionId } = (await response.json()) as { sessionId: string };
  await keepSession(page, sessionId);
  return { email, sessionId };
}

/** Signs in through the API (the response's cookie lands in the page's context) and keeps the session in the page. */
export async function signInThroughApi(page: Page, account: { email: string; password: string }) {
  const response = await page.request.post("/api/auth/login", { data: { email: account.email, password: account.password } });
  expect(response.status()).toBe(200);
  const { sessionId } = (await response.json()) as { sessionId: string };
  await keepSession(page, sessionId);
  return sessionId;
}

/** Signs up a fresh owner through the API and keeps the session in the page (as the sign-in form does). */
export async function ownerSession(page: Page, firstName = "Dana") {
  const { sessionId } = await signUpThroughApi(page, { firstName, lastName: "Owner", password: "secret1234", prefix: "owner" });
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

/** A sonner toast with this title (and, if given, this description). */
export function toastWith(page: Page, title: string | RegExp, description?: string | RegExp): Locator {
  let toastLocator = page.locator("[data-sonner-toast]").filter({ hasText: title });
  if (description) toastLocator = toastLocator.filter({ hasText: description });
  return toastLocator.first();
}

/** A full-page screenshot into $E2E_SCREENSHOTS, when it is set (to look at the screens after a run). */
export async function shoot(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/${name}.png`, fullPage: true });
}
