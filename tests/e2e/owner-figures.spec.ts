import { expect, test } from "@playwright/test";
import { demoAccount } from "../../lib/consoles/demo-accounts";
import { sentimentText, type SentimentFigure } from "../../lib/reports/figures";
import { signInThroughApi } from "./owner-helpers";

/**
 * Issue 30, point 4, in the browser: the dashboard shows the figures lib/reports/figures computes
 * (the same module Analytics, CRM Voice and the admins read), and the system status names its state
 * and never reads "Offline" beside an uptime when a part is only degraded.
 */
test("the dashboard shows the shared figures: sentiment, credits used and a named system status", async ({ page }) => {
  const sessionId = await signInThroughApi(page, demoAccount);
  const auth = { authorization: `Bearer ${sessionId}` };

  const figures = (await (await page.request.get("/api/dashboard/figures", { headers: auth })).json()) as { sentiment: SentimentFigure; creditsUsed: number };

  await page.goto("/dashboard");
  await expect(page.getByTestId("dashboard-sentiment")).toHaveText(sentimentText(figures.sentiment));
  await expect(page.getByTestId("dashboard-credits-used")).toHaveText(figures.creditsUsed.toLocaleString("en-US"));
  const badge = page.getByTestId("dashboard-health");
  await expect(badge).toHaveAttribute("data-status", /^(operational|degraded|offline|unknown)$/);
  const status = (await (await page.request.get("/api/status", { headers: auth })).json()) as { status: string };
  await expect(badge).toHaveAttribute("data-status", status.status);
  if (status.status !== "offline") await expect(badge).not.toHaveText(/offline/i);
});
