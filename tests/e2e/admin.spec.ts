import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { demoAccount, demoAdminAccount, demoMasterAccount, demoOrganizationName } from "../../lib/consoles/demo-accounts";
import { keepSession, shoot, signInThroughApi, toastWith } from "./owner-helpers";

/**
 * The admin dashboard (core §2 "Admin dashboard", §6; advanced §4 badges, §8 admin toasts) on the
 * production build. The admin tests sign in as the seeded admin; the user they edit and delete is
 * registered fresh by each test, so the tests stay independent and leave the seed as it was (apart
 * from the +25 goodwill credits, which are recorded in the demo organization's ledger).
 */

const PASSWORD = "secret123";

function uniqueSuffix() {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

/**
 * Registers a new individual through the API; returns its e-mail and session. The session cookie
 * lands in `request`'s own jar: pass `page.request` to sign the page in, or the `request` fixture not to.
 */
async function register(request: APIRequestContext, firstName = "Robin") {
  const suffix = uniqueSuffix();
  const email = `${firstName.toLowerCase()}${suffix}@example.com`;
  const response = await request.post("/api/auth/register", {
    data: { email, password: PASSWORD, username: `${firstName.toLowerCase()}${suffix}`, firstName, lastName: "Hart" },
  });
  expect(response.status()).toBe(200);
  const { sessionId } = (await response.json()) as { sessionId: string };
  return { email, sessionId };
}

async function signInAsAdmin(page: Page) {
  return signInThroughApi(page, demoAdminAccount);
}

async function adminGet<T>(page: Page, sessionId: string, path: string): Promise<T> {
  const response = await page.request.get(path, { headers: { authorization: `Bearer ${sessionId}` } });
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}

const numberFormat = new Intl.NumberFormat("en-US");
const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });

type Stats = { totalUsers: number; totalOrganizations: number; activeCalls: number; monthlyRevenue: number };
type Org = { id: string; name: string; credits: number; members: number; calls: number };
type Analytics = { days: { day: string; calls: number; minutes: number }[]; totalCalls: number; totalMinutes: number };
type System = { database: string; providers: Record<string, string>; counts: Record<string, number> };

function userRow(page: Page, email: string) {
  return page.getByTestId("admin-user-row").filter({ hasText: email });
}

/** Opens every page of the users table (newest first, 25 a page). */
async function loadAllUsers(page: Page) {
  const more = page.getByRole("button", { name: "Load more" });
  for (let i = 0; i < 20 && (await more.isVisible()); i++) {
    await more.click();
    await expect(more).toBeEnabled();
  }
}

async function searchUsers(page: Page, term: string) {
  await page.getByRole("searchbox", { name: "Search users" }).fill(term);
}

