import { expect, test, type Page } from "@playwright/test";
import { demoAccount } from "../../lib/consoles/demo-accounts";
import { toastWith } from "./owner-helpers";

/**
 * Issue 30 point 5: signed-in pages render on the server with their data. A signed-out visitor is
 * sent to sign in by the server before anything renders, a signed-in visitor's first HTML already
 * holds the page's figures, and moving between signed-in pages never shows the full-screen spinner.
 */
const SPINNER = "Loading Switchboard...";

async function signInDemo(page: Page) {
  const response = await page.request.post("/api/auth/login", { data: { email: demoAccount.email, password: demoAccount.password } });
  expect(response.status()).toBe(200);
}

test("a signed-out visitor of a signed-in page is redirected by the server, before any page renders", async ({ page, request }) => {
  // A plain HTTP GET: the answer is the redirect itself, no HTML of the signed-in shell.
  const plain = await request.get("/call-history?range=7d", { maxRedirects: 0 });
  expect(plain.status()).toBe(307);
  // Next may send a same-origin Location as a path: resolve it against the address asked.
  const location = new URL(plain.headers()["location"], plain.url());
  expect(location.pathname).toBe("/auth");
  expect(location.searchParams.get("next")).toBe("/call-history?range=7d");
  expect(await plain.text()).not.toContain(SPINNER);

  const dashboard = await request.get("/dashboard", { maxRedirects: 0 });
  expect(dashboard.status()).toBe(307);
  expect(new URL(dashboard.headers()["location"], dashboard.url()).pathname).toBe("/auth");

  // In the browser: the only document served for /call-history is the redirect; /auth opens and
  // still says why.
  const documents: { url: string; status: number }[] = [];
  page.on("response", (r) => {
    if (r.request().resourceType() === "document") documents.push({ url: new URL(r.url()).pathname, status: r.status() });
  });
  await page.goto("/call-history");
  await page.waitForURL(/\/auth\?next=(%2F|\/)call-history$/);
  expect(documents.filter((d) => d.url === "/call-history").map((d) => d.status)).toEqual([307]);
  await expect(toastWith(page, "Unauthorized")).toContainText("You are logged out. Logging in again...");
  await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
  await expect(page.getByText(SPINNER)).toHaveCount(0);
});

test("the first HTML of the dashboard holds the signed-in owner's figures, not a spinner", async ({ page }) => {
  await signInDemo(page);
  const stats = (await (await page.request.get("/api/dashboard/stats")).json()) as { totalCalls: number; totalMessages: number; activeAssistants: number };
  expect(stats.totalCalls).toBeGreaterThan(0);

  // No JavaScript runs: this is the server's HTML as the browser first receives it.
  const response = await page.request.get("/dashboard");
  expect(response.status()).toBe(200);
  // React separates adjacent text with <!-- --> in server HTML.
  const html = (await response.text()).replaceAll("<!-- -->", "");
  expect(html).not.toContain(SPINNER);
  expect(html).toContain(`Welcome back, ${demoAccount.firstName}!`);
  const value = (testId: string) => new RegExp(`data-testid="${testId}-value"[^>]*>([^<]*)<`).exec(html)?.[1];
  const format = (n: number) => new Intl.NumberFormat("en-US").format(n);
  expect(value("stat-total-calls")).toBe(format(stats.totalCalls));
  expect(value("stat-messages-processed")).toBe(format(stats.totalMessages));
  expect(value("stat-active-assistants")).toBe(format(stats.activeAssistants));
});

test("other signed-in pages' first HTML holds their data too", async ({ page }) => {
  await signInDemo(page);
  const history = (await (await page.request.get("/api/call-history?limit=25")).json()) as { items: { id: string }[] };
  expect(history.items.length).toBeGreaterThan(0);
  const pages: [string, RegExp][] = [
    ["/call-history", /data-testid="history-row"/],
    ["/settings/business", /data-testid="business-profile-form"/],
    ["/analytics", /data-testid="system-status-banner"/],
  ];
  for (const [path, marker] of pages) {
    const html = await (await page.request.get(path)).text();
    expect(html, path).not.toContain(SPINNER);
    expect(html, path).toMatch(marker);
  }
});

test("moving between signed-in pages never shows the full-screen spinner", async ({ page }) => {
  await signInDemo(page);
  // Watches every page of the visit from its first script on; a sighting is reported to the test.
  let spinnerSeenOn: string | null = null;
  await page.exposeFunction("reportSpinner", (path: string) => {
    spinnerSeenOn ??= path;
  });
  await page.addInitScript((spinner) => {
    const report = (window as unknown as { reportSpinner: (path: string) => void }).reportSpinner;
    const check = () => {
      if (document.body?.innerText.includes(spinner)) void report(location.pathname);
    };
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  }, SPINNER);
  await page.goto("/dashboard");
  await expect(page.getByTestId("stat-total-calls-value")).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" }).first();
  for (const [name, testId] of [
    ["Call History", "call-history"],
    ["Phone Numbers", "phone-numbers"],
    ["Voice Assistants", "voice-assistants"],
    ["Dashboard", "dashboard"],
  ] as const) {
    await nav.getByRole("link", { name, exact: true }).first().click();
    await expect(page.getByTestId(testId).first()).toBeVisible();
  }
  // A full load of another signed-in page: rendered by the server, no spinner either.
  await page.goto("/settings/business");
  await expect(page.getByTestId("business-profile-form")).toBeVisible();
  expect(spinnerSeenOn).toBeNull();
});
