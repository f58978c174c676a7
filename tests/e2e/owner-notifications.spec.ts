import { expect, test } from "@playwright/test";
import { missedCall, noSideScroll, ownerSession } from "./owner-helpers";

/**
 * Issue 30 point 1: the owner is told. A missed call shows as a count on the header's bell, in the
 * inbox behind it and (no SMTP here) in the Outbox; each alert has its own switch in Settings.
 */
test("a missed call lights the bell; the inbox opens it and marks it read; the e-mail waits in the Outbox", async ({ page, baseURL }) => {
  const { auth } = await ownerSession(page);
  const number = await page.request.post("/api/phone-numbers", { headers: auth, data: { friendlyName: "Front desk" } });
  expect(number.status()).toBe(201);
  const { phoneNumber } = (await number.json()) as { phoneNumber: string };

  await page.goto("/dashboard");
  const bell = page.getByRole("link", { name: /Notifications/ });
  await expect(bell).toBeVisible();
  await expect(bell).toHaveAccessibleName("Notifications");

  const caller = "+15555550144";
  await missedCall(page, baseURL!, auth, phoneNumber, caller);
  // The follow-up job runs within seconds; the bell asks every 30 s, a reload asks at once.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("link", { name: "Notifications (1 unread)" })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 45_000 });

  await page.getByRole("link", { name: "Notifications (1 unread)" }).click();
  await page.waitForURL("**/notifications");
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
  const item = page.getByTestId("notification").filter({ hasText: `Missed call from ${caller}` });
  await expect(item).toHaveAttribute("data-read", "false");
  await item.click();
  await page.waitForURL(/\/tasks|\/call-history/);
  await expect(page.getByRole("link", { name: "Notifications" })).toHaveAccessibleName("Notifications");
  await page.goto("/notifications");
  await expect(page.getByTestId("notification").filter({ hasText: `Missed call from ${caller}` })).toHaveAttribute("data-read", "true");

  // Alerts are e-mailed by default; without a mail server the e-mail is in the Outbox.
  await page.goto("/outbox");
  await expect(page.getByTestId("outbox-email").filter({ hasText: `Missed call from ${caller}` })).toBeVisible();
});

test("each alert is switchable in Settings → Notifications, on by default", async ({ page }) => {
  await ownerSession(page);
  await page.goto("/settings?tab=notifications");
  for (const label of ["Messages", "Voicemails", "Missed calls", "Urgent tasks", "E-mail these alerts"]) {
    await expect(page.getByRole("switch", { name: label })).toBeChecked();
  }
  await page.getByRole("switch", { name: "Voicemails" }).click();
  await expect(page.getByText("Notification preferences saved")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("switch", { name: "Voicemails" })).not.toBeChecked();
  await expect(page.getByRole("switch", { name: "Missed calls" })).toBeChecked();
});

test.describe("on a phone (390 × 844)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the bell and the front desk's pages are in the header; Settings' tabs and the inbox fit the screen", async ({ page }) => {
    await ownerSession(page);
    await page.goto("/dashboard");
    await expect(page.getByRole("link", { name: /Notifications/ })).toBeVisible();
    await noSideScroll(page, "/dashboard");
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.locator("#mobile-nav");
    for (const label of ["Notifications", "Appointments", "Tasks", "Recaps", "Contacts", "Outbox"]) {
      await expect(menu.getByRole("link", { name: label, exact: true })).toBeVisible();
    }
    await menu.getByRole("link", { name: "Tasks", exact: true }).click();
    await page.waitForURL("**/tasks");

    await page.goto("/notifications");
    await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
    await noSideScroll(page, "/notifications");
    await page.goto("/settings");
    for (const tab of ["Profile", "Security", "Notifications", "API Keys", "Calendar", "Calls"]) {
      const box = await page.getByRole("tab", { name: tab }).boundingBox();
      expect(box, `${tab} tab`).not.toBeNull();
      expect(box!.x + box!.width, `${tab} tab is off-screen`).toBeLessThanOrEqual(390);
    }
    await noSideScroll(page, "/settings");
  });
});
