import { expect, test } from "@playwright/test";
import { ownerSession } from "./owner-helpers";

/**
 * Issue 30 point 3: an upgrade is prorated, a downgrade waits for renewal without a charge, and
 * Signup and Billing say what a credit buys, with the usage split by kind.
 */
test("Signup and Billing say what a credit buys; usage is split by kind", async ({ page }) => {
  await page.goto("/signup");
  await expect(page.getByTestId("signup-credit-meaning")).toHaveText("1 credit = one assistant reply or one text; a typical call uses 4–6.");
  await ownerSession(page);
  await page.goto("/billing");
  await expect(page.getByTestId("billing-credit-meaning")).toHaveText("1 credit = one assistant reply or one text; a typical call uses 4–6.");
  const split = page.getByTestId("billing-usage-by-kind");
  for (const kind of ["Calls and voice tests", "Texts", "Other AI agents", "Voicemail transcription"]) await expect(split).toContainText(kind);
});

test("Pro → Enterprise is charged pro rata; back to Pro waits for renewal, free of charge, and can be undone", async ({ page }) => {
  const { auth } = await ownerSession(page);
  expect((await page.request.post("/api/billing/upgrade-plan", { headers: auth, data: { planId: "pro" } })).status()).toBe(200);
  const before = (await (await page.request.get("/api/billing/overview", { headers: auth })).json()) as { balance: number };

  await page.goto("/billing");
  await page.getByRole("tab", { name: "Subscription Plans" }).click();
  await page.getByRole("button", { name: "Upgrade: Enterprise" }).click();
  const dialog = page.getByRole("alertdialog");
  // A whole month is left: about $150 ($199 − $49), not $199.
  await expect(dialog).toContainText(/Upgrade to Enterprise now for about \$1(49|50)(\.\d\d)?\?/);
  await expect(dialog).toContainText("prorated");
  await dialog.getByRole("button", { name: /^Pay about \$/ }).click();
  await expect(page.getByTestId("billing-plan-name")).toHaveText("Enterprise Plan");

  await page.getByRole("button", { name: "Downgrade: Pro" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Nothing is charged.");
  await page.getByRole("alertdialog").getByRole("button", { name: /^Switch on / }).click();
  await expect(page.getByTestId("billing-scheduled-plan")).toContainText("Your plan changes to Pro on");
  await expect(page.getByTestId("billing-plan-name")).toHaveText("Enterprise Plan");

  const after = (await (await page.request.get("/api/billing/overview", { headers: auth })).json()) as { balance: number };
  expect(after.balance).toBe(before.balance);
  await page.getByRole("tab", { name: "Billing History" }).click();
  await expect(page.getByTestId("billing-history-row").filter({ hasText: "Upgrade to Enterprise" })).toContainText(/\$1(49|50)\.\d\d/);

  await page.getByRole("tab", { name: "Subscription Plans" }).click();
  await page.getByRole("button", { name: "Keep Enterprise" }).click();
  await expect(page.getByTestId("billing-scheduled-plan")).toHaveCount(0);
});
