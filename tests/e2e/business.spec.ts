import { expect, test, type Page } from "@playwright/test";
import { startBusinessSite, type FakeBusinessSite } from "../fakes/business-site";
import { shoot, signUpThroughApi, toastWith } from "./owner-helpers";

/**
 * The Business screen (issue 16, knowledge) on the production build: editing the profile and a
 * service, the assistant answering from it and saying when it does not know, answering that
 * question once; and importing a website (a local test site served by this test, reached with
 * ALLOW_PRIVATE_ENDPOINTS=true) after signing up with its address.
 */

const PASSWORD = "secret123";

async function register(page: Page, firstName: string) {
  return (await signUpThroughApi(page, { firstName, lastName: "Hart", password: PASSWORD })).sessionId;
}

test("the Business screen: profile, hours, a service; the assistant answers from it and the owner answers what it did not know", async ({ page }) => {
  // A long walk through the screen with four voice turns (each synthesizes audio): more than the default 45 s on a busy machine.
  test.setTimeout(120_000);
  const sessionId = await register(page, "Bianca");
  // A new organization starts with a starter assistant (the Free plan's one slot): make it Front Desk.
  const starterId = ((await (await page.request.get("/api/voice-assistants", { headers: { authorization: `Bearer ${sessionId}` } })).json()) as { id: string }[])[0].id;
  const assistant = await page.request.put(`/api/voice-assistants/${starterId}`, {
    headers: { authorization: `Bearer ${sessionId}` },
    data: { name: "Front Desk", instructions: "Greet callers warmly." },
  });
  expect(assistant.status()).toBe(200);

  // Reached from Settings; the navigation keeps its six items and highlights Settings.
  await page.goto("/settings");
  await page.getByTestId("settings-business-link").click();
  await page.waitForURL("**/settings/business");
  await expect(page.getByRole("heading", { name: "Business", level: 1 })).toBeVisible();
  await expect(page.getByTestId("knowledge-gaps-empty")).toBeVisible();

  await page.getByLabel("Business name").fill("Bianca's Bike Repair");
  await page.getByLabel("Phone").fill("+1 415 555 0100");
  await page.getByLabel("Time zone").selectOption("America/Los_Angeles");
  await page.getByLabel("Address").fill("9 Valencia Street, San Francisco, CA 94103");

  // Monday 9–6, copied to the other weekdays; Saturday 10–2.
  await page.getByRole("switch", { name: "Open on Monday" }).click();
  await page.getByLabel("Monday closes at").fill("18:00");
  await page.getByTestId("business-copy-monday").click();
  await expect(page.getByLabel("Friday closes at")).toHaveValue("18:00");
  await page.getByRole("switch", { name: "Open on Saturday" }).click();
  await page.getByLabel("Saturday opens at").fill("10:00");
  await page.getByLabel("Saturday closes at").fill("14:00");

  // A closing time before the opening time is caught before anything is sent.
  await page.getByLabel("Saturday closes at").fill("08:00");
  await page.getByTestId("business-save").click();
  await expect(page.getByTestId("business-day-sat").getByText("Closing time must be after opening time")).toBeVisible();
  await expect(page.getByTestId("business-save-status")).toHaveText("Fix the highlighted fields, then save.");
  await page.getByLabel("Saturday closes at").fill("14:00");
  await expect(page.getByTestId("business-day-sat").getByText("Closing time must be after opening time")).toHaveCount(0);

  await page.getByTestId("business-add-holiday").click();
  await page.getByLabel("Date").fill("2026-12-25");
  await page.getByLabel("Name", { exact: true }).fill("Christmas Day");
  await page.getByTestId("business-add-policy").click();
  await page.getByLabel("Title").fill("Repairs");
  await page.getByLabel("Policy", { exact: true }).fill("Bikes not collected within 30 days are donated.");
  await page.getByTestId("business-add-faq").click();
  await page.getByLabel("Question", { exact: true }).fill("Do you sell used bikes?");
  await page.getByLabel("Answer", { exact: true }).fill("Yes, a few refurbished bikes every month.");
  await shoot(page, "business-form");
  await page.getByTestId("business-save").click();
  await expect(toastWith(page, "Business profile saved")).toBeVisible();
  await expect(page.getByTestId("business-open-status")).toHaveText(/^(Open now until|Closed now)/);

  // A service with a duration and a price.
  await page.getByTestId("business-add-service").click();
  const dialog = page.getByTestId("service-dialog");
  await dialog.getByLabel("Name").fill("Tune-up");
  await dialog.getByLabel("Duration (minutes)").fill("60");
  await dialog.getByLabel("Price").fill("85");
  await dialog.getByTestId("service-submit").click();
  await expect(toastWith(page, "Service added", "Tune-up: $85, 1 hour.")).toBeVisible();
  await expect(page.getByTestId("business-service-details")).toHaveText("$85 · 1 hour");

  // Saved: a reload shows it.
  await page.reload();
  await expect(page.getByLabel("Business name")).toHaveValue("Bianca's Bike Repair");
  await expect(page.getByLabel("Wednesday closes at")).toHaveValue("18:00");
  await expect(page.getByLabel("Sunday closes at")).toHaveCount(0);
  await expect(page.getByTestId("business-faq")).toHaveCount(1);

  // The assistant answers from it, and says when it does not know.
  await page.goto("/voice-test");
  const input = page.getByTestId("voice-test-input");
  await input.fill("How much is a tune-up?");
  await input.press("Enter");
  const response = page.getByTestId("voice-test-result-response");
  await expect(response).toContainText("Tune-up is $85 and takes about 1 hour.");
  await input.fill("Do you fix electric scooters?");
  await input.press("Enter");
  await expect(response).toContainText("won't guess");
  await expect(page.getByTestId("voice-test-knowledge-gap")).toBeVisible();

  // The dashboard counts it; the owner answers it once.
  await page.goto("/dashboard");
  await expect(page.getByTestId("dashboard-knowledge-gaps-value")).toHaveText("1");
  await shoot(page, "dashboard-knowledge");
  await page.getByTestId("dashboard-knowledge-gaps").click();
  await page.waitForURL("**/settings/business#questions");
  const gap = page.getByTestId("knowledge-gap");
  await expect(gap.getByTestId("knowledge-gap-question")).toHaveText("“Do you fix electric scooters?”");
  await expect(gap).toContainText("Asked once");
  await gap.getByTestId("knowledge-gap-answer").fill("Yes, we repair electric scooters too; bring the charger.");
  await gap.getByTestId("knowledge-gap-save").click();
  await expect(toastWith(page, "Answer saved")).toBeVisible();
  await expect(page.getByTestId("knowledge-gaps-empty")).toBeVisible();
  await expect(page.getByTestId("business-faq")).toHaveCount(2);
  await expect(page.getByLabel("Answer", { exact: true }).nth(1)).toHaveValue("Yes, we repair electric scooters too; bring the charger.");

  // The next answer uses it.
  await page.goto("/voice-test");
  await page.getByTestId("voice-test-input").fill("Do you fix electric scooters?");
  await page.getByTestId("voice-test-input").press("Enter");
  await expect(page.getByTestId("voice-test-result-response")).toContainText("Yes, we repair electric scooters too");
  await expect(page.getByTestId("voice-test-knowledge-gap")).toHaveCount(0);
  await page.goto("/dashboard");
  await expect(page.getByTestId("dashboard-knowledge-gaps-value")).toHaveText("0");
});

