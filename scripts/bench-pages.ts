// npm run bench:pages — each main signed-in page's time to content, cold and warm, in Debian's
// Chromium (CHROMIUM_PATH, default /usr/bin/chromium) against the production build under
// `next start` on a fresh embedded database with the demo seed (scripts/bench-server.ts).
//
// Time to content: from the start of the navigation until the page's "the data is there" selector
// is visible (the figures on the dashboard, the first call row, the analytics banners…), measured
// in the browser (performance.now() at the first animation frame that shows it, the navigation's
// own clock). Cold: a fresh browser context (no HTTP cache, no client state) that only holds the
// session cookie, a full page load. Warm: the same page loaded again in that context (scripts
// from the cache). Nav: a client-side navigation from the dashboard through the header's link,
// where the page's own link exists. Each figure is the median of BENCH_ROUNDS (5) rounds after one
// unmeasured round (the server's first hit loads each route's code). Also reported: the script
// the page's full load downloads (decoded bytes) and whether the full-screen "Loading Switchboard…"
// spinner was ever on screen. BENCH_TARGET_MS (1000) is the target for cold. BENCH_SKIP_BUILD=true
// serves the build already in .next as it is (to measure a build of an earlier commit).
import { chromium, type Browser, type BrowserContext, type Page } from "playwright";
import os from "node:os";

import { startBenchServer } from "./bench-server";
import { demoAccount, demoMasterAccount } from "@/lib/consoles/demo-accounts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TARGET_MS = Number(process.env.BENCH_TARGET_MS ?? 1000);
const SPINNER_TEXT = "Loading Switchboard...";

type Account = { email: string; password: string };
type Target = { path: string; name: string; selector: string; account: Account };

const TARGETS: Target[] = [
  { path: "/dashboard", name: "Dashboard", selector: '[data-testid="stat-total-calls-value"]', account: demoAccount },
  { path: "/settings/business", name: "Business", selector: '[data-testid="business-profile-form"]', account: demoAccount },
  { path: "/call-history", name: "Calls", selector: '[data-testid="history-row"], [data-testid="history-empty"]', account: demoAccount },
  { path: "/analytics", name: "Analytics", selector: '[data-testid="system-status-banner"]', account: demoAccount },
  { path: "/phone-numbers", name: "Phone numbers", selector: '[data-testid="phone-numbers-grid"] > *, [data-testid="phone-numbers-empty"]', account: demoAccount },
  { path: "/voice-assistants", name: "Assistants", selector: '[data-testid="assistants-grid"] > *, [data-testid="assistants-empty"]', account: demoAccount },
  { path: "/master-admin", name: "Master Admin", selector: '[data-testid="master-users-value"]', account: demoMasterAccount },
];

// BENCH_ONLY=/dashboard,/analytics measures those pages only.
const ONLY = (process.env.BENCH_ONLY ?? "").split(",").filter(Boolean);
const MEASURED = ONLY.length ? TARGETS.filter((t) => ONLY.includes(t.path)) : TARGETS;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function signedInContext(browser: Browser, baseURL: string, account: Account): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const res = await context.request.post("/api/auth/login", { data: { email: account.email, password: account.password } });
  if (res.status() !== 200) throw new Error(`sign-in as ${account.email}: ${res.status()} ${await res.text()}`);
  return context;
}

// Scripts that run in the page are strings: tsx compiles this file with esbuild's keepNames, whose
// __name() helper does not exist in the browser.

/** Watches the page from its first script on: when the selector first shows, and whether the spinner ever did. */
function installProbe(page: Page, selector: string) {
  return page.addInitScript(`(() => {
    const sel = ${JSON.stringify(selector)};
    const spinner = ${JSON.stringify(SPINNER_TEXT)};
    const state = { content: null, spinner: false };
    window.__bench = state;
    let observer = null;
    let timer = 0;
    const check = () => {
      if (!document.body) return;
      if (!state.spinner && document.body.innerText.includes(spinner)) state.spinner = true;
      if (state.content === null) {
        const el = document.querySelector(sel);
        if (el && el.getClientRects().length > 0) {
          state.content = performance.now();
          observer.disconnect();
          clearInterval(timer);
        }
      }
    };
    // DOM changes as they happen (streamed HTML, React commits), and a poll for layout-only changes.
    observer = new MutationObserver(check);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    timer = setInterval(check, 16);
  })()`);
}

async function readProbe(page: Page, selector: string): Promise<{ ms: number; spinner: boolean }> {
  await page.waitForSelector(selector, { state: "visible", timeout: 30_000 });
  await page.waitForFunction(() => (window as unknown as { __bench?: { content: number | null } }).__bench?.content != null, null, { timeout: 5_000 });
  const state = await page.evaluate(() => (window as unknown as { __bench: { content: number; spinner: boolean } }).__bench);
  return { ms: state.content, spinner: state.spinner };
}

