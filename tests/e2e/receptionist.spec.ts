import { expect, test, type Page } from "@playwright/test";
import { twilioSignature, twilioSid } from "../../lib/phone/telephony/signature";
import { signUpThroughApi } from "./owner-helpers";

/**
 * The receptionist's follow-up in the browser: a call that rings out (the carrier's signed status
 * callback, as Twilio sends it) ends as a task on the Tasks screen and a text-back to the caller;
 * the Recaps page builds today's recap with the missed call in it.
 */

async function signUp(page: Page) {
  return (await signUpThroughApi(page, { firstName: "Robin", lastName: "Desk", password: "secret123", prefix: "desk" })).sessionId;
}

test("a missed call ends as a task and a text-back; the recap page shows it", async ({ page, baseURL }) => {
  const sessionId = await signUp(page);
  const auth = { authorization: `Bearer ${sessionId}` };
  const number = await page.request.post("/api/phone-numbers", { headers: auth, data: { friendlyName: "Front desk" } });
  expect(number.status()).toBe(201);
  const { phoneNumber } = (await number.json()) as { phoneNumber: string };
  const account = (await (await page.request.get("/api/telephony/account", { headers: auth })).json()) as { accountSid: string; authToken: string };

  // The carrier reports a call nobody answered.
  const caller = "+15555550177";
  const params = { CallSid: twilioSid("CA"), AccountSid: account.accountSid, From: caller, To: phoneNumber, CallStatus: "no-answer", Direction: "inbound", ApiVersion: "2010-04-01" };
  const url = `${baseURL}/api/telephony/status`;
  const status = await page.request.post(url, { form: params, headers: { "x-twilio-signature": twilioSignature(account.authToken, url, params) } });
  expect(status.status()).toBe(200);

  // The post-call job makes the task (the app's job runner, within a few seconds).
  await page.goto("/tasks");
  const task = page.getByTestId("task").filter({ hasText: caller });
  await expect(async () => {
    await page.reload();
    await expect(task).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(task.getByTestId("task-title")).toHaveText(`Call back ${caller}: missed call`);
  await expect(task.getByTestId("task-link")).toHaveAttribute("href", /\/call-history\?call=/);

  // The caller got the text-back, in Call History as an outbound text.
  const history = await page.request.get("/api/call-history?type=message", { headers: auth });
  const texts = JSON.stringify(await history.json());
  expect(texts).toContain(caller);
  expect(texts).toContain("Thanks for calling");

  // Done moves it off the open list.
  await task.getByTestId("task-done").click();
  await expect(page.getByTestId("tasks-empty")).toBeVisible();
  await page.getByTestId("tasks-tab-done").click();
  await expect(page.getByTestId("task").filter({ hasText: caller })).toBeVisible();

  // The recap page: build today's now; the missed call and the task are in it, linked.
  await page.goto("/recaps");
  await expect(page.getByTestId("recaps-empty")).toBeVisible();
  await page.getByTestId("recap-run").click();
  const recap = page.getByTestId("recap").first();
  await expect(recap).toBeVisible();
  await expect(recap.getByTestId("recap-missed-count")).toHaveText("1");
  await expect(recap.getByTestId("recap-newTasks-count")).toHaveText("1");
  await expect(recap.getByTestId("recap-answered-count")).toHaveText("0");
  await expect(recap.getByTestId("recap-missed").getByRole("link", { name: new RegExp(caller.replace("+", "\\+")) })).toHaveAttribute("href", /\/call-history\?call=/);
});
