import { expect, test } from "@playwright/test";
import { demoAccount } from "../../lib/consoles/demo-accounts";

test("landing page shows its calls to action, claims and three steps", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Get Started Free" })).toHaveAttribute("href", "/signup");
  await expect(page.getByRole("link", { name: "Try for Free" }).first()).toHaveAttribute("href", "/api/login");
  await expect(page.getByRole("button", { name: "Watch Demo" })).toBeVisible();
  for (const claim of ["99.9%", "10k+", "1M+", "24/7"]) await expect(page.getByText(claim).first()).toBeVisible();
  await expect(page.getByText(`© ${new Date().getFullYear()} Switchboard`)).toBeVisible();
  // The footer tells the health lib/reports/figures computes: the spec's words only when every part answers.
  const status = page.getByTestId("system-status");
  await expect(status).not.toHaveAttribute("data-status", "loading");
  const health = (await (await page.request.get("/api/status")).json()) as { status: string };
  expect(health).not.toHaveProperty("problems"); // a stranger is not told what is installed
  if (health.status === "operational") await expect(status).toHaveText("All systems operational");
  else await expect(status).not.toHaveText("All systems operational");
});

test("an unknown path shows the 404 screen with status 404", async ({ page }) => {
  const response = await page.goto("/no-such-page-here");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("404 Page Not Found")).toBeVisible();
});

test("a signed-out visitor on /dashboard is told and sent to sign in", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page.getByText("You are logged out. Logging in again...")).toBeVisible();
  await page.waitForURL("**/auth");
  await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
});

test("signing in with the demo account shows its computed dashboard", async ({ page, request }) => {
  await page.goto("/auth");
  await expect(page.getByText(demoAccount.email)).toBeVisible();
  await page.getByLabel("Email").fill(demoAccount.email);
  await page.getByLabel("Password", { exact: true }).fill(demoAccount.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("You've been logged in successfully.")).toBeVisible();
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("heading", { name: new RegExp(`Welcome back, ${demoAccount.firstName}`) })).toBeVisible();

  // The figures on the cards are the API's figures, which the integration tests tie to the rows.
  const sessionId = await page.evaluate(() => localStorage.getItem("sessionId"));
  const stats = await (await request.get("/api/dashboard/stats", { headers: { authorization: `Bearer ${sessionId}` } })).json();
  expect(stats.totalCalls).toBeGreaterThan(0);
  const totalCalls = page.getByTestId("stat-total-calls");
  await expect(totalCalls).toContainText(String(stats.totalCalls));
  await expect(page.getByTestId("stat-avg-response-time")).toContainText(stats.avgResponseTime);

  // A signed-in visitor on /auth goes to the dashboard.
  await page.goto("/auth");
  await page.waitForURL("**/dashboard");
});

test("a wrong password shows the failure toast", async ({ page }) => {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(demoAccount.email);
  await page.getByLabel("Password", { exact: true }).fill("not-the-password");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Login failed")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test("sign up, sign out, and the session is gone", async ({ page }) => {
  const suffix = Date.now().toString(36);
  await page.goto("/auth?tab=signup");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByLabel("First name").fill("Robin");
  await page.getByLabel("Last name").fill("Hart");
  await page.getByLabel("Username").fill(`robin${suffix}`);
  await page.getByLabel("Email").fill(`robin${suffix}@example.com`);
  await page.getByLabel("Password", { exact: true }).fill("secret123");
  await page.getByLabel("Confirm password").fill("secret123");
  await page.getByRole("button", { name: "Create Account", exact: true }).click();
  await expect(page.getByText("You've been registered and logged in successfully.")).toBeVisible();
  await page.waitForURL("**/dashboard");
  // A brand-new owner is greeted, not welcomed back (once the setup checklist has loaded).
  await expect(page.getByTestId("dashboard-welcome")).toHaveText("Welcome, Robin!");
  await expect(page.getByTestId("stat-total-calls")).toContainText("0");

  const sessionId = await page.evaluate(() => localStorage.getItem("sessionId"));
  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByRole("link", { name: "Get Started Free" })).toBeVisible();
  const me = await page.request.get("/api/auth/me", { headers: { authorization: `Bearer ${sessionId}` } });
  expect(me.status()).toBe(401);
});
