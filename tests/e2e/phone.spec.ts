import { expect, test, type Page } from "@playwright/test";
import { signUpThroughApi } from "./owner-helpers";

/**
 * The phone loop in the browser (issue 12): Call on a number card opens the phone panel, which plays
 * the simulated carrier against the number's signed webhooks. The greeting plays, the caller asks a
 * question, a reply plays, the caller hangs up, and the call is in Call History with its transcript
 * and, shortly after, its summary (written by the post-call job).
 */

async function signUp(page: Page) {
  return (await signUpThroughApi(page, { firstName: "Casey", lastName: "Jones", password: "secret123", prefix: "caller" })).sessionId;
}

/** Waits until the panel's <audio> has played a new clip from the signed audio route (played ranges, no media error). */
async function expectPlayed(page: Page, previousSrc: string | null): Promise<string> {
  const audio = page.getByTestId("phone-panel-audio");
  const state = () =>
    audio.evaluate((el: HTMLAudioElement) => ({ src: el.currentSrc, played: el.played.length > 0 && el.played.end(0) > 0, error: el.error?.code ?? null }));
  await expect
    .poll(async () => {
      const s = await state();
      return s.src !== previousSrc && /\/api\/audio\/[0-9a-f-]{36}\?token=/.test(s.src) && s.played && s.error === null;
    }, { timeout: 20_000 })
    .toBe(true);
  return (await state()).src;
}

test("Call on a number: greeting, a question, a reply, hang up; the call is in Call History with transcript and summary", async ({ page }) => {
  test.setTimeout(90_000);
  const sessionId = await signUp(page);
  const auth = { authorization: `Bearer ${sessionId}` };
  // A new organization starts with a starter assistant (the Free plan's one slot): make it Riley.
  const starterId = ((await (await page.request.get("/api/voice-assistants", { headers: auth })).json()) as { id: string }[])[0].id;
  const assistant = await page.request.put(`/api/voice-assistants/${starterId}`, {
    headers: auth,
    data: { name: "Riley", greeting: "Thanks for calling, this is Riley. How can I help?", instructions: "Take a message when the team is busy." },
  });
  expect(assistant.status()).toBe(200);
  const number = await page.request.post("/api/phone-numbers", { headers: auth, data: { friendlyName: "Front desk" } });
  expect(number.status()).toBe(201);
  const { phoneNumber } = (await number.json()) as { phoneNumber: string };

  await page.goto("/phone-numbers");
  const card = page.getByTestId("phone-number-card").first();
  await card.getByTestId("phone-number-call").click();
  const panel = page.getByTestId("phone-panel");
  await expect(panel).toBeVisible();
  await panel.getByTestId("phone-panel-start").click();

  // The greeting plays, then it is the caller's turn.
  const transcript = panel.getByTestId("phone-panel-transcript");
  await expect(transcript).toContainText("Thanks for calling, this is Riley. How can I help?");
  const greetingSrc = await expectPlayed(page, null);
  await expect(panel.getByTestId("phone-panel-status")).toContainText("Your turn", { timeout: 20_000 });

  await panel.getByLabel("What the caller says").fill("What are your opening hours?");
  await panel.getByTestId("phone-panel-send").click();
  await expect(transcript.locator('[data-speaker="caller"]')).toContainText("What are your opening hours?");
  // The reply: a new assistant turn with its latency, and its clip plays.
  await expect(transcript.locator('[data-speaker="assistant"]')).toHaveCount(2, { timeout: 20_000 });
  await expect(transcript.getByTestId("phone-panel-latency").first()).toContainText(/replied in \d+ ms/);
  await expectPlayed(page, greetingSrc);
  await expect(panel.getByTestId("phone-panel-status")).toContainText("Your turn", { timeout: 20_000 });

  // The simulated carrier announces the whole call's recording once the call has ended (the panel
  // uploads it from the browser, so the page stays open until the callback is answered).
  const recorded = page.waitForResponse((r) => r.url().includes("/api/telephony/voice/call-recording"), { timeout: 30_000 });
  await panel.getByTestId("phone-panel-hangup").click();
  await expect(panel.getByTestId("phone-panel-ended")).toBeVisible({ timeout: 20_000 });
  expect((await recorded).status()).toBe(200);
  await page.keyboard.press("Escape");

  await page.goto("/call-history");
  // The call's row (the text-back the caller got after it is a row of its own, newer).
  const row = page.locator('[data-testid="history-row"][aria-label^="Open call from"]').filter({ hasText: "+1 (555) 555-0100" }).or(page.locator('[data-testid="history-row"][aria-label^="Open call from"]').filter({ hasText: "5555550100" })).first();
  await expect(row).toBeVisible();
  await row.click();
  const detail = page.getByTestId("call-detail");
  await expect(detail.getByTestId("call-detail-transcript")).toContainText("What are your opening hours?");
  await expect(detail.getByTestId("call-detail-transcript")).toContainText("Thanks for calling, this is Riley.");
  await expect(detail.getByTestId("call-detail-summary")).toContainText("asked about opening hours", { timeout: 30_000 });
  await expect(detail).toContainText(phoneNumber);
  // The whole call was recorded after the notice (issue 32): a player and a download in the detail.
  const recording = detail.getByTestId("call-detail-call-recording");
  await expect(recording).toBeVisible({ timeout: 30_000 });
  const src = await recording.locator("audio").getAttribute("src");
  const audio = await page.request.get(src!);
  expect(audio.status()).toBe(200);
  expect(audio.headers()["content-type"]).toMatch(/^audio\//);
  expect((await audio.body()).length).toBeGreaterThan(1000);
  await expect(recording.getByRole("link", { name: "Download the recording" })).toHaveAttribute("href", `${src}?download=1`);
});
