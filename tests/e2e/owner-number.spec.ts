import { expect, test } from "@playwright/test";
import { ownerSession } from "./owner-helpers";

/**
 * Issue 30 point 2: a brought-in number is verified with a call and a code (the simulated carrier's
 * handset is on the card), then shows forwarding steps per carrier and a Test forwarding button that
 * reports whether the call arrived.
 */
test("bring a number: verify it with the code, read the forwarding codes, test forwarding", async ({ page }) => {
  const { auth } = await ownerSession(page);
  // Pro allows a second number: one from Switchboard to forward to, and the owner's own.
  expect((await page.request.post("/api/billing/upgrade-plan", { headers: auth, data: { planId: "pro" } })).status()).toBe(200);
  const bought = await page.request.post("/api/phone-numbers", { headers: auth, data: { friendlyName: "Switchboard line" } });
  const { phoneNumber: switchboard } = (await bought.json()) as { phoneNumber: string };

  await page.goto("/phone-numbers");
  await page.getByTestId("phone-numbers-add").click();
  await page.getByTestId("add-number-tab-existing").click();
  const own = `+1312555${String(1000 + Math.floor(Math.random() * 8999))}`;
  await page.getByTestId("add-number-existing").fill(own);
  await page.getByTestId("add-number-friendly-name").fill("Our old line");
  await page.getByTestId("add-number-submit").click();

  const card = page.getByTestId("phone-number-card").filter({ hasText: "Our old line" });
  await expect(card.getByTestId("phone-number-status")).toHaveText("Not verified");
  const code = (await card.getByTestId("number-ownership-code").textContent())!.trim();
  expect(code).toMatch(/^\d{6}$/);
  await card.getByLabel("Practice phone: keypad").fill(code);
  await card.getByRole("button", { name: "Key in the code" }).click();
  await expect(card.getByText("Verified: you control this number")).toBeVisible();
  await expect(card.getByTestId("phone-number-status")).toHaveText("Active");

  await card.getByText("Forwarding steps").click();
  const tenDigits = switchboard.replace(/^\+1/, "");
  await card.getByLabel("Your carrier").selectOption("verizon");
  await expect(card.getByTestId("number-forwarding-codes")).toContainText(`*71${tenDigits}`);
  await card.getByLabel("Your carrier").selectOption("tmobile");
  await expect(card.getByTestId("number-forwarding-codes")).toContainText(`**004*${tenDigits}#`);
  await card.getByLabel("Your carrier").selectOption("att");
  await expect(card.getByTestId("number-forwarding-codes")).toContainText(`*004*${tenDigits}#`);

  await card.getByRole("button", { name: "Test forwarding" }).click();
  await expect(card.getByTestId("number-forwarding-result")).toHaveText("The test call arrived: forwarding works.", { timeout: 20_000 });
});
