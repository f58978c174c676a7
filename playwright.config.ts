import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3123);
const baseURL = `http://127.0.0.1:${port}`;

/**
 * End-to-end tests drive Debian's Chromium (apt-get install chromium) against the production build,
 * served by `npm start` on a fresh embedded database of its own (.data-e2e, wiped before each run).
 * tests/e2e/https-signout.spec.ts starts a second server of the same build, with an https PUBLIC_URL,
 * on E2E_HTTPS_PORT (default E2E_PORT + 1).
 */
export default defineConfig({
  testDir: "./tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
          args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
        },
      },
    },
  ],
  webServer: {
    command: "rm -rf .data-e2e && node scripts/start.mjs",
    url: `${baseURL}/`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(port),
      DATABASE_URL: "",
      PGLITE_DATA_DIR: ".data-e2e/pglite",
      PUBLIC_URL: baseURL,
      // The ConversationRelay gateway starts beside the app: any free port, so parallel runs never collide.
      GATEWAY_PORT: "0",
      BETTER_AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
      // Every test signs up its own users from 127.0.0.1: lift the per-address registration limit
      // (10 an hour by default; tests/integration/security.test.ts checks it).
      REGISTRATIONS_PER_IP_PER_HOUR: "1000",
      // The MCP and A2A specs register counterparts that run in the test process on 127.0.0.1, and
      // the website import test serves its site there (tests/fakes/business-site.ts).
      ALLOW_PRIVATE_ENDPOINTS: "true",
    },
  },
});
