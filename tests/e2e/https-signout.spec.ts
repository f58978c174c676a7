import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Response } from "@playwright/test";
import { demoAccount } from "../../lib/consoles/demo-accounts";

/**
 * A deployment whose PUBLIC_URL is https (issue 10 §2). Its session cookie is
 * `__Secure-switchboard.session_token`, which a browser only lets a `Secure` Set-Cookie replace: when
 * Sign Out cleared it without `Secure`, the cookie stayed, and /auth → /dashboard → /api/login → /auth
 * went round in a loop.
 *
 * How this proves it honestly: a second `next start` of the same production build runs with
 * PUBLIC_URL=https://localhost:<port>, so it sets real `__Secure-`, `Secure` cookies and HSTS. The
 * browser reaches it over http://localhost, which Chromium treats as a secure context: it stores and
 * sends Secure cookies there and applies the same rule to replacing them — so the old bug loops here
 * exactly as it did on https. The test reads the Set-Cookie attributes, follows the redirect chain,
 * and watches that /auth stays put.
 *
 * The same server (its own database) also shows that the address used for rate limits is the TCP
 * peer's, whatever X-Forwarded-For says — which needs a real server, and locks that address out for a
 * while, so it must not run against the shared one.
 */

const basePort = Number(process.env.E2E_PORT ?? 3123);
const port = Number(process.env.E2E_HTTPS_PORT ?? basePort + 1);
const origin = `http://localhost:${port}`;
const dataDir = path.join(process.cwd(), ".data-e2e-https");
let server: ChildProcess | null = null;
let serverLog = "";

test.describe.configure({ mode: "serial" });
test.use({ baseURL: origin });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fs.rmSync(dataDir, { recursive: true, force: true });
  server = spawn(process.execPath, [path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next"), "start"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      DATABASE_URL: "",
      PGLITE_DATA_DIR: path.join(dataDir, "pglite"),
      PUBLIC_URL: `https://localhost:${port}`,
      TRUST_PROXY_HEADERS: "false",
      BETTER_AUTH_SECRET: "e2e-https-secret-e2e-https-secret-0123456789",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (chunk) => (serverLog += chunk));
  server.stderr?.on("data", (chunk) => (serverLog += chunk));
  const deadline = Date.now() + 150_000;
  for (;;) {
    try {
      const res = await fetch(`${origin}/api/subscription-plans`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the https-PUBLIC_URL server did not start:\n${serverLog}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((resolve) => server!.once("exit", resolve));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("on an https PUBLIC_URL, Sign Out lands on the landing page and /auth opens", async ({ page, context }) => {
  // HSTS is sent when PUBLIC_URL is https.
  const landing = await page.request.get("/");
  expect(landing.headers()["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");

  await page.goto("/auth");
  await page.getByLabel("Email").fill(demoAccount.email);
  await page.getByLabel("Password", { exact: true }).fill(demoAccount.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("heading", { name: new RegExp(`Welcome back, ${demoAccount.firstName}`) })).toBeVisible();
  const before = (await context.cookies()).find((c) => c.name === "__Secure-switchboard.session_token");
  expect(before?.secure).toBe(true);
  expect(before?.httpOnly).toBe(true);

  // Sign Out: the clearing Set-Cookie carries Secure (and the __Secure- name), then "/".
  const chain: string[] = [];
  const logoutResponse = new Promise<Response>((resolve) =>
    page.on("response", (response) => {
      if (response.request().isNavigationRequest()) chain.push(`${response.status()} ${new URL(response.url()).pathname}`);
      if (new URL(response.url()).pathname === "/api/logout") resolve(response);
    }),
  );
  await page.getByTestId("header-sign-out").click();
  const logout = await logoutResponse;
  expect(logout.status()).toBe(303);
  const setCookies = (await logout.headersArray()).filter((h) => h.name.toLowerCase() === "set-cookie").map((h) => h.value);
  const cleared = setCookies.find((c) => c.startsWith("__Secure-switchboard.session_token="));
  expect(cleared).toBeDefined();
  expect(cleared).toMatch(/;\s*Secure/i);
  expect(cleared).toMatch(/Max-Age=0/i);
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByRole("link", { name: "Get Started Free" })).toBeVisible();
  expect(chain).toEqual(["303 /api/logout", "200 /"]);
  expect((await context.cookies()).find((c) => c.name === "__Secure-switchboard.session_token")).toBeUndefined();

  // /auth opens and stays: no /dashboard → /api/login → /auth loop.
  chain.length = 0;
  await page.goto("/auth");
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  await page.waitForTimeout(2_000);
  expect(new URL(page.url()).pathname).toBe("/auth");
  expect(chain).toEqual(["200 /auth"]);
});

test("a stale __Secure- cookie is cleared by /api/login, and /auth opens after it", async ({ page, context }) => {
  await context.addCookies([
    { name: "__Secure-switchboard.session_token", value: "stale.value", domain: "localhost", path: "/", secure: true, httpOnly: true, sameSite: "Lax" },
  ]);
  const chain: string[] = [];
  page.on("response", (response) => {
    if (response.request().isNavigationRequest()) chain.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  await page.goto("/auth");
  // The proxy sends a cookie holder to the dashboard, which finds no session and goes to /api/login once.
  await page.waitForURL("**/auth", { waitUntil: "load" });
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible({ timeout: 15_000 });
  await page.waitForTimeout(2_000);
  expect(new URL(page.url()).pathname).toBe("/auth");
  expect(chain.filter((step) => step.endsWith("/api/login")).length).toBeLessThanOrEqual(1);
  expect((await context.cookies()).find((c) => c.name === "__Secure-switchboard.session_token")).toBeUndefined();
});

test("rate limits count the TCP peer's address: X-Forwarded-For cannot spread failures over invented addresses", async ({ request }) => {
  const attempt = (i: number, email: string, password: string) =>
    request.post("/api/auth/login", {
      data: { email, password },
      headers: { "x-forwarded-for": `198.51.100.${i % 250}`, "x-real-ip": `203.0.113.${i % 250}`, "x-switchboard-peer-address": `192.0.2.${i % 250}` },
    });
  for (let i = 0; i < 50; i++) expect((await attempt(i, `nobody${i}@example.com`, "wrong-password")).status()).toBe(401);
  const blocked = await attempt(99, demoAccount.email, demoAccount.password);
  expect(blocked.status()).toBe(429);
});
