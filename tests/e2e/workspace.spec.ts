import { expect, test, type Page } from "@playwright/test";
import { demoAccount } from "../../lib/consoles/demo-accounts";
import { shoot, signInThroughApi, signUpThroughApi, toastWith } from "./owner-helpers";

/**
 * The signed-in workspace (issue 3) clicked through as a user would, on the production build.
 * Each test signs up its own user (a fresh organization on the Free plan) so the tests are independent;
 * the call-history test reads the seeded demo organization.
 */

const PASSWORD = "secret123";

/** Registers a new user through the API: the response's cookie lands in the page's context; the page keeps the session id too. */
async function signUp(page: Page, firstName = "Robin") {
  return signUpThroughApi(page, { firstName, lastName: "Hart", password: PASSWORD });
}

async function signInAsDemo(page: Page) {
  return signInThroughApi(page, demoAccount);
}

test("phone numbers: add by area code, edit, configure, deactivate, plan limit, release", async ({ page }) => {
  await signUp(page, "Paula");
  await page.goto("/phone-numbers");
  await expect(page.getByRole("heading", { name: "Phone Numbers", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No Phone Numbers" })).toBeVisible();
  await shoot(page, "phone-numbers-empty");

  // Add Number → new number, preferred area code 415, pick the second one offered.
  await page.getByTestId("phone-numbers-add").click();
  const addDialog = page.getByRole("dialog", { name: "Add a phone number" });
  await expect(addDialog).toBeVisible();
  await addDialog.getByLabel("Preferred area code (optional)").fill("415");
  await addDialog.getByRole("button", { name: "Search" }).click();
  const offered = addDialog.getByRole("radio");
  await expect(offered.first()).toBeVisible();
  expect(await offered.count()).toBeGreaterThan(1);
  await expect(addDialog.getByText("Practice numbers")).toBeVisible();
  const choice = offered.nth(1);
  const chosenNumber = ((await choice.locator("span.tabular-nums").textContent()) ?? "").trim();
  expect(chosenNumber).toMatch(/^\+1 \(415\) \d{3}-\d{4}$/);
  await choice.click();
  await expect(choice).toHaveAttribute("aria-checked", "true");
  await addDialog.getByLabel("Friendly name").fill("Main line");
  await shoot(page, "phone-numbers-add-dialog");
  await addDialog.getByRole("button", { name: "Add", exact: true }).click();

  await expect(toastWith(page, "Phone number added successfully")).toBeVisible();
  await expect(addDialog).toBeHidden();
  const card = page.getByTestId("phone-number-card");
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("phone-number-value")).toHaveText(chosenNumber);
  await expect(card.getByTestId("phone-number-friendly-name")).toHaveText("Main line");
  await expect(card.getByTestId("phone-number-status")).toHaveText("Active");
  await expect(card.getByText("Practice number")).toBeVisible();
  await expect(page.getByRole("heading", { name: "No Phone Numbers" })).toBeHidden();

  // Edit the friendly name.
  await card.getByRole("button", { name: "Edit" }).click();
  const editDialog = page.getByRole("dialog", { name: `Edit ${chosenNumber}` });
  await expect(editDialog.getByLabel("Friendly name")).toHaveValue("Main line");
  await editDialog.getByLabel("Friendly name").fill("Front desk");
  await editDialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toastWith(page, "Phone number updated", "Front desk")).toBeVisible();
  await expect(editDialog).toBeHidden();
  await expect(card.getByTestId("phone-number-friendly-name")).toHaveText("Front desk");

  // Configure: forward calls to a person.
  await card.getByRole("button", { name: "Configure" }).click();
  const configureDialog = page.getByRole("dialog", { name: `Configure ${chosenNumber}` });
  await configureDialog.getByLabel("Forward calls to").fill("+14155550199");
  await shoot(page, "phone-numbers-configure-dialog");
  await configureDialog.getByRole("button", { name: "Save routing" }).click();
  await expect(toastWith(page, "Phone number updated", "Routing saved.")).toBeVisible();
  await expect(configureDialog).toBeHidden();
  await expect(card.getByText("Forwards to +1 (415) 555-0199")).toBeVisible();

  // Deactivate with the switch.
  await card.getByRole("switch", { name: `Deactivate ${chosenNumber}` }).click();
  await expect(card.getByTestId("phone-number-status")).toHaveText("Inactive");
  await expect(card.getByRole("switch", { name: `Activate ${chosenNumber}` })).toHaveAttribute("aria-checked", "false");
  await shoot(page, "phone-numbers-card");

  // The Free plan allows one number: a second add is refused with the limit and how to raise it.
  await page.getByTestId("phone-numbers-add").click();
  await expect(addDialog).toBeVisible();
  await addDialog.getByLabel("Friendly name").fill("Second line");
  await addDialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(toastWith(page, "Error", /Your Free plan allows 1 phone number\. Upgrade to Pro/)).toBeVisible();
  await expect(addDialog).toBeVisible();
  await addDialog.getByRole("button", { name: "Cancel" }).click();
  await expect(addDialog).toBeHidden();
  await expect(card).toHaveCount(1);

  // Delete, with confirmation: the number is released and the card goes.
  await card.getByRole("button", { name: `Delete ${chosenNumber}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Release this number?" });
  await expect(confirm).toContainText(chosenNumber);
  await confirm.getByRole("button", { name: "Release number" }).click();
  await expect(toastWith(page, "Phone number released")).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "No Phone Numbers" })).toBeVisible();
});

test("voice assistants: create with the form, toggle, delete, quick create", async ({ page }) => {
  await signUp(page, "Victor");
  await page.goto("/voice-assistants");
  // A new organization starts with its starter assistant; delete it to start from nothing.
  const starter = page.getByTestId("assistant-card");
  await expect(starter).toHaveCount(1);
  await expect(starter.getByTestId("assistant-name-text")).toHaveText("Front Desk");
  await expect(starter.getByTestId("assistant-status")).toHaveText("Active");
  await starter.getByRole("button", { name: "Delete Front Desk" }).click();
  await page.getByRole("alertdialog", { name: "Delete this assistant?" }).getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toastWith(page, "Voice assistant deleted successfully")).toBeVisible();
  await expect(page.getByRole("heading", { name: "No Voice Assistants" })).toBeVisible();
  await shoot(page, "assistants-empty");

  await page.getByTestId("assistant-create").click();
  const dialog = page.getByRole("dialog", { name: "Create Assistant" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Name").fill("Front Desk");
  await dialog.getByLabel("Description").fill("Answers the main line during business hours");
  // The option lists arrive from the server; wait for them before choosing.
  await expect(dialog.getByLabel("Personality").locator("option", { hasText: "Professional" })).toBeAttached();
  await dialog.getByLabel("Personality").selectOption({ label: "Professional" });
  await dialog.getByLabel("Voice").selectOption({ label: "Nova" });
  await dialog.getByLabel("Instructions").fill("Book appointments and take messages.");
  await shoot(page, "assistants-form");
  await dialog.getByRole("button", { name: "Create Assistant" }).click();

  await expect(toastWith(page, "Voice assistant created successfully")).toBeVisible();
  await expect(dialog).toBeHidden();
  const card = page.getByTestId("assistant-card").filter({ hasText: "Front Desk" });
  await expect(card).toBeVisible();
  await expect(card.getByTestId("assistant-status")).toHaveText("Active");
  await expect(card.getByTestId("assistant-personality-text")).toHaveText("Professional");
  await expect(card.getByTestId("assistant-voice-text")).toHaveText("Nova");
  await expect(card.getByText("Book appointments and take messages.")).toBeVisible();
  await shoot(page, "assistants-grid");

  // Deactivate, then activate again.
  await card.getByRole("button", { name: "Deactivate" }).click();
  await expect(toastWith(page, "Voice assistant updated successfully")).toBeVisible();
  await expect(card.getByTestId("assistant-status")).toHaveText("Inactive");
  await card.getByRole("button", { name: "Activate" }).click();
  await expect(card.getByTestId("assistant-status")).toHaveText("Active");
  await expect(card.getByRole("button", { name: "Deactivate" })).toBeVisible();

  // Delete with confirmation.
  await card.getByRole("button", { name: "Delete Front Desk" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete this assistant?" });
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toastWith(page, "Voice assistant deleted successfully")).toBeVisible();
  await expect(page.getByTestId("assistant-card")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "No Voice Assistants" })).toBeVisible();

  // The spec's one-click create with fixed defaults.
  await page.getByTestId("assistant-quick-create").click();
  const quick = page.getByTestId("assistant-card");
  await expect(quick).toHaveCount(1);
  await expect(quick.getByTestId("assistant-name-text")).toHaveText("Voice Assistant 1");
  await expect(quick.getByTestId("assistant-personality-text")).toHaveText("Friendly");
  await expect(quick.getByTestId("assistant-voice-text")).toHaveText("Alloy");
  await expect(quick.getByTestId("assistant-status")).toHaveText("Active");
});

test("call history (demo account): newest first, filters, a call's detail, load more", async ({ page }) => {
  await signInAsDemo(page);
  await page.goto("/call-history");
  await expect(page.getByRole("heading", { name: "Call History", level: 1 })).toBeVisible();
  const rows = page.getByTestId("history-row");
  await expect(rows.first()).toBeVisible();
  await expect(rows).toHaveCount(25);
  const newest = (await rows.first().textContent()) ?? "";
  await shoot(page, "call-history");

  // Newest first: the "When" column never goes forward in time.
  const times = (await rows.locator("td:first-child").allTextContents()).map((t) => Date.parse(t.replace(/\u202f/g, " ")));
  expect(times.every((t) => !Number.isNaN(t))).toBe(true);
  for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);

  // Load more appends the next page.
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows).toHaveCount(50);
  const more = (await rows.locator("td:first-child").allTextContents()).map((t) => Date.parse(t.replace(/\u202f/g, " ")));
  expect(more[25]).toBeLessThanOrEqual(more[24]);

  // Direction narrows the list to outbound rows only.
  await page.getByLabel("Direction").selectOption("outbound");
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasText: "Inbound" })).toHaveCount(0);
  expect(await rows.filter({ hasText: "Outbound" }).count()).toBeGreaterThan(0);

  // Type narrows to texts only.
  await page.getByLabel("Direction").selectOption("");
  await page.getByLabel("Type").selectOption("message");
  await expect(rows.first()).toHaveAttribute("data-kind", "message");
  const kinds = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-kind")));
  expect(kinds.length).toBeGreaterThan(0);
  expect(new Set(kinds)).toEqual(new Set(["message"]));

  // A completed call (not spam, so a real conversation) opens with its summary and transcript.
  await page.getByLabel("Type").selectOption("call");
  await page.getByLabel("Status").selectOption("completed");
  await page.getByLabel("Spam").selectOption("false");
  await expect(rows.first()).toHaveAttribute("data-kind", "call");
  await expect(rows.filter({ hasNotText: "Completed" })).toHaveCount(0);
  await expect(rows.getByText("Spam", { exact: true })).toHaveCount(0);
  await rows.first().click();
  const detail = page.getByTestId("history-detail");
  await expect(detail.getByRole("heading", { name: /^Call (from|to) / })).toBeVisible();
  await expect(detail.getByTestId("call-detail-summary")).not.toBeEmpty();
  const transcript = detail.getByTestId("call-detail-transcript");
  await expect(transcript).toBeVisible();
  expect(await transcript.locator("li").count()).toBeGreaterThan(1);
  await expect(transcript.locator('[data-speaker="caller"]').first()).toBeVisible();
  await expect(transcript.locator('[data-speaker="assistant"]').first()).toBeVisible();
  await shoot(page, "call-history-detail");
  await page.keyboard.press("Escape");
  await expect(detail).toBeHidden();

  // Reset brings back the unfiltered list (with the page already loaded), newest first again.
  await page.getByRole("button", { name: "Reset" }).click();
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toHaveText(newest);
});

test("settings: profile, password, notifications and API keys are saved", async ({ page }) => {
  const { email } = await signUp(page, "Sara");
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

  // Profile: change the last name; it survives a reload.
  const lastName = page.getByLabel("Last name");
  await expect(lastName).toHaveValue("Hart");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await lastName.fill("Stone");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(toastWith(page, "Profile updated")).toBeVisible();
  await shoot(page, "settings-profile");
  await page.reload();
  await expect(page.getByLabel("Last name")).toHaveValue("Stone");
  await expect(page.getByLabel("First name")).toHaveValue("Sara");

  // Security: change the password; the new one signs in.
  await page.getByRole("tab", { name: "Security" }).click();
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password", { exact: true }).fill("newsecret456");
  await page.getByLabel("Confirm new password").fill("newsecret456");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(toastWith(page, "Password updated")).toBeVisible();
  const login = await page.request.post("/api/auth/login", { data: { email, password: "newsecret456" } });
  expect(login.status()).toBe(200);

  // Notifications: the spec's defaults; a flipped switch persists across a reload.
  await page.getByRole("tab", { name: "Notifications" }).click();
  const emailSwitch = page.getByRole("switch", { name: "Email Notifications" });
  await expect(emailSwitch).toHaveAttribute("aria-checked", "false");
  await expect(page.getByRole("switch", { name: "Call Alerts" })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByRole("switch", { name: "System Updates" })).toHaveAttribute("aria-checked", "true");
  await emailSwitch.click();
  await expect(toastWith(page, "Notification preferences saved")).toBeVisible();
  await expect(emailSwitch).toHaveAttribute("aria-checked", "true");
  await shoot(page, "settings-notifications");
  await page.reload();
  await page.getByRole("tab", { name: "Notifications" }).click();
  await expect(page.getByRole("switch", { name: "Email Notifications" })).toHaveAttribute("aria-checked", "true");

  // API keys: the key is saved, shown only by its last four characters, and can be removed.
  const key = "sk-ant-test-123456789";
  await page.getByRole("tab", { name: "API Keys" }).click();
  const anthropic = page.getByTestId("api-key-anthropic");
  await expect(anthropic.getByTestId("api-key-anthropic-status")).toHaveText("Not set");
  await anthropic.getByLabel("Anthropic API key").fill(key);
  await page.getByRole("button", { name: "Save API Keys" }).click();
  await expect(toastWith(page, "API keys saved")).toBeVisible();
  await expect(anthropic.getByTestId("api-key-anthropic-status")).toHaveText("Set, ending in …6789");
  await expect(anthropic.getByTestId("api-key-anthropic-source")).toHaveText("In use: your key");
  await expect(anthropic.getByLabel("Anthropic API key")).toHaveCount(0);
  await shoot(page, "settings-api-keys");
  expect(await page.content()).not.toContain(key);
  await page.reload();
  await page.getByRole("tab", { name: "API Keys" }).click();
  await expect(anthropic.getByTestId("api-key-anthropic-status")).toHaveText("Set, ending in …6789");
  expect(await page.content()).not.toContain(key);

  await anthropic.getByRole("button", { name: "Remove" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Remove the Anthropic key?" });
  await confirm.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(toastWith(page, "Anthropic key removed")).toBeVisible();
  await expect(anthropic.getByTestId("api-key-anthropic-status")).toHaveText("Not set");
  await expect(anthropic.getByLabel("Anthropic API key")).toBeVisible();
});

test("integrations: the catalogue for visitors, chips filter, cards waiting for their OAuth client, connect and disconnect Slack", async ({ page }) => {
  await page.goto("/integrations");
  await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
  const all = page.getByRole("region", { name: "All Integrations" });
  for (const name of ["Slack", "Notion", "HubSpot", "Google Calendar", "Zapier", "Airtable", "Gmail", "Asana"]) {
    await expect(all.getByRole("heading", { name, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Try for Free" })).toHaveAttribute("href", "/api/login");
  await expect(page.getByTestId("testimonial")).toHaveCount(3);
  await shoot(page, "integrations-signed-out");

  await page.getByRole("button", { name: "CRM", exact: true }).click();
  await expect(page.getByRole("button", { name: "CRM", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(all.getByRole("heading", { level: 3 })).toHaveText(["HubSpot"]);
  await page.getByRole("button", { name: "Project Management", exact: true }).click();
  await expect(all.getByRole("heading", { level: 3 })).toHaveText(["Asana"]);
  await page.getByRole("button", { name: "All", exact: true }).click();
  await expect(all.getByRole("heading", { name: "Slack", exact: true })).toBeVisible();
  await page.getByLabel("Search integrations").fill("calendar");
  await expect(all.getByRole("heading", { level: 3 })).toHaveText(["Google Calendar"]);

  // Signed in: OAuth cards without their client on this server say they wait for the administrator
  // and offer no Connect; Slack's incoming webhook connects and disconnects.
  await signUp(page, "Nina");
  await page.goto("/integrations");
  const region = page.getByRole("region", { name: "All Integrations" });
  const notion = region.getByTestId("integration-notion");
  await expect(notion.getByTestId("integration-notion-unavailable")).toContainText("Available when your administrator configures it");
  await expect(notion.getByRole("button", { name: "Connect" })).toHaveCount(0);
  await expect(notion).toHaveAttribute("data-connected", "false");
  const hubspot = region.getByTestId("integration-hubspot");
  await expect(hubspot.getByTestId("integration-hubspot-unavailable")).toContainText("Available when your administrator configures it");
  await expect(hubspot.getByRole("button", { name: "Connect" })).toHaveCount(0);

  const slack = region.getByTestId("integration-slack");
  await slack.getByRole("button", { name: "Connect" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect Slack" });
  await dialog.getByLabel("Slack incoming-webhook URL").fill("https://hooks.slack.com/services/T000/B000/e2eabcdefghijklmnop");
  await dialog.getByRole("button", { name: "Connect webhook", exact: true }).click();
  await expect(toastWith(page, "Integration connected", "Slack is connected.")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(slack.getByText("Connected", { exact: true })).toBeVisible();
  await expect(slack).toHaveAttribute("data-connected", "true");
  await shoot(page, "integrations-connected");
  await page.reload();
  await expect(slack).toHaveAttribute("data-connected", "true");

  await slack.getByRole("button", { name: "Disconnect" }).click();
  await page.getByRole("alertdialog", { name: "Disconnect Slack?" }).getByRole("button", { name: "Disconnect" }).click();
  await expect(toastWith(page, "Integration disconnected", "Slack is disconnected.")).toBeVisible();
  await expect(slack).toHaveAttribute("data-connected", "false");
  await expect(slack.getByRole("button", { name: "Connect" })).toBeVisible();
});

test("dashboard figures follow the data: the starter assistant counts, an inactive one does not", async ({ page }) => {
  await signUp(page, "Dana");
  await page.goto("/dashboard");
  await expect(page.getByTestId("dashboard-welcome")).toHaveText("Welcome, Dana!");
  await expect(page.getByTestId("stat-active-assistants-value")).toHaveText("1");
  await expect(page.getByTestId("stat-total-calls-value")).toHaveText("0");
  await shoot(page, "dashboard-new-user");

  // An inactive assistant no longer counts.
  await page.getByRole("link", { name: "Create Assistant" }).first().click();
  await page.waitForURL("**/voice-assistants");
  await page.getByTestId("assistant-card").getByRole("button", { name: "Deactivate" }).click();
  await expect(toastWith(page, "Voice assistant updated successfully")).toBeVisible();
  await page.getByRole("link", { name: "Dashboard" }).first().click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByTestId("stat-active-assistants-value")).toHaveText("0");

  await page.goto("/voice-assistants");
  await page.getByTestId("assistant-card").getByRole("button", { name: "Activate" }).click();
  await expect(toastWith(page, "Voice assistant updated successfully")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByTestId("stat-active-assistants-value")).toHaveText("1");
});
