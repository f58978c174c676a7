// Builds the production bundle when there is none, or when the sources changed since the last one.
// The fingerprint is a hash of the files the build reads, stored next to the build.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const root = process.cwd();
const inputs = ["app", "components", "lib", "db", "public", "proxy.ts", "instrumentation.ts", "next.config.ts", "postcss.config.mjs", "tsconfig.json", "package-lock.json"];
const skip = new Set(["node_modules", ".next", ".data", "migrations-meta-cache"]);

function walk(entry, files) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return;
  const stat = fs.statSync(full);
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(full).sort()) if (!skip.has(name)) walk(path.join(entry, name), files);
  } else if (!/\.test\.tsx?$/.test(entry)) files.push(entry);
}

export function sourceFingerprint() {
  const files = [];
  for (const input of inputs) walk(input, files);
  const hash = crypto.createHash("sha256");
  for (const file of files) hash.update(file).update("\0").update(fs.readFileSync(path.join(root, file))).update("\0");
  return hash.digest("hex");
}

export function buildIfNeeded() {
  const marker = path.join(root, ".next", "switchboard-source-fingerprint");
  // The proxy's table of API routes and methods follows app/api before the build reads it.
  spawnSync(process.execPath, [path.join(root, "scripts", "api-routes.mjs")], { stdio: "inherit" });
  const fingerprint = sourceFingerprint();
  const current =
    fs.existsSync(path.join(root, ".next", "BUILD_ID")) &&
    fs.existsSync(marker) &&
    fs.readFileSync(marker, "utf8") === fingerprint;
  if (current) return false;
  console.log("[switchboard] no current production build: running `next build` (a minute or two)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(marker, fingerprint);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfNeeded();