async function fullLoad(context: BrowserContext, target: Target) {
  const page = await context.newPage();
  let scriptBytes = 0;
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return;
    response.body().then((b) => (scriptBytes += b.length)).catch(() => {});
  });
  await installProbe(page, target.selector);
  await page.goto(target.path, { waitUntil: "commit" });
  const result = await readProbe(page, target.selector);
  await page.waitForLoadState("load");
  await page.close();
  return { ...result, scriptBytes };
}

/** From the dashboard, a click on the header's link to the page (when it has one): time to content and spinner seen. */
async function clientNavigation(context: BrowserContext, target: Target): Promise<{ ms: number; spinner: boolean } | null> {
  if (target.path === "/dashboard") return null;
  const page = await context.newPage();
  await page.goto("/dashboard");
  await page.waitForSelector('[data-testid="stat-total-calls-value"]');
  const link = page.locator(`header a[href="${target.path}"]`).first();
  if ((await link.count()) === 0 || !(await link.isVisible())) {
    await page.close();
    return null;
  }
  // The measurement starts before the click lands: the clock starts at the click itself.
  const measured = page.evaluate(`new Promise((resolve) => {
    const sel = ${JSON.stringify(target.selector)};
    const spinner = ${JSON.stringify(SPINNER_TEXT)};
    let sawSpinner = false;
    let t0 = 0;
    window.addEventListener("click", () => (t0 = performance.now()), { capture: true, once: true });
    const check = () => {
      if (t0 && document.body.innerText.includes(spinner)) sawSpinner = true;
      const el = t0 ? document.querySelector(sel) : null;
      if (el && el.getClientRects().length > 0) resolve({ ms: performance.now() - t0, spinner: sawSpinner });
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })`) as Promise<{ ms: number; spinner: boolean }>;
  await link.click();
  const out = await measured;
  await page.close();
  return out;
}

async function main() {
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const server = await startBenchServer();
  const browser = await chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const rows: string[] = [];
  let failed = false;
  try {
    const load = os.loadavg()[0].toFixed(1);
    console.log(`bench:pages on ${server.url} (${os.cpus().length} cores, load ${load}), ${ROUNDS} rounds + 1 unmeasured`);
    const results = new Map<string, { cold: number[]; warm: number[]; nav: number[]; script: number[]; spinner: boolean; navSpinner: boolean }>();
    for (let round = 0; round <= ROUNDS; round++) {
      for (const target of MEASURED) {
        const context = await signedInContext(browser, server.url, target.account);
        try {
          const cold = await fullLoad(context, target);
          const warm = await fullLoad(context, target);
          const nav = await clientNavigation(context, target);
          if (round === 0) continue;
          const r = results.get(target.path) ?? { cold: [], warm: [], nav: [], script: [], spinner: false, navSpinner: false };
          r.cold.push(cold.ms);
          r.warm.push(warm.ms);
          if (nav) r.nav.push(nav.ms);
          r.script.push(cold.scriptBytes);
          r.spinner ||= cold.spinner || warm.spinner;
          r.navSpinner ||= nav?.spinner ?? false;
          results.set(target.path, r);
        } finally {
          await context.close();
        }
      }
      if (round > 0) console.log(`  round ${round}/${ROUNDS} done`);
    }
    rows.push("| page | cold (ms) | warm (ms) | nav from dashboard (ms) | script (KB, decoded) | full-screen spinner (load / nav) | cold ≤ target |");
    rows.push("|---|---|---|---|---|---|---|");
    for (const target of MEASURED) {
      const r = results.get(target.path)!;
      const cold = median(r.cold);
      const ok = cold <= TARGET_MS;
      failed ||= !ok;
      rows.push(
        `| ${target.name} \`${target.path}\` | ${cold.toFixed(0)} | ${median(r.warm).toFixed(0)} | ${r.nav.length ? median(r.nav).toFixed(0) : "—"} | ${(median(r.script) / 1024).toFixed(0)} | ${r.spinner ? "yes" : "no"} / ${r.nav.length ? (r.navSpinner ? "yes" : "no") : "—"} | ${ok ? "yes" : "no"} |`,
      );
    }
    console.log(`\nTime to content, median of ${ROUNDS} (target cold ≤ ${TARGET_MS} ms); load average now ${os.loadavg()[0].toFixed(1)}\n`);
    console.log(rows.join("\n"));
  } finally {
    await browser.close();
    await server.stop();
  }
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
