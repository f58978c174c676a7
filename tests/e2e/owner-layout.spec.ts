import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { demoMasterAccount } from "../../lib/consoles/demo-accounts";
import { noSideScroll, ownerSession, signInThroughApi } from "./owner-helpers";

/**
 * Issue 30, layout: at 1280×800 the header's entries stay on one line (the rest under a keyboard-
 * usable "More" menu) and no toast covers them; at 390×844 the phone menu still works and the MCP
 * and A2A consoles' tables stack into cards. Screenshots land in test-results/owner-layout/ to look at.
 */
const SHOTS = "test-results/owner-layout";
const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: name.endsWith("-full") });
}

async function signInAsMaster(page: Page) {
  return { authorization: `Bearer ${await signInThroughApi(page, demoMasterAccount)}` };
}

test("at 1280×800 no header entry wraps, and More opens, moves and closes with the keyboard", async ({ page }) => {
  await page.setViewportSize(desktop);
  await ownerSession(page);
  await page.goto("/dashboard");
  await expect(page.getByTestId("stat-total-calls-value")).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" }).first();
  const items = nav.locator(":scope > ul > li > a, :scope > button");
  await expect(items).toHaveCount(5); // four primary entries and More

  // One line each: every entry as tall as "Dashboard" (one word cannot wrap), all on one row.
  const boxes = await items.evaluateAll((els) => els.map((el) => ({ text: el.textContent, ...el.getBoundingClientRect().toJSON() }) as { text: string; height: number; top: number }));
  for (const box of boxes) {
    expect(Math.abs(box.height - boxes[0].height), `"${box.text}" wraps (${box.height} px high, "Dashboard" ${boxes[0].height} px)`).toBeLessThanOrEqual(1);
    expect(Math.abs(box.top - boxes[0].top), `"${box.text}" is on another row`).toBeLessThanOrEqual(1);
  }
  await shot(page, "header-1280");
  await shot(page, "dashboard-1280-full");

  // The keyboard alone: focus More, Enter opens it, arrows move, Escape closes it and focus returns.
  const more = page.getByTestId("nav-more");
  await expect(more).toHaveText(/More/);
  await expect(more).toHaveAttribute("aria-expanded", "false");
  await more.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByTestId("nav-more-menu");
  await expect(menu).toBeVisible();
  await expect(more).toHaveAttribute("aria-expanded", "true");
  for (const name of ["Integrations", "Settings", "Appointments", "Tasks", "Recaps", "Contacts", "Outbox"]) await expect(menu.getByRole("menuitem", { name })).toBeVisible();
  await shot(page, "header-more-1280");
  // Opened from the keyboard, the first entry has focus; Arrow Down moves to the next.
  await expect(menu.getByRole("menuitem", { name: "Integrations" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "Settings" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();
  await expect(more).toHaveAttribute("aria-expanded", "false");

  // Enter on an item goes there; the button then names the page open under it.
  await page.keyboard.press("ArrowDown");
  await expect(menu).toBeVisible();
  await menu.getByRole("menuitem", { name: "Tasks" }).focus();
  await page.keyboard.press("Enter");
  await page.waitForURL("**/tasks");
  await expect(more).toContainText("Tasks");
});

test("at 390×844 the phone menu lists every entry and takes you there", async ({ page }) => {
  await page.setViewportSize(phone);
  await ownerSession(page);
  await page.goto("/dashboard");
  await expect(page.getByTestId("stat-total-calls-value")).toBeVisible();
  await expect(page.getByTestId("nav-more")).toBeHidden();
  const toggle = page.getByTestId("header-menu-toggle");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const mobile = page.locator("#mobile-nav");
  for (const name of ["Dashboard", "Phone Numbers", "Voice Assistants", "Call History", "Integrations", "Settings", "Tasks", "Outbox", "Billing & Credits"]) {
    await expect(mobile.getByRole("link", { name, exact: true }).first()).toBeVisible();
  }
  await shot(page, "header-menu-390");
  await mobile.getByRole("link", { name: "Integrations", exact: true }).click();
  await page.waitForURL("**/integrations");
  await expect(mobile).toBeHidden();
  await noSideScroll(page, "/integrations");
  await page.goto("/dashboard");
  await expect(page.getByTestId("dashboard-figures")).toBeVisible();
  await noSideScroll(page, "/dashboard");
  await shot(page, "dashboard-390-full");
});

test("the MCP and A2A tables stack into cards at 390 px; at 1280 a toast stays clear of the header", async ({ page }) => {
  const auth = await signInAsMaster(page);
  const suffix = Date.now().toString(36);
  const agent = await page.request.post("/api/a2a/agents", { headers: auth, data: { name: `Layout agent ${suffix}`, capabilities: ["scheduling"] } });
  expect(agent.status()).toBeLessThan(300);
  // Nothing listens on port 9: the service is registered and shows as unhealthy in the monitor.
  const service = await page.request.post("/api/mcp/services/register", {
    headers: auth,
    data: { name: `Layout service ${suffix}`, version: "1.0.0", description: "A service for the layout test", endpoint: "http://127.0.0.1:9/mcp", methods: ["tools/list"] },
  });
  expect(service.status()).toBeLessThan(300);

  await page.setViewportSize(phone);
  await page.goto("/a2a");
  const agentRow = page.getByTestId("a2a-agent-row").filter({ hasText: `Layout agent ${suffix}` });
  await expect(agentRow).toBeVisible();
  await expectStacked(page, "a2a-agents-table", agentRow);
  await noSideScroll(page, "/a2a");
  await shot(page, "a2a-390-full");

  await page.goto("/mcp");
  await page.getByTestId("mcp-tab-health").click();
  const serviceRow = page.getByTestId("mcp-health-row").filter({ hasText: `Layout service ${suffix}` });
  await expect(serviceRow).toBeVisible();
  await expectStacked(page, "mcp-health-table", serviceRow);
  await noSideScroll(page, "/mcp");
  await shot(page, "mcp-390-full");

  // At 1280 the same tables are tables again.
  await page.setViewportSize(desktop);
  await expect(page.getByTestId("mcp-health-table").locator("thead")).toBeVisible();
  await shot(page, "mcp-1280");
  // A toast ("Service is unhealthy") appears below the header, never over its navigation.
  await serviceRow.getByRole("button", { name: "Check now" }).click();
  const toast = page.locator("[data-sonner-toast]").first();
  await expect(toast).toBeVisible();
  // Where it rests once its entrance (a short slide) is over.
  await expect(toast).toHaveAttribute("data-mounted", "true");
  await toast.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  const header = await page.locator("header[data-layout=header]").boundingBox();
  const toastBox = await toast.boundingBox();
  expect(toastBox!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
  await shot(page, "toast-1280");
  await page.goto("/a2a");
  await expect(page.getByTestId("a2a-agents-table").locator("thead")).toBeVisible();
  await shot(page, "a2a-1280");
});

/** A stacked table: its header row is for screen readers only, each row is a card, each cell names its column. */
async function expectStacked(page: Page, tableTestId: string, row: ReturnType<Page["getByTestId"]>) {
  const table = page.getByTestId(tableTestId);
  const headerBox = await table.locator("thead").boundingBox();
  expect(headerBox === null || headerBox.width <= 1 || headerBox.height <= 1).toBe(true);
  expect(await row.evaluate((el) => getComputedStyle(el).display)).toBe("block");
  const labels = await row.locator("td").evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, "::before").content));
  expect(labels.every((label) => label !== "none" && label.length > 2)).toBe(true);
  const rowBox = await row.boundingBox();
  expect(rowBox!.x + rowBox!.width).toBeLessThanOrEqual(phone.width);
}

test("the footer names a degraded part and links to the dashboard's System status, instead of 'All systems operational'", async ({ page }) => {
  await ownerSession(page);
  // The probes' answer as the server gives it when speech recognition is not installed (tests/integration/figures.test.ts).
  await page.route("**/api/status", (route) =>
    route.fulfill({
      json: {
        status: "degraded",
        checkedAt: new Date().toISOString(),
        headline: "Degraded: voicemail transcription not installed",
        problems: [{ component: "stt", name: "voicemail transcription", problem: "not installed", howTo: "Install PocketSphinx on the server." }],
        uptime: { percent: 100, runs: 3, upRuns: 3, windowDays: 30, since: new Date().toISOString() },
      },
    }),
  );
  await page.goto("/tasks");
  const status = page.getByTestId("system-status");
  await expect(status).toHaveText("Degraded: voicemail transcription not installed");
  await expect(status).toHaveAttribute("href", "/dashboard#system-status");
  await expect(page.getByText("All systems operational")).toHaveCount(0);
});
