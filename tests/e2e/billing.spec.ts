import { expect, test } from "@playwright/test";

test("sign up on /signup with Enterprise, buy a pack in test mode, see it in Billing History, pay and change plans", async ({ page, context }) => {
  const suffix = Date.now().toString(36);
  await page.goto("/signup");
  await expect(page.getByText("10,000+ businesses")).toBeVisible();
  await expect(page.getByText("99.9% uptime")).toBeVisible();
  await expect(page.getByRole("radio", { name: /Pro/ })).toHaveAttribute("aria-checked", "true");
  await page.getByRole("radio", { name: /Enterprise/ }).click();
  await expect(page.getByRole("radio", { name: /Enterprise/ })).toHaveAttribute("aria-checked", "true");

  // The spec's validation messages show before anything is sent.
  await page.getByRole("button", { name: "Create Account & Start Free" }).click();
  await expect(page.getByText("First name is required")).toBeVisible();
  await expect(page.getByText("You must agree to the terms")).toBeVisible();

  await page.getByLabel("First Name").fill("Quinn");
  await page.getByLabel("Last Name").fill("Alvarez");
  await page.getByLabel("Email").fill(`quinn${suffix}@example.com`);
  await page.getByLabel("Username").fill(`quinn${suffix}`);
  await page.getByLabel("Password", { exact: true }).fill("longenough1");
  await page.getByLabel("Confirm Password").fill("longenough1");
  await expect(page.getByLabel("Account Type")).toHaveValue("business");
  await page.getByLabel("Organization Name (optional)").fill("Alvarez Dental");
  const form = page.getByTestId("signup-form");
  await expect(form.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms");
  await expect(form.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
  await expect(form.getByRole("link", { name: "Sign in here" })).toHaveAttribute("href", "/auth");
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Create Account & Start Free" }).click();
  await expect(page.getByText("Account Created Successfully")).toBeVisible();
  await expect(page.getByText("Your enterprise account is ready with 10000 credits.")).toBeVisible();
  await page.waitForURL("**/dashboard");

  await page.goto("/billing");
  await expect(page.getByTestId("billing-plan-name")).toHaveText("Enterprise Plan");
  await expect(page.getByText("Trialing — payment needed")).toBeVisible();
  await expect(page.getByText("Test mode")).toBeVisible();
  await expect(page.getByTestId("billing-usage-alert")).toHaveCount(0);

  // Buy the 500-credit pack (550 with the bonus); test mode settles at once.
  await page.getByRole("tab", { name: "Purchase Credits" }).click();
  await page.getByRole("button", { name: "Buy 500 credits for $15" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Pay $15" }).click();
  await expect(page.getByText("Credits Purchased")).toBeVisible();
  await expect(page.getByText("550 credits were added to your balance.")).toBeVisible();

  await page.getByRole("tab", { name: "Billing History" }).click();
  const purchaseRow = page.getByTestId("billing-history-row").filter({ hasText: "Credit pack: 500 credits + 50 bonus" });
  await expect(purchaseRow).toContainText("Credit purchase");
  await expect(purchaseRow).toContainText("+550 credits");
  await expect(purchaseRow).toContainText("$15.00");
  await expect(purchaseRow).toContainText("Paid");
  await expect(page.getByTestId("billing-history-row").filter({ hasText: "Welcome credits for the Enterprise plan" })).toContainText("+10,000 credits");

  // Download Invoice opens the printable invoice in a new tab.
  const [invoice] = await Promise.all([context.waitForEvent("page"), purchaseRow.getByRole("button", { name: "Download Invoice" }).click()]);
  await expect(invoice.getByText("Credit pack: 500 credits + 50 bonus")).toBeVisible();
  await expect(invoice.getByText("Alvarez Dental")).toBeVisible();
  await expect(invoice.getByRole("button", { name: "Print" })).toBeVisible();
  await invoice.close();

  // Complete payment activates Enterprise, once confirmed.
  await page.getByRole("button", { name: "Complete payment" }).first().click();
  await expect(page.getByRole("alertdialog")).toContainText("Complete payment: Enterprise for $199/month?");
  await page.getByRole("alertdialog").getByRole("button", { name: "Pay $199 and activate" }).click();
  await expect(page.getByText("Plan Updated")).toBeVisible();
  await expect(page.getByTestId("billing-subscription").getByText("Active", { exact: true })).toBeVisible();

  // Downgrade to Pro: at renewal, no charge; Keep Enterprise cancels it; Free is scheduled the same way.
  await page.getByRole("tab", { name: "Subscription Plans" }).click();
  await expect(page.getByRole("button", { name: "Current plan: Enterprise" })).toBeDisabled();
  await page.getByRole("button", { name: "Downgrade: Pro" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Nothing is charged.");
  await page.getByRole("alertdialog").getByRole("button", { name: /^Switch on / }).click();
  await expect(page.getByTestId("billing-scheduled-plan")).toContainText("Your plan changes to Pro on");
  await expect(page.getByTestId("billing-plan-name")).toHaveText("Enterprise Plan");
  await page.getByRole("button", { name: "Keep Enterprise" }).click();
  await expect(page.getByTestId("billing-scheduled-plan")).toHaveCount(0);
  await page.getByRole("button", { name: "Downgrade: Free" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: /^Switch on / }).click();
  await expect(page.getByTestId("billing-scheduled-plan")).toContainText("Your plan changes to Free on");
  await expect(page.getByTestId("billing-plan-name")).toHaveText("Enterprise Plan");

  await page.getByRole("tab", { name: "Billing History" }).click();
  await expect(page.getByTestId("billing-history-row").filter({ hasText: "Enterprise plan: 1 month" })).toContainText("$199.00");
});
