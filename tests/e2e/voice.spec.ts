import { expect, test, type Locator, type Page } from "@playwright/test";
import config from "../../playwright.config";
import { shoot, signUpThroughApi, toastWith } from "./owner-helpers";

/**
 * The voice pipeline's screens (issue 4) on the production build: /voice-test signed in, and the
 * /mobile-preview chat signed out (the public demo assistant). Offline providers answer: the local
 * responder writes the reply and flite, in the speech worker pool, speaks it as a WAV that headless
 * Chromium really plays.
 * Credits running out is covered by the integration tests (no admin API to empty a balance yet).
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

const PASSWORD = "secret123";
const CHAT_ERROR_TEXT = "Sorry, I encountered an error processing your request. Please try again.";

/** Registers a new user through the API: the response's cookie lands in the page's context; the page keeps the session id too. */
async function signUp(page: Page, firstName = "Vera") {
  return signUpThroughApi(page, { firstName, lastName: "Hart", password: PASSWORD });
}

/**
 * Starts listening for the audio element's `ended` (before the click) and returns a check for it.
 * The clip plays at 4× (defaultPlaybackRate survives the new src) so a few seconds of speech end quickly.
 */
async function watchForEnded(audio: Locator) {
  await audio.evaluate((element: HTMLAudioElement) => {
    element.defaultPlaybackRate = 4;
    (element as HTMLAudioElement & { __ended?: boolean }).__ended = false;
    element.addEventListener("ended", () => ((element as HTMLAudioElement & { __ended?: boolean }).__ended = true), { once: true });
  });
  return () => audio.evaluate((element) => (element as HTMLAudioElement & { __ended?: boolean }).__ended === true);
}

/** /mobile-preview is prerendered: typing counts once React has hydrated the chat (the Send button follows the text). */
async function waitForChat(page: Page) {
  const message = page.getByRole("textbox", { name: "Message" });
  const send = page.getByRole("button", { name: "Send" });
  await expect(async () => {
    await message.fill("x");
    await expect(send).toBeEnabled({ timeout: 500 });
  }).toPass();
  await message.fill("");
  await expect(send).toBeDisabled();
  return { message, send };
}