test("admin: stat cards match the API, users are listed and searchable", async ({ page }) => {
  const sessionId = await signInAsAdmin(page);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();

  // The four cards carry the figures of GET /api/admin/stats.
  await expect(page.getByTestId("admin-stat-users-value")).toBeVisible();
  const stats = await adminGet<Stats>(page, sessionId, "/api/admin/stats");
  expect(stats.totalUsers).toBeGreaterThanOrEqual(3);
  expect(stats.totalOrganizations).toBeGreaterThanOrEqual(1);
  const expected: [string, string, string][] = [
    ["admin-stat-users", "Total Users", numberFormat.format(stats.totalUsers)],
    ["admin-stat-organizations", "Organizations", numberFormat.format(stats.totalOrganizations)],
    ["admin-stat-active-calls", "Active Calls", numberFormat.format(stats.activeCalls)],
    ["admin-stat-revenue", "Revenue", dollars.format(Math.floor(stats.monthlyRevenue))],
  ];
  for (const [testId, label, value] of expected) {
    await expect(page.getByTestId(testId)).toContainText(label);
    await expect(page.getByTestId(`${testId}-value`)).toHaveText(value);
  }

  // Users tab (the default): the seeded accounts with their roles and organization.
  await expect(page.getByRole("tab", { name: "Users" })).toHaveAttribute("aria-selected", "true");
  const table = page.getByTestId("admin-users-table");
  for (const header of ["Email", "Role", "Organization", "Status", "Actions"]) {
    await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
  }
  await expect(page.getByTestId("admin-user-row").first()).toBeVisible();
  await loadAllUsers(page);
  for (const [account, roleLabel] of [
    [demoAccount, "individual"],
    [demoAdminAccount, "admin"],
    [demoMasterAccount, "master admin"],
  ] as const) {
    const row = userRow(page, account.email);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`${account.firstName} ${account.lastName}`);
    await expect(row).toContainText(demoOrganizationName);
    await expect(row).toContainText(roleLabel);
    await expect(row).toContainText("active");
  }
  // The admin cannot delete their own account nor touch the master admin.
  await expect(userRow(page, demoAdminAccount.email).getByRole("button", { name: `Delete ${demoAdminAccount.email}` })).toBeDisabled();
  await expect(userRow(page, demoMasterAccount.email).getByRole("button", { name: `Edit ${demoMasterAccount.email}` })).toBeDisabled();
  await expect(userRow(page, demoMasterAccount.email).getByRole("button", { name: `Delete ${demoMasterAccount.email}` })).toBeDisabled();

  // Searching "demo" narrows the table to the demo user.
  await searchUsers(page, "demo");
  await expect(page.getByTestId("admin-user-row")).toHaveCount(1);
  await expect(page.getByTestId("admin-user-row")).toContainText(demoAccount.email);

  // A search nothing matches says so.
  await searchUsers(page, "no-such-user-anywhere");
  await expect(page.getByText("No users match.")).toBeVisible();
  await expect(page.getByTestId("admin-user-row")).toHaveCount(0);

  // The role filter narrows too.
  await searchUsers(page, "");
  await page.getByLabel("Filter by role").selectOption("master_admin");
  await expect(page.getByTestId("admin-user-row")).toHaveCount(1);
  await expect(page.getByTestId("admin-user-row")).toContainText(demoMasterAccount.email);
  await expect(page.getByTestId("admin-dashboard").getByRole("alert")).toHaveCount(0);
});

