import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { demoAccount, demoAdminAccount, demoMasterAccount } from "../../lib/consoles/demo-accounts";
import { signInThroughApi } from "./owner-helpers";

/**
 * /analytics, /master-admin and /crm-voice on the production build with the demo seed: tabs,
 * filters, dialogs that save, charts drawn from data, and CSV exports whose rows match the API.
 */

async function api<T>(page: Page, sessionId: string, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${sessionId}` } });
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}

const compact = (n: number) => (Math.abs(n) >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : Math.abs(n) >= 1_000 ? `${(n / 1_000).toFixed(1)}K` : String(n));

type AnalyticsBody = { overview: { totalCalls: number; successRate: number | null }; usage: { byDay: { day: string; calls: number; messages: number }[] } };

test("analytics: range, filters, charts, export and a saved report", async ({ page }) => {
  const sessionId = await signInThroughApi(page, demoAccount);
  await page.goto("/analytics");
  await expect(page.getByRole("heading", { name: "Analytics Dashboard" })).toBeVisible();
  await page.getByTestId("range-30d").click();
  const month = await api<AnalyticsBody>(page, sessionId, "/api/analytics?range=30d&scope=organization");
  await expect(page.getByTestId("card-calls-value")).toHaveText(compact(month.overview.totalCalls));
  if (month.overview.totalCalls > 0) await expect(page.getByTestId("chart-by-day").locator("svg.recharts-surface .recharts-bar-rectangle").first()).toBeVisible();

  await page.getByTestId("analytics-filters").click();
  await page.getByTestId("filter-direction").selectOption("inbound");
  const inbound = await api<AnalyticsBody>(page, sessionId, "/api/analytics?range=30d&scope=organization&direction=inbound");
  await expect(page.getByTestId("card-calls-value")).toHaveText(compact(inbound.overview.totalCalls));

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("analytics-export").click()]);
  const csv = await readFile((await download.path())!, "utf8");
  const lines = csv.trim().split("\r\n");
  expect(lines).toContain(`totalCalls,${inbound.overview.totalCalls}`);
  expect(lines.slice(lines.indexOf("day,calls,messages") + 1)).toEqual(inbound.usage.byDay.map((d) => `${d.day},${d.calls},${d.messages}`));

  await page.getByRole("tab", { name: "Performance" }).click();
  await expect(page.getByText("Error analysis")).toBeVisible();
  await page.getByRole("tab", { name: "Custom Reports" }).click();
  await page.getByTestId("create-report").click();
  const name = `Inbound month ${Date.now()}`;
  await page.getByTestId("report-name").fill(name);
  await page.getByTestId("save-report").click();
  const item = page.getByTestId("report-list").locator("li").filter({ hasText: name });
  await expect(item).toBeVisible();
  await item.getByTestId("run-report").click();
  await expect(page.getByTestId("report-result")).toContainText(name);
});

test("master admin: figures from the API, charts, settings, export and Edit User through the ledger", async ({ page }) => {
  const sessionId = await signInThroughApi(page, demoMasterAccount);
  const stats = await api<{ totalUsers: number; totalCalls: number }>(page, sessionId, "/api/admin/system-stats");
  await page.goto("/master-admin");
  await expect(page.getByRole("heading", { name: "Master Admin Dashboard" })).toBeVisible();
  await expect(page.getByTestId("master-calls-value")).toHaveText(compact(stats.totalCalls));

  await page.getByRole("tab", { name: "Analytics Engine" }).click();
  await expect(page.getByTestId("master-plan-chart").locator("svg.recharts-surface")).toBeVisible();
  await page.getByRole("tab", { name: "Organizations" }).click();
  await expect(page.getByTestId("master-uptime")).toBeVisible();

  await page.getByTestId("master-settings").click();
  await expect(page.getByTestId("master-settings-dialog")).toContainText("Job runner");
  await page.keyboard.press("Escape");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("master-export").click()]);
  const csv = await readFile((await download.path())!, "utf8");
  const now = await api<{ totalUsers: number }>(page, sessionId, "/api/admin/system-stats");
  expect(csv).toContain(`totalUsers,${now.totalUsers}\r\n`);

  // Edit a fresh user's credits: the change is saved as a ledger adjustment.
  const suffix = Date.now().toString(36);
  const email = `edit${suffix}@example.com`;
  expect((await page.request.post("/api/auth/register", { data: { email, password: "secret123", username: `edit${suffix}`, firstName: "Eddie", lastName: "Lane" } })).status()).toBe(200);
  await page.getByRole("tab", { name: "User Management" }).click();
  await page.getByTestId("admin-user-search").fill(email);
  await page.getByRole("button", { name: `Edit ${email}` }).click();
  await page.getByTestId("edit-credits").fill("250");
  await page.getByTestId("edit-credit-reason").fill("Welcome bonus");
  await page.getByTestId("edit-user-save").click();
  await expect(page.getByTestId("admin-edit-user-dialog")).toBeHidden();
  const users = await api<{ users: { email: string; credits: number }[] }>(page, sessionId, `/api/admin/users?search=${encodeURIComponent(email)}`);
  expect(users.users[0].credits).toBe(250);
});

test("CRM voice: probed status, a captured logistics request completed from the list", async ({ page }) => {
  await signInThroughApi(page, demoAdminAccount);
  await page.goto("/crm-voice");
  await expect(page.getByRole("heading", { name: "CRM Voice Management" })).toBeVisible();
  await expect(page.getByTestId("crm-status-crmDatabase")).toHaveText("Operational", { timeout: 30_000 });
  await page.getByTestId("crm-coordinate").click();
  await page.getByTestId("crm-test-content").fill("Please deliver 4 chairs to 9 Elm Street on Monday");
  await page.getByTestId("crm-test-run").click();
  await expect(page.getByTestId("crm-test-result")).toContainText("Captured a delivery request");
  await page.getByRole("button", { name: "Close" }).first().click();
  await page.getByRole("tab", { name: "Logistics" }).click();
  const request = page.getByTestId("crm-request").filter({ hasText: "4 chairs" }).first();
  await expect(request).toBeVisible();
  await request.getByTestId("crm-request-complete").click();
  await expect(request).toContainText("Completed");
});

test("an individual is refused the master admin screen and the platform analytics", async ({ page }) => {
  const suffix = Date.now().toString(36);
  const response = await page.request.post("/api/auth/register", { data: { email: `ind${suffix}@example.com`, password: "secret123", username: `ind${suffix}`, firstName: "Ira", lastName: "Dunn" } });
  const { sessionId } = (await response.json()) as { sessionId: string };
  expect((await page.request.get("/api/analytics?scope=platform", { headers: { authorization: `Bearer ${sessionId}` } })).status()).toBe(403);
  await page.addInitScript((id) => window.localStorage.setItem("sessionId", id), sessionId);
  await page.goto("/master-admin");
  await expect(page.getByTestId("access-denied")).toBeVisible();
});
