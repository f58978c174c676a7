import { expect, test } from "@playwright/test";
import { ownerSession } from "./owner-helpers";

/** Issue 30 point 6: the smaller things an owner notices. */

test("Forgot password? on /auth e-mails a single-use link (the Outbox without SMTP) that sets a new password", async ({ page, browser }) => {
  const { auth } = await ownerSession(page);
  const me = (await (await page.request.get("/api/auth/me", { headers: auth })).json()) as { email: string };

  const visitor = await browser.newContext();
  const signedOut = await visitor.newPage();
  await signedOut.goto("/auth");
  await signedOut.getByRole("link", { name: "Forgot password?" }).click();
  await expect(signedOut.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
  await signedOut.getByLabel("Email").fill(me.email);
  await signedOut.getByRole("button", { name: "Send reset link" }).click();
  await expect(signedOut.getByTestId("forgot-sent")).toContainText("30 minutes");

  // Without SMTP the e-mail is kept in the Outbox, where the owner (still signed in elsewhere) reads it.
  const { emails } = (await (await page.request.get("/api/emails", { headers: auth })).json()) as { emails: { subject: string; text: string }[] };
  const mail = emails.find((e) => e.subject === "Reset your Switchboard password");
  expect(mail).toBeTruthy();
  const link = mail!.text.match(/https?:\/\/\S+\/auth\/reset-password\?token=\S+/)![0];

  await signedOut.goto(link);
  await signedOut.getByLabel("New password", { exact: true }).fill("new-secret-99");
  await signedOut.getByLabel("Confirm new password").fill("new-secret-99");
  await signedOut.getByRole("button", { name: "Set new password" }).click();
  await expect(signedOut.getByTestId("reset-done")).toBeVisible();

  // The link works once.
  await signedOut.goto(link);
  await signedOut.getByLabel("New password", { exact: true }).fill("third-secret-99");
  await signedOut.getByLabel("Confirm new password").fill("third-secret-99");
  await signedOut.getByRole("button", { name: "Set new password" }).click();
  await expect(signedOut.getByTestId("reset-failure")).toContainText("expired or was already used");

  await signedOut.goto("/auth");
  await signedOut.getByTestId("login-email").fill(me.email);
  await signedOut.getByTestId("login-password").fill("new-secret-99");
  await signedOut.getByTestId("login-submit").click();
  await signedOut.waitForURL("**/dashboard");
  await visitor.close();
});

test("business hours live on the Business page; the assistant's settings read them and link there", async ({ page }) => {
  const { auth } = await ownerSession(page);
  const nineToFive = [{ open: "09:00", close: "17:00" }];
  const saved = await page.request.put("/api/business-profile", {
    headers: auth,
    data: { timezone: "America/Chicago", weeklyHours: { mon: nineToFive, tue: nineToFive, wed: nineToFive, thu: nineToFive, fri: nineToFive, sat: [], sun: [] } },
  });
  expect(saved.status()).toBe(200);

  await page.goto("/voice-assistants");
  await page.getByTestId("assistant-edit").first().click();
  const summary = page.getByTestId("call-rules-editor").getByTestId("business-hours-summary");
  await expect(summary).toContainText("Monday to Friday 9 AM–5 PM");
  await expect(summary).toContainText("America/Chicago");
  await summary.getByRole("link", { name: /Business page/ }).click();
  await page.waitForURL("**/settings/business");
});

test("owner screens say things plainly; the technical words wait behind Details", async ({ page }) => {
  await ownerSession(page);
  await page.goto("/voice-test");
  await expect(page.getByRole("heading", { level: 1, name: "Voice Test" })).toBeVisible();
  await expect(page.getByText("Admin Tool")).toHaveCount(0);

  for (const path of ["/dashboard", "/phone-numbers", "/voice-assistants", "/appointments", "/settings"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState("networkidle").catch(() => undefined);
    // Visible text only: what sits inside a closed <details> is not read out.
    const visible = await page.evaluate(() => document.body.innerText);
    for (const word of ["signed webhooks", "last webhook", "ConversationRelay", "WebSocket gateway", "E.164", "Booked via", "Admin Tool"]) {
      expect(visible, `${path} shows "${word}"`).not.toContain(word);
    }
  }
});

test("the text thread keeps to the newest line; closing the call dialog gives focus back to its Call button", async ({ page }) => {
  test.setTimeout(120_000);
  const { auth } = await ownerSession(page);
  const number = await page.request.post("/api/phone-numbers", { headers: auth, data: { friendlyName: "Front desk" } });
  expect(number.status()).toBe(201);

  await page.goto("/phone-numbers");
  const callButton = page.getByTestId("phone-number-call").first();
  await callButton.click();
  const dialog = page.getByTestId("phone-panel");
  await dialog.getByRole("tab", { name: "Text" }).click();
  const thread = dialog.getByTestId("phone-panel-sms-thread");
  for (let i = 1; i <= 4; i++) {
    await dialog.getByLabel("Text message").fill(`What time do you open on day ${i}?`);
    await dialog.getByTestId("phone-panel-sms-send").click();
    await expect(thread.locator("li").filter({ hasText: `day ${i}?` })).toBeVisible();
    await expect(dialog.getByTestId("phone-panel-sms-send")).toBeDisabled();
    await expect(thread.locator("li")).toHaveCount(i * 2, { timeout: 20_000 }).catch(() => undefined);
  }
  // More lines than the box holds: it is scrolled to the bottom, the newest line in view.
  await expect
    .poll(() => thread.evaluate((el) => ({ overflow: el.scrollHeight > el.clientHeight, atEnd: el.scrollHeight - el.scrollTop - el.clientHeight < 4 })))
    .toEqual({ overflow: true, atEnd: true });

  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(callButton).toBeFocused();
});