test("voice test: guidance without an assistant, quick phrase, Enter submits, result with providers, Play Audio plays to the end", async ({ page }) => {
  const { sessionId } = await signUp(page, "Vera");
  // Every new organization starts with an assistant; without one (deleted here) the page guides.
  const auth = { Authorization: `Bearer ${sessionId}` };
  for (const assistant of (await (await page.request.get("/api/voice-assistants", { headers: auth })).json()) as { id: string }[]) {
    expect((await page.request.delete(`/api/voice-assistants/${assistant.id}`, { headers: auth })).status()).toBe(200);
  }
  await page.goto("/voice-test");
  await expect(page.getByRole("heading", { name: "Voice Test", level: 1 })).toBeVisible();
  await expect(page.getByTestId("voice-test-admin-label")).toHaveText("Practice tool");

  // An organization without an assistant: the page says so and points to Voice Assistants.
  const guidance = page.getByTestId("voice-test-no-assistant");
  await expect(guidance).toBeVisible();
  await expect(guidance.getByRole("link", { name: "Create an assistant" })).toHaveAttribute("href", "/voice-assistants");
  await shoot(page, "voice-test-no-assistant");

  const created = await page.request.post("/api/voice-assistants", {
    headers: { Authorization: `Bearer ${sessionId}` },
    data: { name: "Front Desk", personality: "professional", instructions: "Book appointments and take messages." },
  });
  expect(created.status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId("voice-test-admin-label")).toHaveText("Practice tool");
  await expect(page.getByTestId("voice-test-no-assistant")).toHaveCount(0);

  // The button waits for text; a blank Enter asks for some.
  const input = page.getByLabel("Text");
  const submit = page.getByRole("button", { name: "Test Voice Pipeline" });
  await expect(input).toHaveValue("");
  await expect(submit).toBeDisabled();
  await input.fill("   ");
  await expect(submit).toBeDisabled();
  await input.press("Enter");
  await expect(toastWith(page, "Input Required")).toBeVisible();
  await expect(page.getByText("No test run yet.")).toBeVisible();

  // Five quick phrases; one fills the input and runs the test.
  const phrases = page.getByTestId("voice-test-quick-phrases").getByRole("button");
  await expect(phrases).toHaveCount(5);
  await phrases.filter({ hasText: "What are your opening hours?" }).click();
  await expect(input).toHaveValue("What are your opening hours?");
  await expect(toastWith(page, "Voice Test Successful", "AI response generated and audio created")).toBeVisible();
  const results = page.getByTestId("voice-test-results");
  await expect(results.getByTestId("voice-test-result-input")).toHaveText("What are your opening hours?");
  await expect(results.getByTestId("voice-test-result-intent")).toHaveText("Intent: Hours");
  await expect(results.getByTestId("voice-test-result-response")).not.toBeEmpty();

  // Typed text and Enter submit too.
  await input.fill("Hello, I'd like to book an appointment for Tuesday");
  await expect(submit).toBeEnabled();
  await input.press("Enter");
  await expect(results.getByTestId("voice-test-result-input")).toHaveText("Hello, I'd like to book an appointment for Tuesday");
  await expect(results.getByTestId("voice-test-result-intent")).toHaveText(/^Intent: (Appointment|Greeting)$/);
  await expect(results.getByTestId("voice-test-result-response")).not.toBeEmpty();
  // Plain words first; the providers' technical names and the stage timings behind "Details".
  await expect(results.getByTestId("voice-test-result-providers")).toHaveText("Switchboard's built-in assistant and voice (no API keys)");
  await expect(results.getByText("Answered by Front Desk · Switchboard's built-in assistant and voice (no API keys)")).toBeVisible();
  await expect(results.getByTestId("voice-test-timings-plain")).toContainText("A caller hears the reply after");
  await expect(results.getByTestId("voice-test-timings")).toBeHidden();
  await results.getByTestId("voice-test-details").getByText("Details").click();
  await expect(results.getByTestId("voice-test-result-providers-technical")).toHaveText("local responder · offline voice");
  await expect(results.getByTestId("voice-test-timings")).toContainText("Server total");
  await expect(results.getByTestId("voice-test-timings")).toContainText("Model, first token");
  await shoot(page, "voice-test-result");

  // Play Audio: the button shows the playing state, the WAV plays to its end, the button returns.
  const audio = page.getByTestId("voice-test-audio");
  const ended = await watchForEnded(audio);
  const play = results.getByTestId("voice-test-play");
  await expect(play).toHaveText("Play Audio");
  await play.click();
  await expect(audio).toHaveAttribute("src", /\/api\/audio\//);
  await expect.poll(ended, { timeout: 20_000 }).toBe(true);
  await expect(play).toHaveText("Play Audio");
  await expect(play).toHaveAttribute("aria-pressed", "false");
  expect(await audio.evaluate((element: HTMLAudioElement) => element.duration)).toBeGreaterThan(0.2);
  await expect(toastWith(page, "Audio Playback Failed")).toHaveCount(0);
});

test("mobile preview signed out: greeting, Enter sends, Shift+Enter adds a line, thinking, reply with intent, time and audio", async ({ page }) => {
  await page.goto("/mobile-preview");
  await expect(page.getByRole("heading", { name: "Chat with your voice assistant" })).toBeVisible();
  const aiMessages = page.getByTestId("chat-ai-message");
  const userMessages = page.getByTestId("chat-user-message");
  await expect(aiMessages).toHaveCount(1);
  await expect(aiMessages.first()).toContainText("Hi! I'm your Switchboard voice assistant.");
  await expect(userMessages).toHaveCount(0);
  await expect(page.getByTestId("chat-last-audio")).toHaveCount(0);

  const { message, send } = await waitForChat(page);

  // Shift+Enter adds a line; nothing is sent.
  await message.click();
  await message.pressSequentially("Hi there");
  await message.press("Shift+Enter");
  await message.pressSequentially("what are your opening hours?");
  await expect(message).toHaveValue("Hi there\nwhat are your opening hours?");
  await expect(userMessages).toHaveCount(0);

  // Hold the answer back a moment so the thinking indicator can be seen.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/voice/test", async (route) => {
    await held;
    await route.continue();
  });

  // Enter sends: the user's message shows, the input clears, the assistant is thinking.
  await message.press("Enter");
  await expect(userMessages).toHaveCount(1);
  await expect(userMessages.first()).toContainText("Hi there\nwhat are your opening hours?");
  await expect(message).toHaveValue("");
  await expect(page.getByTestId("chat-thinking")).toBeVisible();
  await expect(page.getByTestId("chat-thinking")).toHaveText(/Thinking/);
  await expect(send).toBeDisabled();
  release();

  await expect(page.getByTestId("chat-thinking")).toBeHidden();
  await expect(aiMessages).toHaveCount(2);
  const reply = aiMessages.nth(1);
  await expect(reply).not.toHaveAttribute("data-error", "true");
  await expect(reply).not.toContainText(CHAT_ERROR_TEXT);
  await expect(reply.getByTestId("chat-intent")).toHaveText("Hours");
  await expect(reply.getByTestId("chat-timestamp")).toHaveText(/\d{1,2}:\d{2}/);
  await expect(reply.getByTestId("chat-timestamp")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
  const replyPlay = reply.getByRole("button", { name: "Play Audio" });
  await expect(replyPlay).toBeVisible();
  await expect(page.getByTestId("chat-last-audio")).toHaveAttribute("data-src", /\/api\/audio\//);
  await expect(page.getByTestId("chat-last-audio-time")).toHaveText("0:00 / --:--");
  await shoot(page, "mobile-preview-reply");

  // Play Audio on the reply plays it to the end.
  const audio = page.getByTestId("chat-audio");
  const ended = await watchForEnded(audio);
  await replyPlay.click();
  await expect.poll(ended, { timeout: 20_000 }).toBe(true);
  await expect(reply.getByTestId("chat-play-audio")).toHaveText("Play Audio");
  await expect(toastWith(page, "Audio Playback Failed")).toHaveCount(0);
  // The last-audio player followed the element: at the end it shows the clip's full length, not 0:00.
  const lastTime = page.getByTestId("chat-last-audio-time");
  await expect(lastTime).toHaveText(/^(\d+:\d\d) \/ \1$/);
  await expect(lastTime).not.toHaveText("0:00 / 0:00");
  await expect(page.getByTestId("chat-last-audio-progress")).toHaveAttribute("aria-valuenow", "100");

  // Its own play button plays the same clip; the time moves while it plays.
  const endedAgain = await watchForEnded(audio);
  await audio.evaluate((element: HTMLAudioElement) => {
    const seen: number[] = [];
    (element as HTMLAudioElement & { __seen?: number[] }).__seen = seen;
    element.addEventListener("timeupdate", () => seen.push(element.currentTime));
  });
  await page.getByTestId("chat-last-audio-toggle").click();
  await expect.poll(endedAgain, { timeout: 20_000 }).toBe(true);
  expect(await audio.evaluate((element) => ((element as HTMLAudioElement & { __seen?: number[] }).__seen ?? []).some((t) => t > 0))).toBe(true);
  await expect(page.getByTestId("chat-last-audio-progress")).toHaveAttribute("aria-valuenow", "100");

  // A second turn in the same session: the last-audio player follows the newest reply.
  const firstAudio = await page.getByTestId("chat-last-audio").getAttribute("data-src");
  await page.unroute("**/api/voice/test");
  await message.fill("Can I speak to a person?");
  await send.click();
  await expect(aiMessages).toHaveCount(3);
  await expect(aiMessages.nth(2).getByTestId("chat-intent")).toHaveText("Human handoff");
  await expect(page.getByTestId("chat-last-audio")).not.toHaveAttribute("data-src", firstAudio ?? "");
  // A new clip starts the display again at 0:00.
  await expect(page.getByTestId("chat-last-audio-time")).toHaveText("0:00 / --:--");
});

test("mobile preview: a server failure gives the error reply", async ({ page }) => {
  await page.route("**/api/voice/test", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "Internal Server Error" }) })
      : route.continue(),
  );
  await page.goto("/mobile-preview");
  const { message } = await waitForChat(page);
  await message.fill("What are your opening hours?");
  await message.press("Enter");

  const aiMessages = page.getByTestId("chat-ai-message");
  await expect(aiMessages).toHaveCount(2);
  const reply = aiMessages.nth(1);
  await expect(reply.locator("div").first()).toHaveText(CHAT_ERROR_TEXT);
  await expect(reply).toHaveAttribute("data-error", "true");
  await expect(reply.getByTestId("chat-intent")).toHaveCount(0);
  await expect(reply.getByTestId("chat-play-audio")).toHaveCount(0);
  await expect(page.getByTestId("chat-thinking")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  await expect(message).toBeEnabled();
  await shoot(page, "mobile-preview-error");
});