test.describe("website import", () => {
  let site: FakeBusinessSite;
  test.beforeAll(async () => {
    site = await startBusinessSite();
  });
  test.afterAll(async () => {
    await site.close();
  });

  test("a website given at sign-up is offered for import; the owner confirms the facts and they become the profile", async ({ page }) => {
    const suffix = Date.now().toString(36);
    await page.goto("/signup");
    await page.getByLabel("First Name").fill("Sofia");
    await page.getByLabel("Last Name").fill("Marin");
    await page.getByLabel("Email").fill(`sofia${suffix}@example.com`);
    await page.getByLabel("Username").fill(`sofia${suffix}`);
    await page.getByLabel("Password", { exact: true }).fill("longenough1");
    await page.getByLabel("Confirm Password").fill("longenough1");
    await page.getByLabel("Organization Name (optional)").fill("Seaside Physio");
    await page.getByLabel("Business website (optional)").fill(site.url);
    await page.getByRole("checkbox").check();
    await page.getByRole("button", { name: "Create Account & Start Free" }).click();
    await page.waitForURL("**/dashboard");

    // The dashboard offers the import of the website given at sign-up.
    const offer = page.getByTestId("dashboard-knowledge-import");
    await expect(offer).toHaveText(`Import from ${new URL(site.url).host}`);
    await expect(page.getByTestId("dashboard-knowledge-gaps-value")).toHaveText("0");
    await offer.click();
    await page.waitForURL("**/settings/business?import=*");
    const dialog = page.getByTestId("import-dialog");
    await expect(dialog.getByTestId("import-url")).toHaveValue(`${site.url}/`);
    await dialog.getByTestId("import-url-submit").click();

    const review = dialog.getByTestId("import-review");
    await expect(review.getByTestId("import-summary")).toContainText(/Read \d+ pages of 127\.0\.0\.1:\d+ and found \d+ facts\./);
    await expect(review.getByTestId("import-group-hours")).toContainText("Monday: 8 AM–7 PM");
    await expect(review.getByTestId("import-group-service")).toContainText("Initial assessment");
    await expect(review.getByTestId("import-group-faq")).toContainText("Do I need a referral?");
    await shoot(page, "business-import-review");

    // Leave one service out: only the ticked facts are added.
    await review.getByTestId("import-fact").filter({ hasText: "Home visit" }).getByRole("checkbox").uncheck();
    const apply = review.getByTestId("import-apply");
    await expect(apply).toHaveText(/^Add \d+ facts$/);
    await apply.click();
    await expect(toastWith(page, "Business profile updated", /Added \d+ facts from/)).toBeVisible();
    await expect(dialog).toBeHidden();

    await expect(page.getByLabel("Address")).toHaveValue("88 Ocean Avenue, Suite 4, Portland, OR 97209");
    await expect(page.getByLabel("Time zone")).toHaveValue("America/Los_Angeles");
    await expect(page.getByLabel("Monday closes at")).toHaveValue("19:00");
    await expect(page.getByLabel("Friday closes at")).toHaveValue("17:00");
    const names = page.getByTestId("business-service-name");
    await expect(names).toContainText(["Dry needling", "Follow-up session", "Initial assessment", "Kinesio taping", "Sports massage"]);
    await expect(names.filter({ hasText: "Home visit" })).toHaveCount(0);
    await expect(page.getByTestId("business-faq")).toHaveCount(2);
    await expect(page.getByTestId("business-holiday")).toHaveCount(2);
    await shoot(page, "business-after-import");
  });
});
