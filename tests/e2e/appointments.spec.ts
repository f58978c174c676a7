import { expect, test, type Page } from "@playwright/test";
import { signUpThroughApi } from "./owner-helpers";

/**
 * The Appointments screen (issue 17) clicked through: book a free time, see it in the week, move it,
 * cancel it; the day view; the feed URL in Settings → Calendar. Each test signs up its own user.
 */
const PASSWORD = "secret123";

async function signUp(page: Page) {
  return (await signUpThroughApi(page, { firstName: "Bea", lastName: "Booker", password: PASSWORD, prefix: "booker" })).sessionId;
}

const everyDay = Object.fromEntries(["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d) => [d, [{ open: "09:00", close: "17:00" }]]));

function toast(page: Page, text: string | RegExp) {
  return page.locator("[data-sonner-toast]").filter({ hasText: text }).first();
}

test("appointments: create in a free slot, move it, cancel it; day and week views; feed URL", async ({ page }) => {
  const sessionId = await signUp(page);
  const headers = { authorization: `Bearer ${sessionId}` };
  const anna = await page.request.post("/api/appointments/resources", { headers, data: { name: "Anna", followsBusinessHours: false, weeklyHours: everyDay } });
  expect(anna.status()).toBe(201);
  const service = await page.request.post("/api/services", { headers, data: { name: "Haircut", durationMinutes: 60, resourceIds: [(await anna.json()).id] } });
  expect(service.status()).toBe(201);

  await page.goto("/dashboard");
  await page.getByTestId("link-appointments").click();
  await expect(page).toHaveURL(/\/appointments$/);
  await expect(page.getByRole("heading", { name: "Appointments", level: 1 })).toBeVisible();
  await expect(page.getByTestId("appointments-calendar")).toHaveAttribute("data-view", "week");

  // Next week: every slot is beyond the minimum notice.
  await page.getByTestId("calendar-next").click();
  await page.getByTestId("appointments-new").click();
  const dialog = page.getByTestId("new-appointment-dialog");
  await expect(dialog).toBeVisible();
  const date = await dialog.getByTestId("slot-date").inputValue();
  await expect(dialog.getByTestId("slot-09:00")).toBeVisible();
  await expect(dialog.getByTestId("slot-16:00")).toBeVisible();
  await expect(dialog.getByTestId("slot-17:00")).toHaveCount(0);
  await dialog.getByTestId("slot-10:00").click();
  await dialog.getByTestId("appt-name").fill("Jane Doe");
  await dialog.getByTestId("appt-phone").fill("(415) 555-0123");
  await dialog.getByTestId("appt-submit").click();
  await expect(toast(page, "Booked: Haircut with Anna")).toBeVisible();
  await expect(dialog).toBeHidden();

  const day = page.getByTestId(`calendar-day-${date}`);
  const card = day.getByTestId("calendar-appointment");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("10:00 AM · Haircut");
  await expect(card).toContainText("Jane Doe · Anna");

  // The booked time is no longer offered.
  await page.getByTestId("appointments-new").click();
  await expect(dialog.getByTestId("slot-11:00")).toBeVisible();
  await expect(dialog.getByTestId("slot-10:00")).toHaveCount(0);
  await expect(dialog.getByTestId("slot-09:30")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Move to 2 PM.
  await card.click();
  const details = page.getByTestId("appointment-dialog");
  await expect(details).toContainText("+14155550123");
  await details.getByTestId("appointment-move").click();
  await details.getByTestId("slot-14:00").click();
  await details.getByTestId("appointment-move-submit").click();
  await expect(toast(page, "Moved: Haircut with Anna")).toBeVisible();
  await expect(card).toContainText("2:00 PM · Haircut");

  // Day view of that day shows it too.
  await page.getByTestId("calendar-view-day").click();
  await expect(page.getByTestId("appointments-calendar")).toHaveAttribute("data-view", "day");
  await expect(page.getByTestId(`calendar-day-${date}`)).toBeVisible();
  await expect(page.getByTestId("calendar-appointment")).toContainText("2:00 PM · Haircut");
  await page.getByTestId("calendar-view-week").click();

  // Cancel.
  await card.click();
  await details.getByTestId("appointment-cancel").click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel appointment" }).click();
  await expect(toast(page, "Cancelled: Haircut for Jane Doe")).toBeVisible();
  await expect(day.getByTestId("calendar-appointment")).toHaveCount(0);
  const listed = await page.request.get(`/api/appointments?from=${date}T00:00:00Z&to=${date}T23:59:59Z&includeCancelled=true`, { headers });
  expect((await listed.json()).map((a: { status: string }) => a.status)).toEqual(["cancelled"]);

  // Settings → Calendar shows the private feed URL, and it serves iCalendar.
  await page.goto("/settings");
  await page.getByTestId("settings-tab-calendar").click();
  const url = await page.getByTestId("ics-url").inputValue();
  expect(url).toMatch(/\/api\/appointments\/feed\/[A-Za-z0-9_-]+\.ics$/);
  const feed = await page.request.get(new URL(url).pathname);
  expect(feed.status()).toBe(200);
  expect(await feed.text()).toContain("BEGIN:VCALENDAR");
});
