// npm test — unit and integration tests (jest, against a fresh database), then the end-to-end
// tests (Playwright in Debian's Chromium against the production build). SKIP_E2E=1 runs jest only.
import { spawnSync } from "node:child_process";
import path from "node:path";

const bin = (name) => path.join(process.cwd(), "node_modules", ".bin", name);
const run = (cmd, args, env = {}) => {
  const result = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const nodeOptions = [process.env.NODE_OPTIONS, "--experimental-vm-modules"].filter(Boolean).join(" ");
run(bin("jest"), process.argv.slice(2), { NODE_OPTIONS: nodeOptions, NODE_ENV: "test" });

if (process.env.SKIP_E2E === "1") {
  console.log("[switchboard] SKIP_E2E=1: end-to-end tests skipped");
} else {
  run(process.execPath, ["scripts/build-if-needed.mjs"]);
  run(bin("playwright"), ["test"]);
}