test("admin: adjust credits adds to the organization's balance", async ({ page }) => {
  const sessionId = await signInAsAdmin(page);
  const orgsBefore = await adminGet<Org[]>(page, sessionId, "/api/admin/organizations");
  const before = orgsBefore.find((o) => o.name === demoOrganizationName);
  expect(before).toBeDefined();

  await page.goto("/admin");
  await searchUsers(page, "demo");
  const row = page.getByTestId("admin-user-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`${numberFormat.format(before!.credits)} credits`);

  await row.getByRole("button", { name: `Adjust credits for ${demoAccount.email}` }).click();
  const dialog = page.getByRole("dialog", { name: "Adjust Credits" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`${demoOrganizationName} has ${numberFormat.format(before!.credits)} credits.`);

  // Validation: an empty reason is refused in the form.
  await dialog.getByLabel("Credits").fill("25");
  await dialog.getByRole("button", { name: "Adjust Credits" }).click();
  await expect(dialog.getByText("Reason must be at least 3 characters")).toBeVisible();

  await dialog.getByLabel("Reason").fill("goodwill");
  await dialog.getByRole("button", { name: "Adjust Credits" }).click();
  await expect(toastWith(page, "Credits Adjusted", `now ${numberFormat.format(before!.credits + 25)} credits`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText(`${numberFormat.format(before!.credits + 25)} credits`);

  const orgsAfter = await adminGet<Org[]>(page, sessionId, "/api/admin/organizations");
  expect(orgsAfter.find((o) => o.id === before!.id)?.credits).toBe(before!.credits + 25);
});

test("admin: edit a user's last name; deleting their business's only user is refused", async ({ page, request }) => {
  const sessionId = await signInAsAdmin(page);
  const { email } = await register(request, "Casey");
  const statsBefore = await adminGet<Stats>(page, sessionId, "/api/admin/stats");

  await page.goto("/admin");
  await searchUsers(page, email);
  const row = userRow(page, email);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Casey Hart");
  await expect(row).toContainText("individual");
  await expect(row).toContainText("free");

  // Taking more credits than the organization has is refused with the server's reason.
  await row.getByRole("button", { name: `Adjust credits for ${email}` }).click();
  const adjust = page.getByRole("dialog", { name: "Adjust Credits" });
  await adjust.getByLabel("Credits").fill("-100000");
  await adjust.getByLabel("Reason").fill("clawback");
  await adjust.getByRole("button", { name: "Adjust Credits" }).click();
  const adjustFailed = toastWith(page, "Adjustment Failed", "The balance cannot go below zero");
  await expect(adjustFailed).toBeVisible();
  await expect(adjustFailed).toHaveAttribute("data-type", "error");
  await expect(adjust).toBeVisible();
  await adjust.getByRole("button", { name: "Cancel" }).click();
  await expect(adjust).toBeHidden();

  // Edit → the dialog is filled with the user. Another account's e-mail is refused.
  await row.getByRole("button", { name: `Edit ${email}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit User" });
  await expect(edit.getByLabel("First Name")).toHaveValue("Casey");
  await expect(edit.getByLabel("Last Name")).toHaveValue("Hart");
  await expect(edit.getByLabel("Email")).toHaveValue(email);
  await edit.getByLabel("Email").fill(demoAccount.email);
  await edit.getByRole("button", { name: "Save Changes" }).click();
  const updateFailed = toastWith(page, "Update Failed", "An account with this email already exists");
  await expect(updateFailed).toBeVisible();
  await expect(updateFailed).toHaveAttribute("data-type", "error");
  await expect(edit).toBeVisible();

  // Change the last name (e-mail back as it was).
  await edit.getByLabel("Email").fill(email);
  await edit.getByLabel("Last Name").fill("Quinn");
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(toastWith(page, "User Updated", email)).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("Casey Quinn");

  // Delete asks first; Cancel keeps the user.
  await row.getByRole("button", { name: `Delete ${email}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete User" });
  await expect(confirm).toContainText("A business's only user cannot be deleted");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(1);

  // Casey is their business's only user: deleting them would take the business along, so it is refused.
  await row.getByRole("button", { name: `Delete ${email}` }).click();
  await confirm.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toastWith(page, "Delete Failed", "This is the business's only user")).toBeVisible();
  await expect(row).toHaveCount(1);

  // The stat cards are unchanged: nobody and no organization went.
  await expect(page.getByTestId("admin-stat-users-value")).toHaveText(numberFormat.format(statsBefore.totalUsers));
  await expect(page.getByTestId("admin-stat-organizations-value")).toHaveText(numberFormat.format(statsBefore.totalOrganizations));
});

test("admin: organizations, analytics and settings tabs show real data", async ({ page }) => {
  const sessionId = await signInAsAdmin(page);
  await page.goto("/admin");
  await expect(page.getByTestId("admin-user-row").first()).toBeVisible();
  await shoot(page, "admin-users-desktop");

  // Organizations: one card per organization, the demo one with its figures.
  const orgs = await adminGet<Org[]>(page, sessionId, "/api/admin/organizations");
  await page.getByRole("tab", { name: "Organizations" }).click();
  const cards = page.getByTestId("admin-organization-card");
  await expect(cards).toHaveCount(orgs.length);
  const demoOrg = orgs.find((o) => o.name === demoOrganizationName)!;
  const demoCard = cards.filter({ hasText: demoOrganizationName });
  await expect(demoCard).toContainText(`Members${numberFormat.format(demoOrg.members)}`);
  await expect(demoCard).toContainText(`Calls${numberFormat.format(demoOrg.calls)}`);
  await expect(demoCard).toContainText(`Credits${numberFormat.format(demoOrg.credits)}`);
  await expect(page.getByTestId("admin-dashboard").getByRole("alert")).toHaveCount(0);
  await shoot(page, "admin-organizations-desktop");

  // Analytics: 14 days of call volume and voice minutes, totals as the API says.
  const analytics = await adminGet<Analytics>(page, sessionId, "/api/admin/analytics");
  expect(analytics.days).toHaveLength(14);
  expect(analytics.totalCalls).toBeGreaterThan(0);
  await page.getByRole("tab", { name: "Analytics" }).click();
  const analyticsPanel = page.getByTestId("admin-analytics");
  await expect(analyticsPanel.getByText("Call Volume")).toBeVisible();
  await expect(analyticsPanel.getByText("Voice Minutes")).toBeVisible();
  await expect(analyticsPanel).toContainText(`${numberFormat.format(analytics.totalCalls)} calls in the last 14 days`);
  await expect(analyticsPanel).toContainText(`${numberFormat.format(analytics.totalMinutes)} minutes of calls in the last 14 days`);
  await expect(analyticsPanel.getByRole("listitem")).toHaveCount(28);
  await expect(page.getByTestId("admin-dashboard").getByRole("alert")).toHaveCount(0);
  await shoot(page, "admin-analytics-desktop");

  // Settings: the embedded database and the providers in effect.
  const system = await adminGet<System>(page, sessionId, "/api/admin/system-stats");
  expect(system.database).toBe("pglite");
  await page.getByRole("tab", { name: "Settings" }).click();
  const settings = page.getByTestId("admin-settings");
  await expect(settings.getByTestId("admin-database-driver")).toHaveText("PGlite (embedded)");
  await expect(settings).toContainText(new RegExp(`users${numberFormat.format(system.counts.users)}`, "i"));
  await expect(settings).toContainText(new RegExp(`calls${numberFormat.format(system.counts.calls)}`, "i"));
  for (const key of ["llm", "tts", "stt", "telephony", "payments"]) {
    await expect(settings.getByTestId(`admin-provider-${key}`)).toContainText(system.providers[key]);
  }
  await expect(page.getByTestId("admin-dashboard").getByRole("alert")).toHaveCount(0);
  await shoot(page, "admin-settings-desktop");

  // At phone width every tab still fits the screen (the table scrolls inside its own box).
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [tab, name] of [
    ["Users", "users"],
    ["Organizations", "organizations"],
    ["Analytics", "analytics"],
    ["Settings", "settings"],
  ] as const) {
    await page.getByRole("tab", { name: tab }).click();
    await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toBeVisible();
    if (tab === "Users") await expect(page.getByTestId("admin-user-row").first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${tab} tab overflows the 390 px screen by ${overflow} px`).toBeLessThanOrEqual(0);
    await shoot(page, `admin-${name}-mobile`);
  }
});

test("an individual on /admin is denied; the admin API refuses them", async ({ page }) => {
  const { sessionId } = await register(page.request, "Ivy");
  await keepSession(page, sessionId);
  await page.goto("/admin");
  await expect(page.getByText("Access Denied - Admin privileges required to access this area")).toBeVisible();
  await expect(page.getByTestId("admin-dashboard")).toHaveCount(0);
  await expect(page.getByText("Total Users")).toHaveCount(0);
  await shoot(page, "admin-access-denied");

  const response = await page.request.get("/api/admin/stats", { headers: { authorization: `Bearer ${sessionId}` } });
  expect(response.status()).toBe(403);
});

test("a signed-out visitor on /admin is told and sent to sign in; the admin signs in there", async ({ page }) => {
  await page.goto("/admin");
  await expect(toastWith(page, "Access Denied", "Admin access required")).toBeVisible();
  await page.waitForURL(/\/auth\?next=(%2F|\/)admin$/);
  await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
  await expect(page.getByText("Total Users")).toHaveCount(0);

  // Signing in there as the admin returns to the page that was asked for.
  await page.getByLabel("Email").fill(demoAdminAccount.email);
  await page.getByLabel("Password", { exact: true }).fill(demoAdminAccount.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL("**/admin");
  await expect(page.getByRole("heading", { name: "Admin Dashboard", level: 1 })).toBeVisible();
  await expect(userRow(page, demoAccount.email)).toBeVisible();
});
