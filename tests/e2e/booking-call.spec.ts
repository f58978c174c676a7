import { expect, test, type Page } from "@playwright/test";
import { signUpThroughApi } from "./owner-helpers";

/**
 * Booking by voice in the browser: the call simulator (Call on a number card) books a haircut with
 * the assistant — the read-back question first, then "yes" — and the booking appears on the
 * Appointments screen.
 */
async function signUp(page: Page) {
  return (await signUpThroughApi(page, { firstName: "Vic", lastName: "Booker", password: "secret123", prefix: "voicebook" })).sessionId;
}

const everyDay = Object.fromEntries(["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d) => [d, [{ open: "09:00", close: "17:00" }]]));

test("a booking made through the call simulator appears on the Appointments screen", async ({ page }) => {
  const sessionId = await signUp(page);
  const headers = { authorization: `Bearer ${sessionId}` };
  // A new organization starts with a starter assistant (the Free plan's one slot): make it Riley.
  const starterId = ((await (await page.request.get("/api/voice-assistants", { headers: headers })).json()) as { id: string }[])[0].id;
  expect((await page.request.put(`/api/voice-assistants/${starterId}`, { headers, data: { name: "Riley", greeting: "Thanks for calling, this is Riley. How can I help?" } })).status()).toBe(200);
  expect((await page.request.post("/api/phone-numbers", { headers, data: { friendlyName: "Front desk" } })).status()).toBe(201);
  const anna = await page.request.post("/api/appointments/resources", { headers, data: { name: "Anna", followsBusinessHours: false, weeklyHours: everyDay } });
  expect(anna.status()).toBe(201);
  expect((await page.request.post("/api/services", { headers, data: { name: "Haircut", durationMinutes: 60, resourceIds: [(await anna.json()).id] } })).status()).toBe(201);

  // A week from today (the business's zone is UTC until one is set): always in next week's view.
  const date = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

  await page.goto("/phone-numbers");
  await page.getByTestId("phone-number-card").first().getByTestId("phone-number-call").click();
  const panel = page.getByTestId("phone-panel");
  await panel.getByTestId("phone-panel-start").click();
  const transcript = panel.getByTestId("phone-panel-transcript");
  const status = panel.getByTestId("phone-panel-status");
  await expect(status).toContainText("Your turn", { timeout: 30_000 });

  const sayLine = async (text: string, assistantTurns: number) => {
    await panel.getByLabel("What the caller says").fill(text);
    await panel.getByTestId("phone-panel-send").click();
    await expect(transcript.locator('[data-speaker="assistant"]')).toHaveCount(assistantTurns, { timeout: 30_000 });
    await expect(status).toContainText("Your turn", { timeout: 30_000 });
  };
  await sayLine(`I'd like to book a haircut on ${date} at 10 am, my name is Jane Doe`, 2);
  const question = transcript.locator('[data-speaker="assistant"]').nth(1);
  await expect(question).toContainText("Just to confirm, I have a Haircut with Anna on");
  await expect(question).toContainText("at 10:00 AM for Jane Doe. Shall I book it?");
  await expect(transcript).not.toContainText("You're booked");

  await sayLine("Yes", 3);
  await expect(transcript.locator('[data-speaker="assistant"]').nth(2)).toContainText("You're booked: Haircut with Anna on");
  await panel.getByTestId("phone-panel-hangup").click();
  await expect(panel.getByTestId("phone-panel-ended")).toBeVisible({ timeout: 20_000 });
  await page.keyboard.press("Escape");

  await page.goto("/appointments");
  await expect(page.getByRole("heading", { name: "Appointments", level: 1 })).toBeVisible();
  await page.getByTestId("calendar-next").click();
  const card = page.getByTestId(`calendar-day-${date}`).getByTestId("calendar-appointment");
  await expect(card).toContainText("10:00 AM · Haircut");
  await expect(card).toContainText("Jane Doe");
});
