import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { demoAccount } from "../../lib/consoles/demo-accounts";

/**
 * What a new owner stumbles on: deep links, the avatar menu, the setup checklist, confirmations
 * before money moves, error texts with their actions, phone layouts and an automated accessibility
 * check (axe-core) over every screen, signed in and out.
 */
const signedOutPages = ["/", "/auth", "/signup", "/privacy", "/terms", "/mobile-preview", "/integrations"];
const signedInPages = [
  "/dashboard",
  "/phone-numbers",
  "/voice-assistants",
  "/call-history",
  "/settings",
  "/settings/business",
  "/billing",
  "/voice-test",
  "/appointments",
];

async function registerOwner(page: Page, firstName = "Rosa") {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const res = await page.request.post("/api/auth/register", {
    data: { email: `rosa${suffix}@example.com`, username: `rosa${suffix}`, password: "bakery1234", firstName, lastName: "Baker" },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()) as { sessionId: string; organizationId: string };
}

async function signInDemo(page: Page) {
  await page.getByTestId("login-email").fill(demoAccount.email);
  await page.getByTestId("login-password").fill(demoAccount.password);
  await page.getByTestId("login-submit").click();
}

async function noSideScroll(page: Page, path: string) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(widths.scroll, `${path} scrolls sideways (${widths.scroll} > ${widths.client})`).toBeLessThanOrEqual(widths.client);
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0]?.target.join(" ")}`);
}

test("a signed-out visit to /call-history returns there after sign-in; off-site next= is ignored", async ({ page }) => {
  await page.goto("/call-history?type=call");
  await page.waitForURL(/\/auth\?next=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await signInDemo(page);
  await page.waitForURL("**/call-history?type=call");

  // Signed out again: the session is held as a cookie and, for bearer calls, in the page's storage.
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await page.goto("/auth?next=%2F%2Fevil.example%2F");
  await signInDemo(page);
  await page.waitForURL("**/dashboard");
});

test("the avatar menu reaches Billing, Voice Test, Settings and the admin areas by role", async ({ page }) => {
  await page.goto("/auth");
  await page.getByTestId("login-email").fill("master@switchboard.dev");
  await page.getByTestId("login-password").fill("master1234");
  await page.getByTestId("login-submit").click();
  await page.waitForURL("**/dashboard");
  const avatar = page.getByTestId("header-user");
  await avatar.click();
  const menu = page.getByTestId("account-menu");
  for (const name of ["Billing & Credits", "Voice Test", "Settings", "Admin", "Master Admin", "Sign Out"]) {
    await expect(menu.getByRole("menuitem", { name, exact: true })).toBeVisible();
  }
  await menu.getByRole("menuitem", { name: "Billing & Credits" }).click();
  await page.waitForURL("**/billing");

  // An owner sees no admin entries (signed out first: the cookie and the stored bearer session both go).
  await page.evaluate(() => window.localStorage.clear());
  await page.context().clearCookies();
  await registerOwner(page);
  await page.goto("/dashboard");
  await page.getByTestId("header-user").click();
  await expect(page.getByTestId("account-menu").getByRole("menuitem", { name: "Admin", exact: true })).toHaveCount(0);
  await expect(page.getByTestId("account-menu").getByRole("menuitem", { name: "Billing & Credits" })).toBeVisible();
});

test("a new owner is welcomed with a setup checklist computed from data, which can be dismissed", async ({ page }) => {
  await registerOwner(page);
  await page.goto("/dashboard");
  await expect(page.getByTestId("dashboard-welcome")).toHaveText("Welcome, Rosa!");
  const checklist = page.getByTestId("setup-checklist");
  await expect(checklist).toBeVisible();
  await expect(page.getByTestId("setup-checklist-progress")).toHaveText("0 of 4 done");
  await expect(checklist.getByRole("link", { name: "Get a phone number" })).toHaveAttribute("href", "/phone-numbers");
  await expect(page.getByTestId("dashboard-credit-balance")).toContainText("100");
  await page.getByTestId("setup-checklist-dismiss").click();
  await expect(checklist).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("dashboard")).toBeVisible();
  await expect(page.getByTestId("setup-checklist")).toHaveCount(0);
});

test("money moves only after a confirmation with the amount, what changes and the renewal", async ({ page }) => {
  await registerOwner(page);
  await page.goto("/billing");
  await page.getByRole("tab", { name: "Purchase Credits" }).click();
  const buy = page.getByRole("button", { name: "Buy 500 credits for $15" });
  await buy.click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Buy 550 credits for $15?");
  await expect(dialog).toContainText("does not renew");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(buy).toBeFocused();
  await expect(page.getByText("Credits Purchased")).toHaveCount(0);

  await page.getByRole("tab", { name: "Subscription Plans" }).click();
  await page.getByRole("button", { name: "Upgrade: Pro" }).click();
  await expect(dialog).toContainText("$49/month");
  await expect(dialog).toContainText("renews every month");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("billing-plan-name")).toHaveText("Free Plan");
});

test("Complete payment confirms the amount, what changes and the renewal before any money moves", async ({ page }) => {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const res = await page.request.post("/api/auth/signup", {
    data: {
      firstName: "Rosa",
      lastName: "Baker",
      email: `rosapro${suffix}@example.com`,
      username: `rosapro${suffix}`,
      password: "bakery1234",
      confirmPassword: "bakery1234",
      subscriptionTier: "pro",
      role: "business",
      organizationName: "Rosa's Bakery",
      agreeToTerms: true,
    },
  });
  expect(res.ok()).toBe(true);
  await page.goto("/billing");
  await expect(page.getByText("Trialing — payment needed")).toBeVisible();
  const complete = page.getByTestId("billing-complete-payment");
  await complete.click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Complete payment: Pro for $49/month?");
  await expect(dialog).toContainText("What changes: 5 phone numbers, 10 voice assistants");
  await expect(dialog).toContainText(/renews every month at \$49, next on \w+ \d{1,2}, \d{4}/);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(complete).toBeFocused();
  await expect(page.getByText("Trialing — payment needed")).toBeVisible();
  await expect(page.getByText("Plan Updated")).toHaveCount(0);

  // The plans tab's own Complete payment asks the same.
  await page.getByRole("tab", { name: "Subscription Plans" }).click();
  await page.getByRole("button", { name: "Complete payment: Pro" }).click();
  await expect(dialog).toContainText("Complete payment: Pro for $49/month?");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await complete.click();
  await dialog.getByRole("button", { name: "Pay $49 and activate" }).click();
  await expect(page.getByText("Plan Updated")).toBeVisible();
  await expect(page.getByTestId("billing-subscription").getByText("Active", { exact: true })).toBeVisible();
});

test("a failed voice test says why and where to go", async ({ page }) => {
  await registerOwner(page);
  const list = await page.request.get("/api/voice-assistants");
  for (const assistant of (await list.json()) as { id: string }[]) {
    expect((await page.request.delete(`/api/voice-assistants/${assistant.id}`)).ok()).toBe(true);
  }
  await page.goto("/voice-test");
  await page.getByTestId("voice-test-input").fill("Are you open on Sunday?");
  await page.getByTestId("voice-test-submit").click();
  const error = page.getByTestId("voice-test-error");
  await expect(error).toContainText(/Test failed: 4\d\d/);
  await expect(page.getByTestId("voice-test-error-reason")).not.toBeEmpty();
  await expect(page.getByTestId("voice-test-error-action")).toHaveAttribute("href", "/voice-assistants");
  await expect(page.getByTestId("voice-test-quick-phrases").getByRole("button")).toHaveCount(5);
  await expect(page.getByTestId("voice-test-quick-phrases")).not.toContainText("cleaning");
});

test("at the Free plan's assistant limit, Create Assistant and Quick create offer to edit the existing one and name the upgrade", async ({ page }) => {
  await registerOwner(page);
  await page.goto("/voice-assistants");
  await expect(page.getByTestId("assistant-card")).toHaveCount(1);
  await expect(page.getByTestId("assistant-limit-note")).toHaveText("1 of 1 on the Free plan");
  const create = page.getByTestId("assistant-create");
  await create.click();
  const limit = page.getByRole("dialog", { name: "Your Free plan allows 1 voice assistant" });
  await expect(limit).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Create Assistant" })).toHaveCount(0);
  await expect(limit.getByTestId("assistant-limit-upgrade-text")).toContainText("upgrade to Pro (10 voice assistants) in Billing");
  await expect(limit.getByRole("link", { name: "Upgrade to Pro" })).toHaveAttribute("href", "/billing");
  await limit.getByRole("button", { name: "Edit Front Desk" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Assistant" });
  await expect(edit).toBeVisible();
  await expect(edit.getByLabel("Name")).toHaveValue("Front Desk");
  await edit.getByRole("button", { name: "Cancel" }).click();

  // Quick create never posts a create that would fail: it opens the same choice.
  let posted = false;
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith("/api/voice-assistants")) posted = true;
  });
  await page.getByTestId("assistant-quick-create").click();
  await expect(limit).toBeVisible();
  await limit.getByRole("link", { name: "Upgrade to Pro" }).click();
  await page.waitForURL("**/billing");
  expect(posted).toBe(false);
  await expect(page.getByText("Failed to create voice assistant")).toHaveCount(0);
});

test("every control on the master admin dashboard leads to a real screen or says where it leads", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/auth");
  await page.getByTestId("login-email").fill("master@switchboard.dev");
  await page.getByTestId("login-password").fill("master1234");
  await page.getByTestId("login-submit").click();
  await page.waitForURL("**/dashboard");
  await page.goto("/master-admin");
  const tools = page.getByTestId("master-tools").getByRole("link");
  // evaluateAll does not wait: the screen renders after the client's session check.
  await expect(tools).toHaveCount(5);
  const hrefs = await tools.evaluateAll((links) => links.map((a) => a.getAttribute("href")));
  expect(hrefs).toEqual(["/admin", "/analytics", "/mcp", "/a2a", "/crm-voice"]);
  const headings = ["Admin Dashboard", "Analytics Dashboard", "MCP Management", "A2A Management", "CRM Voice Management"];
  for (const [i, href] of hrefs.entries()) {
    await page.goto("/master-admin");
    await page.getByTestId("master-tools").locator(`a[href="${href}"]`).click();
    await page.waitForURL(`**${href}`);
    await expect(page.getByRole("heading", { level: 1, name: headings[i] })).toBeVisible();
    await expect(page.getByTestId("access-denied")).toHaveCount(0);
  }
  await page.goto("/master-admin");
  await expect(page.getByTestId("master-export")).toHaveAttribute("title", /CSV/);
  await page.getByTestId("master-settings").click();
  const settings = page.getByTestId("master-settings-dialog");
  await expect(settings.getByRole("link", { name: "Settings → API Keys" })).toHaveAttribute("href", "/settings");
  await expect(settings.getByRole("link", { name: "Admin Dashboard" })).toHaveAttribute("href", "/admin");
  await page.keyboard.press("Escape");
  await page.getByRole("tab", { name: "Analytics Engine" }).click();
  await expect(page.getByTestId("master-analytics-link")).toHaveAttribute("href", "/analytics");
  // No link on the page goes nowhere.
  const dead = await page.locator("main a").evaluateAll((links) => links.filter((a) => !a.getAttribute("href") || a.getAttribute("href") === "#").length);
  expect(dead).toBe(0);
});

test("the mobile preview hydrates without a mismatch (React #418), signed out and in", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const hydrationErrors = () => errors.filter((text) => /#418|#423|#425|hydrat/i.test(text));
  for (const signedIn of [false, true]) {
    if (signedIn) await registerOwner(page);
    await page.goto("/mobile-preview");
    await page.waitForLoadState("networkidle");
    // The greeting's time is drawn once the page has hydrated (the server's clock is not the visitor's).
    await expect(page.getByTestId("chat-ai-message").first().getByTestId("chat-timestamp")).toHaveText(/\d{1,2}:\d{2}/);
    expect(hydrationErrors(), hydrationErrors().join("\n")).toEqual([]);
  }
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`no page scrolls sideways at ${viewport.width}px, signed out and in`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    for (const path of signedOutPages) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await noSideScroll(page, path);
    }
    await registerOwner(page);
    for (const path of signedInPages) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await noSideScroll(page, path);
    }
    if (viewport.width === 390) {
      await page.goto("/call-history");
      await expect(page.getByTestId("history-filters-toggle")).toBeVisible();
    }
  });
}

test("axe-core: no serious or critical violations on any screen, signed out and in", async ({ page }) => {
  test.setTimeout(240_000);
  const found: string[] = [];
  for (const path of signedOutPages) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    for (const v of await seriousViolations(page)) found.push(`${path} ${v}`);
  }
  await page.goto("/auth");
  await signInDemo(page);
  await page.waitForURL("**/dashboard");
  for (const path of signedInPages) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    for (const v of await seriousViolations(page)) found.push(`${path} ${v}`);
  }
  expect(found, found.join("\n")).toEqual([]);
});
