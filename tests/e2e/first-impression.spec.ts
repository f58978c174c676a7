import { expect, test } from "@playwright/test";
import config from "../../playwright.config";
import { toastWith } from "./owner-helpers";

/**
 * What a new user meets first (issue 10 §1), on the production build: the pages a visitor without a
 * session sees are rendered on the server (search engines and link previews get the text, not a
 * spinner), pages carry a nonce-based Content-Security-Policy, and a brand-new sign-up can run the
 * voice test at once — its starter assistant answers and the audio really plays.
 */

// Let the audio element play without a user gesture in headless Chromium; otherwise the project's launch options.
const projectLaunch = config.projects?.[0]?.use?.launchOptions ?? {};
test.use({
  launchOptions: {
    ...projectLaunch,
    executablePath: projectLaunch.executablePath ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [...(projectLaunch.args ?? []), "--autoplay-policy=no-user-gesture-required"],
  },
});

test("the server HTML of / carries the landing page, not a spinner", async ({ request }) => {
  // A plain HTTP GET: no JavaScript runs, no cookies are sent.
  const response = await request.get("/");
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain("Get Started Free");
  expect(html).toContain('href="/signup"');
  expect(html).not.toContain("Loading Switchboard...");
  // The header is rendered for a visitor too.
  expect(html).toContain('data-testid="header-sign-in"');
});

test("/signup, /auth, /integrations and the legal pages are server-rendered for visitors", async ({ request }) => {
  const pages: [string, string][] = [
    ["/signup", "Create Account &amp; Start Free"],
    ["/auth", "demo@switchboard.dev"],
    ["/integrations", "Google Calendar"],
    ["/privacy", "Privacy Policy"],
    ["/terms", "Terms of Service"],
  ];
  for (const [path, text] of pages) {
    const html = await (await request.get(path)).text();
    expect(html, path).toContain(text);
    expect(html, path).not.toContain("Loading Switchboard...");
  }
});

test("a visitor whose session cookie is unknown still gets the spinner until the check answers", async ({ request }) => {
  const html = await (await request.get("/", { headers: { cookie: "switchboard.session_token=not-a-session" } })).text();
  expect(html).toContain("Loading Switchboard...");
});

test("pages carry a nonce-based Content-Security-Policy that every script of the page follows", async ({ page, request }) => {
  const response = await request.get("/");
  const csp = response.headers()["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).not.toContain("unsafe-eval");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  const html = await response.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  // A fresh nonce per request.
  const again = (await request.get("/")).headers()["content-security-policy"];
  expect(again).not.toBe(csp);

  // In the browser nothing is blocked: the page hydrates and works.
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto("/");
  await page.getByRole("link", { name: "Get Started Free" }).click();
  await page.waitForURL("**/signup");
  await expect(page.getByRole("radio", { name: /Enterprise/ })).toBeVisible();
  await page.getByRole("radio", { name: /Enterprise/ }).click();
  await expect(page.getByRole("radio", { name: /Enterprise/ })).toHaveAttribute("aria-checked", "true");
  expect(violations).toEqual([]);
});

test("a brand-new sign-up runs the voice test straight away and hears its assistant", async ({ page }) => {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await page.goto("/signup");
  await page.getByRole("radio", { name: /Free/ }).click();
  await page.getByLabel("First Name").fill("Rosa");
  await page.getByLabel("Last Name").fill("Martinez");
  await page.getByLabel("Email").fill(`rosa${suffix}@example.com`);
  await page.getByLabel("Username").fill(`rosa${suffix}`);
  await page.getByLabel("Password", { exact: true }).fill("longenough1");
  await page.getByLabel("Confirm Password").fill("longenough1");
  await page.getByLabel("Organization Name (optional)").fill("Rosa's Bakery");
  await page.getByRole("checkbox").check();
  await page.getByRole("button", { name: "Create Account & Start Free" }).click();
  await page.waitForURL("**/dashboard");

  // The dashboard's first button leads to the voice test; nothing to set up first.
  await page.goto("/voice-test");
  await expect(page.getByTestId("voice-test-no-assistant")).toHaveCount(0);
  const input = page.getByLabel("Text");
  await input.fill("Hello");
  await input.press("Enter");
  await expect(toastWith(page, "Voice Test Successful")).toBeVisible();
  const results = page.getByTestId("voice-test-results");
  await expect(results.getByTestId("voice-test-result-response")).toHaveText("Thanks for calling Rosa's Bakery! How can I help you today?");
  await expect(results.getByText(/Answered by Front Desk/)).toBeVisible();

  // The audio plays to its end.
  const audio = page.getByTestId("voice-test-audio");
  await audio.evaluate((element: HTMLAudioElement) => {
    element.defaultPlaybackRate = 4;
    (element as HTMLAudioElement & { __ended?: boolean }).__ended = false;
    element.addEventListener("ended", () => ((element as HTMLAudioElement & { __ended?: boolean }).__ended = true), { once: true });
  });
  await results.getByTestId("voice-test-play").click();
  await expect(audio).toHaveAttribute("src", /\/api\/audio\//);
  await expect
    .poll(() => audio.evaluate((element) => (element as HTMLAudioElement & { __ended?: boolean }).__ended === true), { timeout: 20_000 })
    .toBe(true);
  expect(await audio.evaluate((element: HTMLAudioElement) => element.duration)).toBeGreaterThan(0.5);
  await expect(toastWith(page, "Audio Playback Failed")).toHaveCount(0);

  // The owner writes the hours into the instructions; the assistant answers from them.
  const sessionId = await page.evaluate(() => localStorage.getItem("sessionId"));
  const auth = { Authorization: `Bearer ${sessionId}` };
  const [starter] = (await (await page.request.get("/api/voice-assistants", { headers: auth })).json()) as { id: string; instructions: string }[];
  const updated = await page.request.put(`/api/voice-assistants/${starter.id}`, {
    headers: auth,
    data: { instructions: `${starter.instructions} open Tue–Sun 7am–3pm.` },
  });
  expect(updated.status()).toBe(200);
  await input.fill("When are you open?");
  await input.press("Enter");
  await expect(results.getByTestId("voice-test-result-input")).toHaveText("When are you open?");
  await expect(results.getByTestId("voice-test-result-response")).toContainText("We're open Tue–Sun 7am–3pm.");
  await input.fill("I'd like to order a birthday cake");
  await input.press("Enter");
  await expect(results.getByTestId("voice-test-result-intent")).toHaveText("Intent: Order");
});

test("a wrong current password in Settings is a 400 in the production build, not a 500", async ({ request }) => {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const made = await request.post("/api/auth/register", {
    data: { email: `pw${suffix}@example.com`, password: "secret123", username: `pw${suffix}`, firstName: "Pat", lastName: "Word" },
  });
  expect(made.status()).toBe(200);
  const { sessionId } = (await made.json()) as { sessionId: string };
  const res = await request.post("/api/settings/password", {
    headers: { Authorization: `Bearer ${sessionId}` },
    data: { currentPassword: "not-my-password", newPassword: "another-pass-1", confirmPassword: "another-pass-1" },
  });
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({ errors: { currentPassword: "Current password is incorrect" } });
});
